/* Which wave a global restart restores, and which waves the processes keep for it. With the
 * "replicated" storage model (Bondarenko-Iakobovski) every process keeps its last SD committed
 * waves and a failure burst may destroy every copy of the newest one for some process: the
 * coordinator then restores the newest kept wave that every process can still load (the paper's
 * RLFFN), asking the storage, and the run ends as unrecoverable when there is none. With one wave
 * kept (servers, buddy) this is the last committed wave, or the unrecoverable ending. */
#include "protocols/coordinated/coordinator.hpp"
#include "protocols/coordinated/participant.hpp"

#include <algorithm>

namespace ckptsim::coordinated {

bool Coordinator::choose_line(NodeContext& ctx) {
  // Newest first; 0 (the initial state) while fewer waves exist.
  auto line = ctx.recovery_line(kept_(committed_));
  if (!line) return false;
  committed_ = *line;
  next_wave_ = committed_ + 1; // the paper's save counter: placement follows k mod SD along the line
  return true;
}

void Participant::keep_last(NodeContext& ctx, std::uint64_t newest) {
  const std::vector<std::uint64_t> kept = kept_(newest);
  for (auto it = stored_.begin(); it != stored_.end();) {
    if (*it > newest || std::find(kept.begin(), kept.end(), *it) == kept.end()) {
      ctx.discard_checkpoint(*it);
      it = stored_.erase(it);
    } else {
      ++it;
    }
  }
}

void Participant::replicate_kept(NodeContext& ctx) {
  // A failed process is back: its memory held copies of the others' kept waves, and a restarted
  // process lost its own copies of the waves it did not reload. Bring them back (transfers), so
  // that the next burst of failures finds the storage as the scheme intends.
  if (rollback_due_ || restarting()) return; // done at the last node-back, once rolled back
  for (std::uint64_t k : stored_) ctx.replicate_checkpoint(k);
}

} // namespace ckptsim::coordinated
