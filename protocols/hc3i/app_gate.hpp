/* Whether an HC3I node's application may run depends on several parts (a CLC under way, a
 * recovery, no CLC yet): the node decides, and the parts that change one of those states ask it
 * to decide again. */
#pragma once

#include "sim/protocol/protocol.hpp"

namespace ckptsim::hc3i {

class AppGate {
 public:
  /** @brief Pauses or resumes the application, from the parts' states now. */
  virtual void update_app(NodeContext& ctx) = 0;

 protected:
  ~AppGate() = default;
};

} // namespace ckptsim::hc3i
