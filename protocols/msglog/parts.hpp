/* The parts of a msglog process (process.hpp says what each owns), wired together: each gets the
 * parts it talks to by reference. Process owns one Parts; the part tests build the same, so that
 * what they test is wired as the protocol runs it. */
#pragma once

#include "protocols/msglog/catchup.hpp"
#include "protocols/msglog/checkpoints.hpp"
#include "protocols/msglog/determinants.hpp"
#include "protocols/msglog/execution.hpp"
#include "protocols/msglog/identity.hpp"
#include "protocols/msglog/inbox.hpp"
#include "protocols/msglog/orphans.hpp"
#include "protocols/msglog/recovery.hpp"
#include "protocols/msglog/replay.hpp"
#include "protocols/msglog/sender_log.hpp"
#include "sim/protocol/protocol.hpp"

namespace ckptsim::msglog {

/** @brief Routes control message @p msg from @p from to the part it is for (Process::on_control,
 *  Parts::control). */
void dispatch_control(NodeContext& ctx, NodeId from, const ControlMessage& msg, SenderLog& log, Determinants& dets,
                      Checkpoints& checkpoints, Recovery& recovery, Orphans& orphans);

/** @brief Process @p self's parts. */
struct Parts {
  Parts(const FederationLayout& layout, NodeId self, Options options = {})
      : id(layout, self, options)
      , log(id, exec, dets, inbox, recovery)
      , dets(id, exec, log)
      , inbox(id, exec, dets, orphans, replay, recovery)
      , checkpoints(id, exec, dets, recovery, orphans)
      , replay(id, exec)
      , catchup(id)
      , recovery(id, exec, log, dets, inbox, replay, catchup, checkpoints, orphans)
      , orphans(id, exec, log, dets, inbox, replay, catchup, checkpoints, recovery) {}
  Parts(const Parts&) = delete; // the parts hold references to each other
  Parts& operator=(const Parts&) = delete;

  /** @brief Control message @p m from @p from, to the part it is for. */
  void control(NodeContext& ctx, NodeId from, const ControlMessage& m) {
    dispatch_control(ctx, from, m, log, dets, checkpoints, recovery, orphans);
  }

  const Identity id;
  Execution exec;
  SenderLog log;
  Determinants dets;
  Inbox inbox;
  Checkpoints checkpoints;
  Replay replay;
  CatchUp catchup;
  Recovery recovery;
  Orphans orphans;
};

} // namespace ckptsim::msglog
