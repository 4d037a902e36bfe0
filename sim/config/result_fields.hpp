/* What every field of a run's results document means: each part of the simulator that writes
 * fields registers their description where it writes them (the engine in sim/engine/, each
 * protocol in its folder, storage models and failure sources in theirs: protocols include it
 * through sim/protocol/result_fields.hpp), and docs/RESULTS.md is generated from the registrations
 * (`ckptsim list --results`); a test fails when a run writes a field no registration explains.
 *
 * A field is named by its JSON pointer in the document, with two wildcards: "<NAME>" stands for
 * one name or part of a name (no '/'), e.g. "/stats/counters/ctrl.<TYPE>"; "[]" for every element
 * of an array of records, e.g. "/stats/series/failures[]/date". An array of numbers (per cluster,
 * a matrix) is one field. */
#pragma once

#include "sim/config/registry.hpp"

#include <string>
#include <vector>

namespace ckptsim {

struct ResultField {
  std::string path;    // JSON pointer pattern, e.g. "/results/makespan"
  std::string unit;    // "s", "bytes", "messages", "count", "" (text, flag)...
  std::string meaning; // what it is and how it is computed: a sum over what, a mean, a maximum...
};

/** @brief The fields one part of the simulator writes. */
struct ResultFieldsInfo {
  std::string name;  // "engine", a protocol's name, ...
  std::string title; // the heading of its section in docs/RESULTS.md
  std::vector<ResultField> fields;
  int rank = 0; // sections in rank order, then by name
};

using ResultFieldsRegistry = Registry<ResultFieldsInfo>;
using ResultFieldsRegistration = Registration<ResultFieldsInfo>;

/** @brief Whether @p path (a concrete pointer, "[]" for array elements) matches @p pattern. */
bool result_field_matches(const std::string& pattern, const std::string& path);

/** @brief The registered field explaining @p path, or nullptr. */
const ResultField* explain_result_field(const std::string& path);

/** @brief The reference of every registered field, as the Markdown of docs/RESULTS.md's tables. */
std::string result_fields_markdown();

} // namespace ckptsim
