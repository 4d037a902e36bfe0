/* The JSON-lines trace (docs/TRACE.md): one event per line, {"t": date, "ev": kind, ...}.
 * Level 0: run-level events (failures, checkpoints, rollbacks, recoveries); level 1 adds every
 * application send and delivery; level 2 adds every node action (timers, control messages). */
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <functional>
#include <memory>
#include <string>

namespace ckptsim {

class Trace {
 public:
  Trace() = default;
  /** @brief Writes to @p path (truncated) at the given level; an empty path disables the trace. */
  void open(const std::string& path, int level);
  void close();
  bool enabled(int level) const {
    return (out_ != nullptr && level <= level_) || (listener_ && level <= listener_level_);
  }
  /** @brief Another reader of the events up to @p level (the Paje export), whatever the file's
   *  level: it gets (date, event, fields) of each. */
  using Listener = std::function<void(double, const char*, const nlohmann::ordered_json&)>;
  void listen(int level, Listener listener) {
    listener_level_ = level;
    listener_ = std::move(listener);
  }
  /** @brief Emits one event if @p level is enabled; @p fields are written after "t" and "ev". */
  void emit(int level, double date, const char* event, const nlohmann::ordered_json& fields = {});
  ~Trace() { close(); }

 private:
  std::FILE* out_ = nullptr;
  int level_ = 0;
  Listener listener_;
  int listener_level_ = -1;
};

} // namespace ckptsim
