/* A trace lowered to what the simulator runs: per rank, a list of primitive operations (compute,
 * send, wait for receives) where every collective is already its point-to-point messages
 * (collectives.hpp) and every receive is statically matched to the send that completes it. MPI's
 * matching is by (source, tag) in posting order, and a trace records the source of every receive,
 * so the k-th send of rank s to rank d with tag t completes the k-th receive rank d posts for
 * (s, t): the pairing is known before the run and does not depend on when messages arrive, which
 * is what makes a replay after a rollback the same replay.
 *
 * Transfers follow SMPI (docs/MODEL.md): a message moves once its receive is posted too
 * (rendezvous), a receive completes when its message has arrived, and a send of 64 KiB or more is
 * complete only when its message has arrived (SMPI's smpi/send-is-detached-thresh), so a wait may
 * wait for sends too; smaller sends are complete at once. The lowering checks that every receive
 * has its send, that every send has its receive and that the ranks cannot deadlock (every wait is
 * eventually satisfied when every rank runs as far as it can), so a run of a valid trace always
 * ends. */
#pragma once

#include "sim/app/mpi_trace/trace.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ckptsim::mpi {

/** @brief Sends of at least this many bytes are complete only once delivered (SMPI's
 *  smpi/send-is-detached-thresh default); smaller ones are complete as soon as posted. */
constexpr double kDetachedBelow = 65536;
/** @brief A RankProgram::waits entry with this bit is a send (its ordinal below the bit: the
 *  message's sequence number) rather than a receive index. */
constexpr std::uint32_t kSendEntry = 0x8000'0000u;

struct Op {
  enum class Kind : std::uint8_t { Compute, Sleep, Send, Wait };
  Kind kind = Kind::Compute;
  std::int32_t peer = -1;   // Send: the destination rank
  std::uint32_t first = 0;  // Send: the receive it completes (index in the destination's recvs);
                            // Wait: first of its entries in RankProgram::waits
  std::uint32_t count = 0;  // Wait: number of requests (receives and sends) it waits for
  double amount = 0;        // Compute: flops; Sleep: seconds; Send: bytes
  std::uint32_t action = 0; // the trace action it comes from (index in the rank's actions)
};

struct Recv {
  std::int32_t src = -1;
  std::int32_t tag = 0;
  double bytes = 0; // negative: the size of the matching send (a receive of unknown size)
  std::uint32_t action = 0;
  // Where it is posted: before operation posted_at (the rank's ops.size() then); a rank whose
  // next operation is posted_at, computing nothing, or that is further, has posted it.
  std::uint32_t posted_at = 0;
};

/** @brief Where a collective starts in a rank's program: a program-order point (every rank passes
 *  its collectives in the same order), numbered from 1 by collective. */
struct CollectivePoint {
  std::uint32_t op = 0; // the first operation of the collective (ops.size() if it has none left)
  Action action = Action::Barrier;
};

struct RankProgram {
  std::vector<Op> ops;
  std::vector<CollectivePoint> points; // in program order
  std::vector<std::uint32_t> waits;    // by Wait op (contiguous): receive indices, or kSendEntry | send ordinal
  std::vector<Recv> recvs;             // in posting order
  // Per send to another rank, in program order (the send's ordinal, which is the message's
  // sequence number): the receive it completes at its destination.
  std::vector<std::uint32_t> recv_of_send;
  double flops = 0;           // total of its Compute ops
  double sleep = 0;           // total of its Sleep ops (seconds)
  std::uint64_t messages = 0; // sends to other ranks
};

struct Program {
  std::vector<RankProgram> ranks;
  int num_ranks() const { return static_cast<int>(ranks.size()); }
};

/** @brief Lowers @p trace; an InputError naming the trace file and line of the first receive
 *  without its send (or send without its receive), or of a wait that can never end: with
 *  @p rendezvous SMPI's semantics, else every send complete at once (eager transfers). */
Program lower(const Trace& trace, bool rendezvous = true);

} // namespace ckptsim::mpi
