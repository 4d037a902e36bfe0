/* The local copies of a CCK process' checkpoints (the thesis keeps one on the process and one on
 * its checkpoint server): the initial state (wave 0, never discarded), the waves saved since the
 * last committed one, and the last wave saved, which application messages carry. A restart
 * compares the current state with the recovery line's copy; a restarted process has only what it
 * reloaded from the server. */
#pragma once

#include "sim/protocol/protocol.hpp"

#include <cstdint>
#include <map>
#include <vector>

namespace ckptsim::cck {

class LocalCheckpoints {
 public:
  /** @brief Keeps the initial state as wave 0. */
  void start(NodeContext& ctx) { saved_.emplace(0, ctx.initial_snapshot().app); }
  /** @brief The last wave saved (after a restart: the recovery line). */
  std::uint64_t last_saved() const { return last_saved_; }
  /** @brief The copy of wave @p number (std::out_of_range when not kept). */
  const AppState& at(std::uint64_t number) const { return *saved_.at(number); }
  /** @brief The waves kept, ascending. */
  std::vector<std::uint64_t> numbers() const;

  /** @brief A new wave after @p committed: only the last committed wave is ever restored, so the
   *  copies older than it (but the initial state) are discarded. */
  void keep_from(NodeContext& ctx, std::uint64_t committed);
  /** @brief Saves the current state as wave @p wave, locally and on the server. */
  void save(NodeContext& ctx, std::uint64_t wave);
  /** @brief Discards wave @p number if kept (never the initial state). */
  void discard(NodeContext& ctx, std::uint64_t number);
  /** @brief A restart goes back to @p line: the messages sent from now on carry it. */
  void roll_back_to(std::uint64_t line) { last_saved_ = line; }
  /** @brief A restarted process reloaded wave @p number: its only copies are that one and the
   *  initial state. */
  void reloaded(NodeContext& ctx, std::uint64_t number, const AppStateValue& app);

 private:
  std::map<std::uint64_t, AppStateValue> saved_;
  std::uint64_t last_saved_ = 0;
};

} // namespace ckptsim::cck
