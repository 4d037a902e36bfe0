/* The parts of a CCK process (process.hpp says what each does), wired together: Process owns one
 * of these, and the parts' unit tests (tests/unit/test_cck_*.cpp) build the same wiring, so no
 * test copies it. Not copyable: the parts hold references to each other. */
#pragma once

#include "protocols/cck/checkpoints.hpp"
#include "protocols/cck/gather.hpp"
#include "protocols/cck/lives.hpp"
#include "protocols/cck/mailbox.hpp"
#include "protocols/cck/replay.hpp"
#include "protocols/cck/restart.hpp"
#include "protocols/cck/wave.hpp"
#include "sim/protocol/dataflow.hpp"

namespace ckptsim::cck {

struct Parts {
  Parts(const DataflowApplication& workload, NodeId coordinator, bool reuse)
      : mailbox(workload, lives, checkpoints, replay, restart)
      , wave(workload, coordinator, lives, checkpoints, mailbox, restart)
      , restart(workload, coordinator, reuse, lives, checkpoints, mailbox, wave, gather, replay) {}
  Parts(const Parts&) = delete;
  Parts& operator=(const Parts&) = delete;

  Lives lives;
  LocalCheckpoints checkpoints;
  Replay replay;
  Gather gather;
  Mailbox mailbox;
  WaveParticipant wave;
  Restart restart;
};

} // namespace ckptsim::cck
