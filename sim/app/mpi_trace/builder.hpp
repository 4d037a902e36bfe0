/* Builds one rank's program while its trace is lowered: primitive operations, receives in posting
 * order, and the request bookkeeping of non-blocking point-to-point calls that SMPI's replay keeps
 * (requests found again by (source, destination, tag), oldest first). */
#pragma once

#include "sim/app/mpi_trace/program.hpp"

#include <deque>
#include <map>
#include <tuple>
#include <vector>

namespace ckptsim::mpi {

/** @brief A send before matching: where it goes, with which tag, and its op. */
struct PendingSend {
  std::int32_t dst;
  std::int32_t tag;
  std::uint32_t op;
};

class RankBuilder {
 public:
  RankBuilder(int rank, RankProgram& program)
      : rank_(rank)
      , p_(program) {}

  int rank() const { return rank_; }
  /** @brief The trace action the next operations come from. */
  void at(std::uint32_t action) { action_ = action; }

  void compute(double flops) { local(Op::Kind::Compute, flops, p_.flops); }
  void sleep(double seconds) { local(Op::Kind::Sleep, seconds, p_.sleep); }
  /** @brief A request nothing waits for: a send complete as soon as it is posted. */
  static constexpr std::uint32_t kComplete = 0xffff'ffffu;
  /** @brief Posts a send; returns its request (a RankProgram::waits entry), kComplete for a send
   *  below kDetachedBelow or to the rank itself. */
  std::uint32_t send(int dst, int tag, double bytes);
  /** @brief A blocking send: posted, then waited for. */
  void send_blocking(int dst, int tag, double bytes) { wait({send(dst, tag, bytes)}); }
  /** @brief Posts a receive; returns its index (its request). */
  std::uint32_t post(int src, int tag, double bytes);
  /** @brief Waits until every request of @p requests is complete (nothing when all are
   *  kComplete). */
  void wait(const std::vector<std::uint32_t>& requests);
  void recv(int src, int tag, double bytes) { wait({post(src, tag, bytes)}); }
  /** @brief A collective @p a starts here: a program-order point. */
  void point(Action a) { p_.points.push_back({static_cast<std::uint32_t>(p_.ops.size()), a}); }

  // ---- the requests of non-blocking calls (isend, irecv), as SMPI's replay keeps them ----
  void add_send_request(int dst, int tag, std::uint32_t request) { requests_[{rank_, dst, tag}].push_back(request); }
  void add_recv_request(int src, int tag, std::uint32_t recv) { requests_[{src, rank_, tag}].push_back(recv); }
  /** @brief "wait SRC DST TAG": waits for the oldest request of that key, if any. */
  void wait_request(int src, int dst, int tag);
  /** @brief "test SRC DST TAG": the oldest request of that key goes to the back of its list. */
  void test_request(int src, int dst, int tag);
  /** @brief "waitall", and the end of the trace: waits for every pending request. */
  void wait_all_requests();

  const std::vector<PendingSend>& sends() const { return sends_; }

 private:
  /** @brief A computation or a sleep of @p amount (none when 0), added to @p total. */
  void local(Op::Kind kind, double amount, double& total);
  int rank_;
  RankProgram& p_;
  std::uint32_t action_ = 0;
  std::vector<PendingSend> sends_;
  std::map<std::tuple<int, int, int>, std::deque<std::uint32_t>> requests_;
};

} // namespace ckptsim::mpi
