#include "protocols/cck/checkpoints.hpp"

namespace ckptsim::cck {

std::vector<std::uint64_t> LocalCheckpoints::numbers() const {
  std::vector<std::uint64_t> out;
  for (const auto& [number, app] : saved_) out.push_back(number);
  return out;
}

void LocalCheckpoints::keep_from(NodeContext& ctx, std::uint64_t committed) {
  for (auto it = saved_.begin(); it != saved_.end();)
    if (it->first != 0 && it->first < committed) {
      ctx.discard_checkpoint(it->first);
      it = saved_.erase(it);
    } else {
      ++it;
    }
}

void LocalCheckpoints::save(NodeContext& ctx, std::uint64_t wave) {
  Snapshot s = ctx.snapshot({});
  saved_[wave] = s.app;
  last_saved_ = wave;
  ctx.save_checkpoint(wave, std::move(s));
}

void LocalCheckpoints::discard(NodeContext& ctx, std::uint64_t number) {
  if (number == 0 || !saved_.erase(number)) return;
  ctx.discard_checkpoint(number);
}

void LocalCheckpoints::reloaded(NodeContext& ctx, std::uint64_t number, const AppStateValue& app) {
  saved_.clear();
  saved_[0] = ctx.initial_snapshot().app;
  saved_[number] = app;
  last_saved_ = number;
}

} // namespace ckptsim::cck
