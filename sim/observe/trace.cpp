#include "sim/observe/trace.hpp"

#include "sim/config/input_error.hpp"

#include <fmt/format.h>

namespace ckptsim {

void Trace::open(const std::string& path, int level) {
  close();
  level_ = level;
  if (path.empty()) return;
  out_ = std::fopen(path.c_str(), "w");
  if (!out_) throw InputError(path, "", "cannot open the trace file for writing");
}

void Trace::close() {
  if (out_) std::fclose(out_);
  out_ = nullptr;
}

void Trace::emit(int level, double date, const char* event, const nlohmann::ordered_json& fields) {
  if (listener_ && level <= listener_level_) listener_(date, event, fields);
  if (out_ == nullptr || level > level_) return;
  // The date is printed with enough digits to be exact, and first, so traces sort by date.
  std::string line = fmt::format("{{\"t\":{},\"ev\":\"{}\"", nlohmann::json(date).dump(), event);
  if (fields.is_object())
    for (const auto& [key, value] : fields.items())
      line += fmt::format(",{}:{}", nlohmann::json(key).dump(), value.dump());
  line += "}\n";
  std::fputs(line.c_str(), out_);
}

} // namespace ckptsim
