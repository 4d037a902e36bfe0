#include "sim/app/mpi_trace/collectives.hpp"

#include <vector>

namespace ckptsim::mpi {

namespace {

// Tags of the collectives' messages: negative, so they never meet an application's (>= 0); one
// per collective, as SMPI's COLL_TAG_* values.
enum CollTag : int {
  kTagBarrier = -10,
  kTagBcast = -11,
  kTagReduce = -12,
  kTagGather = -13,
  kTagScatter = -14,
  kTagAllgather = -15,
  kTagAlltoall = -16,
  kTagScan = -17,
};

double count_of(const Trace& t, const TraceAction& a, int i) {
  return t.counts[a.counts + static_cast<std::size_t>(i)];
}

/** @brief barrier__ompi_basic_linear: every rank but 0 sends an empty message to 0 and waits for
 *  one back; 0 receives them all, then answers them all. */
void barrier(RankBuilder& b, int n) {
  if (b.rank() > 0) {
    b.send(0, kTagBarrier, 0);
    b.recv(0, kTagBarrier, 0);
    return;
  }
  std::vector<std::uint32_t> in;
  for (int i = 1; i < n; i++) in.push_back(b.post(i, kTagBarrier, 0));
  b.wait(in);
  for (int i = 1; i < n; i++) b.send(i, kTagBarrier, 0);
}

/** @brief bcast__binomial_tree: rank r (relative to the root) receives from r - 2^k, 2^k its
 *  lowest set bit, then sends to r + 2^j for the powers of two below 2^k, largest first. */
void bcast(RankBuilder& b, int n, int root, double bytes, int tag = kTagBcast) {
  const int rank = b.rank();
  const int relative = rank >= root ? rank - root : rank - root + n;
  int mask = 1;
  while (mask < n) {
    if (relative & mask) {
      int src = rank - mask;
      if (src < 0) src += n;
      b.recv(src, tag, bytes);
      break;
    }
    mask <<= 1;
  }
  mask >>= 1;
  while (mask > 0) {
    if (relative + mask < n) {
      int dst = rank + mask;
      if (dst >= n) dst -= n;
      b.send(dst, tag, bytes);
    }
    mask >>= 1;
  }
}

/** @brief The linear rooted collectives (igather, ireduce, iscatter and their v forms): the
 *  root exchanges one message with every other rank, all posted at once, then waits for all.
 *  @p to_root: the others send to the root (gather, reduce), else the root sends (scatter). */
template <class BytesOf>
void linear_rooted(RankBuilder& b, int n, int root, bool to_root, int tag, BytesOf bytes_of) {
  if (b.rank() != root) {
    if (to_root)
      b.send(root, tag, bytes_of(b.rank()));
    else
      b.recv(root, tag, bytes_of(b.rank()));
    return;
  }
  std::vector<std::uint32_t> in;
  for (int other = 0; other < n; other++) {
    if (other == root) continue;
    if (to_root)
      in.push_back(b.post(other, tag, bytes_of(other)));
    else
      b.send(other, tag, bytes_of(other));
  }
  b.wait(in);
}

/** @brief iallgather / iallgatherv: every rank sends its block to every other and receives
 *  theirs, all posted at once (in rank order), then waits for all. */
template <class BytesFrom>
void linear_allgather(RankBuilder& b, int n, double sent, BytesFrom bytes_from) {
  std::vector<std::uint32_t> in;
  for (int other = 0; other < n; other++) {
    if (other == b.rank()) continue;
    b.send(other, kTagAllgather, sent);
    in.push_back(b.post(other, kTagAllgather, bytes_from(other)));
  }
  b.wait(in);
}

/** @brief ialltoallv (and alltoall's linear algorithm): receives from every other rank posted,
 *  then sends to every other rank, then waits for all. */
template <class SentTo, class BytesFrom>
void linear_alltoall(RankBuilder& b, int n, SentTo sent_to, BytesFrom bytes_from) {
  std::vector<std::uint32_t> in;
  for (int i = 0; i < n; i++)
    if (i != b.rank()) in.push_back(b.post(i, kTagAlltoall, bytes_from(i)));
  for (int i = 0; i < n; i++)
    if (i != b.rank()) b.send(i, kTagAlltoall, sent_to(i));
  b.wait(in);
}

} // namespace

void lower_collective(const Trace& t, const TraceAction& a, RankBuilder& b) {
  const int n = t.num_ranks();
  switch (a.action) {
  case Action::Barrier:
    barrier(b, n);
    break;
  case Action::Bcast:
    bcast(b, n, a.peer, a.amount);
    break;
  case Action::Reduce: // reduce__default with MPI_OP_NULL: the linear ireduce
    linear_rooted(b, n, a.peer, true, kTagReduce, [&](int) { return a.amount; });
    break;
  case Action::Allreduce: // allreduce__default: reduce to rank 0, then bcast from rank 0
    linear_rooted(b, n, 0, true, kTagReduce, [&](int) { return a.amount; });
    bcast(b, n, 0, a.amount);
    break;
  case Action::Gather:
    linear_rooted(b, n, a.peer, true, kTagGather, [&](int) { return b.rank() == a.peer ? a.amount2 : a.amount; });
    break;
  case Action::Gatherv:
    linear_rooted(b, n, a.peer, true, kTagGather,
                  [&](int r) { return b.rank() == a.peer ? count_of(t, a, r) : a.amount; });
    break;
  case Action::Scatter:
    linear_rooted(b, n, a.peer, false, kTagScatter, [&](int) { return b.rank() == a.peer ? a.amount : a.amount2; });
    break;
  case Action::Scatterv:
    linear_rooted(b, n, a.peer, false, kTagScatter,
                  [&](int r) { return b.rank() == a.peer ? count_of(t, a, r) : a.amount2; });
    break;
  case Action::Allgather:
    linear_allgather(b, n, a.amount, [&](int) { return a.amount2; });
    break;
  case Action::Allgatherv:
    linear_allgather(b, n, a.amount, [&](int r) { return count_of(t, a, r); });
    break;
  case Action::Alltoall:
    linear_alltoall(
        b, n, [&](int) { return a.amount; }, [&](int) { return a.amount2; });
    break;
  case Action::Alltoallv:
    linear_alltoall(
        b, n, [&](int r) { return count_of(t, a, r); }, [&](int r) { return count_of(t, a, n + r); });
    break;
  case Action::ReduceScatter: { // reduce_scatter__default, regular counts: reduce to 0, then scatterv
    double total = 0;
    for (int r = 0; r < n; r++) total += count_of(t, a, r);
    linear_rooted(b, n, 0, true, kTagReduce, [&](int) { return total; });
    linear_rooted(b, n, 0, false, kTagScatter, [&](int r) { return count_of(t, a, r); });
    break;
  }
  default:
    return;
  }
  b.compute(a.compute);
}

} // namespace ckptsim::mpi
