/* The results of a sweep: one record per run, appended as a JSON line the moment the run ends
 * (the file a resumed sweep reads back), and the same records as a CSV table, one row per run,
 * with every axis value in its row. Records carry the sweep's fingerprint so that results of a
 * changed sweep are never mixed with older ones. */
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace ckptsim::sweep {

struct Record {
  std::size_t index = 0;
  std::string key;
  std::vector<std::pair<std::string, std::string>> values;         // the columns naming the run, in order
  std::string status;                                              // ok, failed, bad input, crashed, timeout
  int exit = 0;                                                    // exit status, or the signal that killed it
  double wall = 0;                                                 // seconds (JSON lines only: it varies run to run)
  std::string error;                                               // the end of the run's stderr when it failed
  nlohmann::ordered_json stats = nlohmann::ordered_json::object(); // kept result columns
  std::string sweep;                                               // fingerprint of the sweep and its inputs
};

nlohmann::ordered_json to_json(const Record& r);
/** @brief One JSON line back; std::invalid_argument when it is not a record. */
Record record_from_json(const nlohmann::ordered_json& j);

/** @brief The records of a JSON-lines file (none when it does not exist). A last line cut short
 *  by an interruption is dropped (with a warning on stderr); any other bad line is an InputError. */
std::vector<Record> read_records(const std::string& path);

/** @brief Whether @p later, read after @p earlier for the same run, replaces it: a successful record
 *  wins over a failed one wherever each was read; among records alike, the later one. */
inline bool supersedes(const Record& later, const Record& earlier) {
  return later.status == "ok" || earlier.status != "ok";
}

/** @brief Appends and flushes one record (a crash of the sweep loses at most the line being written). */
void append_record(const std::string& path, const Record& r);

/** @brief A CSV field, quoted when it must be. */
std::string csv_field(const std::string& s);
/** @brief The CSV header and one row, with the result columns @p stats in this order. */
std::string csv_header(const Record& any, const std::vector<std::string>& stats);
std::string csv_row(const Record& r, const std::vector<std::string>& stats);

/** @brief The CSV table (one row per run, sorted by index; the same records give the same bytes),
 *  after '#' lines saying how it was made. */
std::string csv_table(std::vector<Record> records, const std::vector<std::string>& comments);

/** @brief The result columns of @p records in a fixed order (first seen in index order). */
std::vector<std::string> stat_columns(const std::vector<Record>& records);

/** @brief The last @p max characters of a text file (a failed run's stderr). */
std::string tail_of_file(const std::string& path, std::size_t max = 600);

} // namespace ckptsim::sweep
