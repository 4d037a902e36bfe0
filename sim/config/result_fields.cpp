#include "sim/config/result_fields.hpp"

#include <fmt/format.h>

namespace ckptsim {

bool result_field_matches(const std::string& pattern, const std::string& path) {
  // Backtracking over "<NAME>" wildcards, each matching one or more characters other than '/'.
  std::size_t p = 0, s = 0;
  while (p < pattern.size()) {
    if (pattern[p] == '<') {
      const std::size_t close = pattern.find('>', p);
      if (close == std::string::npos) return false;
      const std::string rest = pattern.substr(close + 1);
      for (std::size_t end = s + 1; end <= path.size() && path[end - 1] != '/'; end++)
        if (result_field_matches(rest, path.substr(end))) return true;
      return false;
    }
    if (s >= path.size() || pattern[p] != path[s]) return false;
    p++;
    s++;
  }
  return s == path.size();
}

const ResultField* explain_result_field(const std::string& path) {
  for (const auto& info : ResultFieldsRegistry::instance().all())
    for (const auto& f : info.fields)
      if (result_field_matches(f.path, path)) return &f;
  return nullptr;
}

std::string result_fields_markdown() {
  std::string out;
  for (const auto& info : ResultFieldsRegistry::instance().all()) {
    if (!ResultFieldsRegistry::listed(info)) continue;
    out += fmt::format("## {}\n\n| field | unit | meaning |\n|---|---|---|\n", info.title);
    for (const auto& f : info.fields) {
      std::string meaning = f.meaning;
      for (std::size_t at = meaning.find('|'); at != std::string::npos; at = meaning.find('|', at + 2))
        meaning.replace(at, 1, "\\|");
      out += fmt::format("| `{}` | {} | {} |\n", f.path, f.unit.empty() ? "-" : f.unit, meaning);
    }
    out += "\n";
  }
  return out;
}

} // namespace ckptsim
