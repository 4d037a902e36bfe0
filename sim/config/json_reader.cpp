#include "sim/config/json_reader.hpp"

#include "sim/config/file_errors.hpp"
#include "sim/config/nearest.hpp"

#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <limits>
#include <sstream>

namespace ckptsim {

namespace {
std::string escape_pointer_token(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string type_of(const json& j) { return j.type_name(); }
} // namespace

Where Where::operator/(std::string_view key) const { return Where(file_, path_ + "/" + escape_pointer_token(key)); }
Where Where::operator/(std::size_t index) const { return Where(file_, path_ + "/" + std::to_string(index)); }
void Where::fail(const std::string& problem) const { throw InputError(file_, path_, problem); }

bool is_documentation_key(std::string_view key) { return key == "$schema" || key == "comment" || key == "//"; }

double as_number(const json& j, const Where& at) {
  if (!j.is_number()) at.fail(fmt::format("expected a number, found {}", type_of(j)));
  double v = j.get<double>();
  if (!std::isfinite(v)) at.fail("expected a finite number");
  return v;
}

double as_quantity(const json& j, const Where& at, units::Kind kind) {
  if (j.is_number()) return as_number(j, at);
  if (!j.is_string())
    at.fail(fmt::format("expected {} (a number in SI units or a string with a unit), found {}", units::kind_name(kind),
                        type_of(j)));
  std::string why;
  auto v = units::parse(j.get<std::string>(), kind, &why);
  if (!v) at.fail(why);
  return *v;
}

double as_positive_quantity(const json& j, const Where& at, units::Kind kind) {
  double v = as_quantity(j, at, kind);
  if (!(v > 0) || std::isinf(v))
    at.fail(fmt::format("must be {} greater than zero and finite, found {}", units::kind_name(kind), j.dump()));
  return v;
}

double as_nonnegative_quantity(const json& j, const Where& at, units::Kind kind) {
  double v = as_quantity(j, at, kind);
  if (v < 0 || std::isinf(v))
    at.fail(fmt::format("must be {} >= 0 and finite, found {}", units::kind_name(kind), j.dump()));
  return v;
}

double as_period(const json& j, const Where& at) {
  if (j.is_null() || (j.is_string() && j.get<std::string>() == "never")) return std::numeric_limits<double>::infinity();
  double v = as_quantity(j, at, units::Kind::Duration);
  if (!(v > 0))
    at.fail(fmt::format("a period must be greater than zero (or null / \"inf\" for never), found {}", j.dump()));
  return v;
}

double as_probability(const json& j, const Where& at) {
  double v = as_number(j, at);
  if (v < 0 || v > 1) at.fail(fmt::format("a probability must be within [0, 1], found {}", j.dump()));
  return v;
}

std::int64_t as_integer(const json& j, const Where& at, std::int64_t min, std::int64_t max) {
  if (!j.is_number_integer() && !(j.is_number_float() && std::floor(j.get<double>()) == j.get<double>()))
    at.fail(fmt::format("expected an integer, found {}", j.is_number() ? j.dump() : type_of(j)));
  double v = j.get<double>();
  if (v < static_cast<double>(min) || v > static_cast<double>(max))
    at.fail(fmt::format("must be an integer within [{}, {}], found {}", min, max, j.dump()));
  return static_cast<std::int64_t>(v);
}

std::string as_string(const json& j, const Where& at) {
  if (!j.is_string()) at.fail(fmt::format("expected a string, found {}", type_of(j)));
  return j.get<std::string>();
}

bool as_bool(const json& j, const Where& at) {
  if (!j.is_boolean()) at.fail(fmt::format("expected true or false, found {}", type_of(j)));
  return j.get<bool>();
}

std::string as_choice(const json& j, const Where& at, const std::vector<std::string>& choices) {
  std::string s = as_string(j, at);
  for (const auto& c : choices)
    if (c == s) return s;
  at.fail(fmt::format("\"{}\" is not one of: {}", s, fmt::join(choices, ", ")));
}

ObjectReader::ObjectReader(const json& j, Where at)
    : obj_(j)
    , at_(std::move(at)) {
  if (!j.is_object()) at_.fail(fmt::format("expected an object, found {}", type_of(j)));
}

const json* ObjectReader::optional(const std::string& key) {
  seen_.insert(key);
  auto it = obj_.find(key);
  return it == obj_.end() ? nullptr : &*it;
}

const json& ObjectReader::required(const std::string& key) {
  const json* v = optional(key);
  if (!v) {
    // A field of the document near the missing one, that nothing read so far, is most likely its
    // misspelling ("totaltime"): named as the unknown field it is, rather than the missing one only.
    std::vector<std::string> unread;
    for (const auto& [k, value] : obj_.items())
      if (!is_documentation_key(k) && !seen_.count(k)) unread.push_back(k);
    for (const auto& k : unread)
      if (nearest_name(k, {key}))
        (at_ / k).fail(
            fmt::format("unknown field \"{}\" (did you mean \"{}\"? it is required here and missing)", k, key));
    at_.fail(fmt::format("missing required field \"{}\"", key));
  }
  return *v;
}

void ObjectReader::finish() const {
  for (const auto& [key, value] : obj_.items()) {
    if (is_documentation_key(key)) continue;
    if (!seen_.count(key)) {
      std::vector<std::string> known(seen_.begin(), seen_.end());
      (at_ / key).fail(fmt::format("unknown field \"{}\" ({}known fields here: {})", key, did_you_mean_head(key, known),
                                   fmt::join(known, ", ")));
    }
  }
}

json parse_json_text(const std::string& text, const std::string& name) {
  try {
    return json::parse(text, nullptr, true, /*ignore_comments=*/true);
  } catch (const json::parse_error& e) {
    throw InputError(name, "", fmt::format("invalid JSON at byte {}: {}", e.byte, e.what()));
  }
}

json load_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "", cannot_open_reason(path));
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_json_text(ss.str(), path);
}

} // namespace ckptsim
