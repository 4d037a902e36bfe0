/* One immutable copy of a piece of protocol state, shared by the consecutive checkpoints that
 * save it unchanged: a storm of forced checkpoints with no message in between saves the same
 * log and the same per-channel counts many times, and a copy each grew with the peers met
 * (millions of checkpoints held between collections at 100,000 nodes). Comparing costs what the
 * copy cost; equality decides reuse, so a shared copy always holds what a fresh one would. */
#pragma once

#include <memory>

namespace ckptsim {

/** @brief @p saved when it still equals @p now, else a new copy of @p now (kept in @p saved). */
template <class T>
const std::shared_ptr<const T>& shared_copy(std::shared_ptr<const T>& saved, const T& now) {
  if (!saved || *saved != now) saved = std::make_shared<const T>(now);
  return saved;
}

} // namespace ckptsim
