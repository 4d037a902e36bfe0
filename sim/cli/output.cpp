#include "sim/cli/output.hpp"

#include "sim/config/input_error.hpp"

#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <unistd.h>

namespace ckptsim {

namespace {
void flatten(const nlohmann::ordered_json& j, const std::string& prefix,
             std::vector<std::pair<std::string, std::string>>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) flatten(v, prefix.empty() ? k : prefix + "." + k, out);
  } else if (j.is_array()) {
    // Arrays of records (failures, recoveries) stay in the JSON; arrays of numbers are columns.
    for (std::size_t i = 0; i < j.size(); i++)
      if (!j[i].is_object()) flatten(j[i], prefix + "." + std::to_string(i), out);
  } else if (j.is_string()) {
    out.emplace_back(prefix, j.get<std::string>());
  } else {
    out.emplace_back(prefix, j.dump());
  }
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
} // namespace

std::vector<std::pair<std::string, std::string>> flatten_results(const nlohmann::ordered_json& doc) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [k, v] : doc.items())
    if (k != "inputs") flatten(v, k, out);
  return out;
}

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::string tmp = fmt::format("{}.tmp-{}", path, getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw InputError(path, "", "cannot write the output file (does its folder exist?)");
    out << content;
    if (!out.flush()) {
      out.close();
      std::remove(tmp.c_str());
      throw InputError(path, "", "writing the output file failed");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw InputError(path, "", "cannot write the output file");
  }
}

void write_results(const std::string& path, const nlohmann::ordered_json& doc) {
  if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".csv") == 0) {
    auto rows = flatten_results(doc);
    std::string header;
    std::string values;
    for (const auto& [k, v] : rows) {
      // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on the
      // `const char* + std::string` temporary.
      if (!header.empty()) header += ',';
      if (!values.empty()) values += ',';
      header += csv_field(k);
      values += csv_field(v);
    }
    write_file_atomically(path, header + "\n" + values + "\n");
  } else {
    write_file_atomically(path, doc.dump(2) + "\n");
  }
}

std::string shell_word(const std::string& word) {
  if (!word.empty() &&
      word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,@%+") ==
          std::string::npos)
    return word;
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

} // namespace ckptsim
