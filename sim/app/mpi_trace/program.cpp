#include "sim/app/mpi_trace/program.hpp"

#include "sim/app/mpi_trace/builder.hpp"
#include "sim/app/mpi_trace/collectives.hpp"
#include "sim/config/input_error.hpp"

#include <deque>
#include <fmt/format.h>
#include <map>
#include <tuple>

namespace ckptsim::mpi {

namespace {

[[noreturn]] void fail_trace(const Trace& t, const TraceAction& a, const std::string& problem) {
  throw InputError(t.files[a.file], fmt::format("line {}", a.line), problem);
}

// The commonest cause of an unmatched message in a trace SMPI wrote: the partner's MPI_Sendrecv
// with MPI_PROC_NULL on one side leaves no action at all, not even the half that happens.
std::string proc_null_hint(int partner) {
  return fmt::format(". If rank {} calls MPI_Sendrecv with MPI_PROC_NULL as source or destination, SMPI's trace "
                     "holds nothing of that call, not even its real send or receive: call MPI_Send or MPI_Recv where "
                     "the other side is MPI_PROC_NULL (workloads/mpi/README.md)",
                     partner);
}

void lower_rank(const Trace& t, int rank, RankBuilder& b) {
  const auto& actions = t.ranks[static_cast<std::size_t>(rank)];
  for (std::uint32_t i = 0; i < actions.size(); i++) {
    const TraceAction& a = actions[i];
    b.at(i);
    switch (a.action) {
    case Action::Init:
    case Action::Finalize:
    case Action::CommSize:
    case Action::CommSplit:
    case Action::CommDup:
    case Action::Location:
      break;
    case Action::Compute:
      b.compute(a.amount);
      break;
    case Action::Sleep:
      b.sleep(a.amount);
      break;
    case Action::Send:
      b.send_blocking(a.peer, a.tag, a.amount);
      break;
    case Action::Isend:
      b.add_send_request(a.peer, a.tag, b.send(a.peer, a.tag, a.amount));
      break;
    case Action::Recv:
      b.recv(a.peer, a.tag, a.amount);
      break;
    case Action::Irecv:
      b.add_recv_request(a.peer, a.tag, b.post(a.peer, a.tag, a.amount));
      break;
    case Action::Test:
      b.test_request(a.peer, a.peer2, a.tag);
      break;
    case Action::Wait:
      b.wait_request(a.peer, a.peer2, a.tag);
      break;
    case Action::Waitall:
      b.wait_all_requests();
      break;
    case Action::SendRecv: { // Request::sendrecv: both posted, then both waited; tag 0
      std::uint32_t in = b.post(a.peer2, 0, a.amount2);
      b.wait({in, b.send(a.peer, 0, a.amount)});
      break;
    }
    default:
      b.point(a.action);
      lower_collective(t, a, b);
      break;
    }
  }
  // SMPI's replay ends a rank by waiting for the requests still pending.
  b.at(actions.empty() ? 0 : static_cast<std::uint32_t>(actions.size() - 1));
  b.wait_all_requests();
}

/** @brief Pairs the k-th send of each (source, destination, tag) with the k-th receive posted for
 *  it; fills Op::first of sends and recv_of_send. */
void match(const Trace& t, Program& p, const std::vector<std::vector<PendingSend>>& sends) {
  const int n = p.num_ranks();
  std::map<std::tuple<int, int, int>, std::deque<std::uint32_t>> posted; // (src, dst, tag) -> receives
  for (int d = 0; d < n; d++) {
    const auto& recvs = p.ranks[static_cast<std::size_t>(d)].recvs;
    for (std::uint32_t r = 0; r < recvs.size(); r++) posted[{recvs[r].src, d, recvs[r].tag}].push_back(r);
  }
  for (int s = 0; s < n; s++) {
    RankProgram& sender = p.ranks[static_cast<std::size_t>(s)];
    for (const PendingSend& ps : sends[static_cast<std::size_t>(s)]) {
      auto it = posted.find({s, ps.dst, ps.tag});
      Op& op = sender.ops[ps.op];
      const TraceAction& a = t.ranks[static_cast<std::size_t>(s)][op.action];
      if (it == posted.end() || it->second.empty())
        fail_trace(t, a,
                   fmt::format("rank {}'s {} to rank {}{} has no matching receive in rank {}'s trace{}", s,
                               action_name(a.action), ps.dst, ps.tag >= 0 ? fmt::format(" (tag {})", ps.tag) : "",
                               ps.dst, proc_null_hint(ps.dst)));
      std::uint32_t r = it->second.front();
      it->second.pop_front();
      op.first = r;
      Recv& recv = p.ranks[static_cast<std::size_t>(ps.dst)].recvs[r];
      if (recv.bytes < 0) recv.bytes = op.amount;
      if (ps.dst != s) sender.recv_of_send.push_back(r);
    }
  }
  for (const auto& [key, left] : posted)
    if (!left.empty()) {
      const auto& [src, dst, tag] = key;
      const Recv& r = p.ranks[static_cast<std::size_t>(dst)].recvs[left.front()];
      const TraceAction& a = t.ranks[static_cast<std::size_t>(dst)][r.action];
      fail_trace(t, a,
                 fmt::format("rank {}'s {} from rank {}{} has no matching send in rank {}'s trace{}", dst,
                             action_name(a.action), src, tag >= 0 ? fmt::format(" (tag {})", tag) : "", src,
                             proc_null_hint(src)));
    }
}

/** @brief Runs every rank as far as it can, in no time: a rank stuck at a wait for a message
 *  never sent, or (@p rendezvous) for a send whose receive is never posted, means the trace
 *  deadlocks (the run would never end). A receive is posted once its rank's next operation is
 *  at or past Recv::posted_at; a posted receive gets its message once the send is executed. */
void check_deadlock(const Trace& t, const Program& p, bool rendezvous) {
  const int n = p.num_ranks();
  const auto at = [](auto& v, int i) -> auto& { return v[static_cast<std::size_t>(i)]; };
  std::vector<std::size_t> pc(static_cast<std::size_t>(n), 0);
  std::vector<std::vector<char>> sent(static_cast<std::size_t>(n)); // per rank and receive: its send executed
  std::vector<std::vector<std::uint32_t>> send_op(static_cast<std::size_t>(n)); // per rank: op of each send ordinal
  std::vector<std::vector<int>> blocked_on(static_cast<std::size_t>(n)); // ranks whose send waits for this one to post
  for (int r = 0; r < n; r++) {
    const RankProgram& rp = at(p.ranks, r);
    at(sent, r).assign(rp.recvs.size(), 0);
    for (std::uint32_t i = 0; i < rp.ops.size(); i++)
      if (rp.ops[i].kind == Op::Kind::Send && rp.ops[i].peer != r) at(send_op, r).push_back(i);
  }
  // A send is complete once its receiver has posted the receive (its transfer then ends).
  const auto send_complete = [&](int r, std::uint32_t entry) {
    const Op& op = at(p.ranks, r).ops[at(send_op, r)[entry & ~kSendEntry]];
    return !rendezvous || at(pc, op.peer) >= at(p.ranks, op.peer).recvs[op.first].posted_at;
  };
  std::vector<char> queued(static_cast<std::size_t>(n), 1);
  std::deque<int> runnable;
  for (int r = 0; r < n; r++) runnable.push_back(r);
  const auto wake = [&](int r) {
    if (!at(queued, r)) {
      at(queued, r) = 1;
      runnable.push_back(r);
    }
  };
  while (!runnable.empty()) {
    const int r = runnable.front();
    runnable.pop_front();
    at(queued, r) = 0;
    const RankProgram& rp = at(p.ranks, r);
    std::size_t& i = at(pc, r);
    const std::size_t from = i;
    for (; i < rp.ops.size(); i++) {
      const Op& op = rp.ops[i];
      if (op.kind == Op::Kind::Send) {
        at(sent, op.peer)[op.first] = 1;
        wake(op.peer);
      } else if (op.kind == Op::Kind::Wait) {
        bool ready = true;
        for (std::uint32_t k = 0; k < op.count && ready; k++) {
          const std::uint32_t e = rp.waits[op.first + k];
          if (e & kSendEntry) {
            ready = send_complete(r, e);
            if (!ready) at(blocked_on, rp.ops[at(send_op, r)[e & ~kSendEntry]].peer).push_back(r);
          } else {
            ready = at(sent, r)[e] != 0;
          }
        }
        if (!ready) break;
      }
    }
    if (i != from) { // it moved on: it may have posted what blocked senders wait for
      for (int s : at(blocked_on, r)) wake(s);
      at(blocked_on, r).clear();
    }
  }
  for (int r = 0; r < n; r++) {
    const RankProgram& rp = at(p.ranks, r);
    const std::size_t i = at(pc, r);
    if (i == rp.ops.size()) continue;
    const Op& op = rp.ops[i];
    const TraceAction& a = t.ranks[static_cast<std::size_t>(r)][op.action];
    for (std::uint32_t k = 0; k < op.count; k++) {
      const std::uint32_t e = rp.waits[op.first + k];
      if ((e & kSendEntry) && !send_complete(r, e)) {
        const Op& s = rp.ops[at(send_op, r)[e & ~kSendEntry]];
        fail_trace(t, a,
                   fmt::format("the trace deadlocks: rank {} waits here for its send of {:g} bytes to rank {}, which "
                               "ends only once rank {} posts its receive, and rank {} never does (sends of {:g} "
                               "bytes or more wait for their receiver, as in SMPI)",
                               r, s.amount, s.peer, s.peer, s.peer, kDetachedBelow));
      }
      if (!(e & kSendEntry) && !at(sent, r)[e]) {
        const Recv& recv = rp.recvs[e];
        fail_trace(t, a,
                   fmt::format("the trace deadlocks: rank {} waits here for a message from rank {}{} that is never "
                               "sent (every rank runs as far as it can)",
                               r, recv.src, recv.tag >= 0 ? fmt::format(" (tag {})", recv.tag) : std::string()));
      }
    }
  }
}

} // namespace

Program lower(const Trace& trace, bool rendezvous) {
  Program p;
  p.ranks.resize(static_cast<std::size_t>(trace.num_ranks()));
  std::vector<std::vector<PendingSend>> sends(p.ranks.size());
  for (int r = 0; r < trace.num_ranks(); r++) {
    RankBuilder b(r, p.ranks[static_cast<std::size_t>(r)]);
    lower_rank(trace, r, b);
    sends[static_cast<std::size_t>(r)] = b.sends();
  }
  match(trace, p, sends);
  check_deadlock(trace, p, rendezvous);
  return p;
}

} // namespace ckptsim::mpi
