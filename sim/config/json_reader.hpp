/* Strict reading of JSON input: every access knows its file and JSON path, so every mistake is
 * reported as "file: /json/path: problem"; unknown keys are errors (a typo is never a silent
 * default). */
#pragma once

#include "sim/config/input_error.hpp"
#include "sim/units/units.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ckptsim {

using json = nlohmann::json;

/** @brief A position in an input document: file name + JSON pointer. */
class Where {
 public:
  Where(std::string file, std::string path = "")
      : file_(std::move(file))
      , path_(std::move(path)) {}
  Where operator/(std::string_view key) const;
  Where operator/(std::size_t index) const;
  [[noreturn]] void fail(const std::string& problem) const;
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }

 private:
  std::string file_;
  std::string path_;
};

/** @brief "$schema", "comment" and "//": documentation keys, allowed (and ignored) in every object,
 *  including objects keyed by cluster, node or timer names. */
bool is_documentation_key(std::string_view key);

/** @brief Typed conversions of one JSON value; each fails with a clear message. */
double as_number(const json& j, const Where& at);
double as_quantity(const json& j, const Where& at, units::Kind kind);
double as_positive_quantity(const json& j, const Where& at, units::Kind kind);
double as_nonnegative_quantity(const json& j, const Where& at, units::Kind kind);
/** @brief A duration that may be infinite: null, "inf", "never" or a positive duration. */
double as_period(const json& j, const Where& at);
double as_probability(const json& j, const Where& at);
std::int64_t as_integer(const json& j, const Where& at, std::int64_t min, std::int64_t max);
std::string as_string(const json& j, const Where& at);
bool as_bool(const json& j, const Where& at);
std::string as_choice(const json& j, const Where& at, const std::vector<std::string>& choices);

/** @brief Reads the keys of one JSON object; finish() rejects keys nobody asked for. */
class ObjectReader {
 public:
  ObjectReader(const json& j, Where at);
  ObjectReader(const ObjectReader&) = delete;
  ~ObjectReader() = default;

  const json* optional(const std::string& key);
  const json& required(const std::string& key);
  bool has(const std::string& key) const { return obj_.contains(key); }
  Where where(std::string_view key) const { return at_ / key; }
  const Where& where() const { return at_; }
  /** @brief Throws on the first key that was never read. */
  void finish() const;

 private:
  const json& obj_;
  Where at_;
  std::set<std::string> seen_;
};

/** @brief Parses a JSON file; a syntax error is an InputError naming the file and the offset. */
json load_json_file(const std::string& path);
json parse_json_text(const std::string& text, const std::string& name);

} // namespace ckptsim
