#include "sim/app/mpi_trace/collectives.hpp"

#include "sim/config/input_error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <vector>

namespace ckptsim::mpi {

namespace {

// Tags of the collectives' messages: negative, so they never meet an application's (>= 0). SMPI
// gives each collective its own COLL_TAG_* value; here the v-forms share their plain form's tag
// (scan and exscan share one in SMPI too). Every rank runs the same collectives in the same order,
// and in each one rank s sends rank d exactly as many messages as d posts receives from s, so
// first-in first-out matching by (source, destination, tag) pairs the same messages either way.
enum CollTag : int {
  kTagBarrier = -10,
  kTagBcast = -11,
  kTagReduce = -12,
  kTagGather = -13,
  kTagScatter = -14,
  kTagAllgather = -15,
  kTagAlltoall = -16,
  kTagScan = -17,
  kTagReduceScatter = -18,
};

double count_of(const Trace& t, const TraceAction& a, int i) {
  return t.counts[a.counts + static_cast<std::size_t>(i)];
}

[[noreturn]] void fail_collective(const Trace& t, const TraceAction& a, const std::string& problem) {
  throw InputError(t.files[a.file], fmt::format("line {}", a.line), problem);
}

/** @brief Request::sendrecv: the send and the receive posted together, then both waited for; a
 *  rank exchanging with itself copies locally (no message). */
void coll_sendrecv(RankBuilder& b, int dst, double sent, int src, double received, int tag) {
  if (dst == b.rank() && src == b.rank()) return;
  std::uint32_t in = b.post(src, tag, received);
  b.wait({in, b.send(dst, tag, sent)});
}

/** @brief barrier__ompi_basic_linear: every rank but 0 sends an empty message to 0 and waits for
 *  one back; 0 receives them all, then answers them all. */
void barrier(RankBuilder& b, int n) {
  if (b.rank() > 0) {
    b.send_blocking(0, kTagBarrier, 0);
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
void bcast(RankBuilder& b, int n, int root, double bytes) {
  const int rank = b.rank();
  const int relative = rank >= root ? rank - root : rank - root + n;
  int mask = 1;
  while (mask < n) {
    if (relative & mask) {
      int src = rank - mask;
      if (src < 0) src += n;
      b.recv(src, kTagBcast, bytes);
      break;
    }
    mask <<= 1;
  }
  mask >>= 1;
  while (mask > 0) {
    if (relative + mask < n) {
      int dst = rank + mask;
      if (dst >= n) dst -= n;
      b.send_blocking(dst, kTagBcast, bytes); // each forward waits for the previous one (from 64 KiB)
    }
    mask >>= 1;
  }
}

/** @brief The linear rooted collectives (igather, ireduce, iscatter and their v forms): the
 *  root exchanges one message with every other rank in rank order, all posted at once, then
 *  waits for all. @p to_root: the others send to the root (gather, reduce), else the root sends
 *  (scatter). */
template <class BytesOf>
void linear_rooted(RankBuilder& b, int n, int root, bool to_root, int tag, BytesOf bytes_of) {
  if (b.rank() != root) {
    if (to_root)
      b.send_blocking(root, tag, bytes_of(b.rank()));
    else
      b.recv(root, tag, bytes_of(b.rank()));
    return;
  }
  std::vector<std::uint32_t> in;
  for (int other = 0; other < n; other++) {
    if (other == root) continue;
    in.push_back(to_root ? b.post(other, tag, bytes_of(other)) : b.send(other, tag, bytes_of(other)));
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
    in.push_back(b.send(other, kTagAllgather, sent));
    in.push_back(b.post(other, kTagAllgather, bytes_from(other)));
  }
  b.wait(in);
}

/** @brief ialltoallv: receives from every other rank posted in rank order, then sends to every
 *  other rank in rank order, then waits for all. Zero counts still make (empty) messages. */
void linear_alltoallv(const Trace& t, const TraceAction& a, RankBuilder& b, int n) {
  std::vector<std::uint32_t> in;
  for (int i = 0; i < n; i++)
    if (i != b.rank()) in.push_back(b.post(i, kTagAlltoall, count_of(t, a, n + i)));
  for (int i = 0; i < n; i++)
    if (i != b.rank()) in.push_back(b.send(i, kTagAlltoall, count_of(t, a, i)));
  b.wait(in);
}

/** @brief scan / exscan (SMPI's only implementation): receives from every lower rank, the same
 *  block sent to every higher rank, all posted at once, then waited for. */
void scan_linear(RankBuilder& b, int n, double bytes) {
  std::vector<std::uint32_t> in;
  for (int other = 0; other < b.rank(); other++) in.push_back(b.post(other, kTagScan, bytes));
  for (int other = b.rank() + 1; other < n; other++) in.push_back(b.send(other, kTagScan, bytes));
  b.wait(in);
}

// ---- alltoall: alltoall__ompi's choice among three algorithms ----

enum class AlltoallAlgorithm : std::uint8_t { Linear, Pairwise, Bruck };

/** @brief alltoall__ompi's decision (smpi_openmpi_selector.cpp) by the number of ranks and the
 *  bytes sent to each rank; its "linear_sync" and "two_proc" choices run basic_linear in SMPI. */
AlltoallAlgorithm alltoall_algorithm(int n, double bytes) {
  using A = AlltoallAlgorithm;
  struct Step {
    double below; // the first step whose bound exceeds the bytes decides
    A algorithm;
  };
  struct Band {
    int below_ranks;
    std::vector<Step> steps;
    A otherwise;
  };
  constexpr A L = A::Linear, W = A::Pairwise, K = A::Bruck;
  static const std::vector<Band> kBands = {
      // 1 rank: nothing to send whatever the choice (pairwise included: 1 is a power of two)
      {3, {{2, W}, {4, L}, {16, W}, {64, L}, {256, W}, {4096, L}, {32768, W}, {1048576, L}}, W},
      {8, {{524288, L}, {1048576, W}}, L},
      {16, {}, L},
      {32, {{4, L}, {512, K}}, L},
      {64, {{512, K}}, L},
      {256, {{1024, K}, {262144, L}}, W},
      {512, {{1024, K}, {32768, L}}, W},
      {1024, {{512, K}, {262144, L}}, W},
      {2048, {{512, K}}, L},
      {4096, {{1024, K}}, L},
      {std::numeric_limits<int>::max(), {{2048, K}}, L},
  };
  const Band& band = *std::find_if(kBands.begin(), kBands.end(), [&](const Band& x) { return n < x.below_ranks; });
  for (const Step& s : band.steps)
    if (bytes < s.below) return s.algorithm;
  return band.otherwise;
}

/** @brief alltoall__basic_linear: receives posted from r + 1, r + 2, ..., r - 1, sends to
 *  r - 1, r - 2, ..., r + 1 (ranks modulo n), then waits for all. */
void alltoall_linear(RankBuilder& b, int n, double sent, double received) {
  const int rank = b.rank();
  std::vector<std::uint32_t> in;
  for (int i = (rank + 1) % n; i != rank; i = (i + 1) % n) in.push_back(b.post(i, kTagAlltoall, received));
  for (int i = (rank + n - 1) % n; i != rank; i = (i + n - 1) % n) in.push_back(b.send(i, kTagAlltoall, sent));
  b.wait(in);
}

/** @brief alltoall__pair (n a power of two): for i = 0 ... n - 1, a sendrecv with r XOR i. */
void alltoall_pairwise(RankBuilder& b, int n, double sent, double received) {
  for (int i = 0; i < n; i++) coll_sendrecv(b, b.rank() ^ i, sent, b.rank() ^ i, received, kTagAlltoall);
}

/** @brief alltoall__bruck: for each power of two p < n, a sendrecv to r + p and from r - p of
 *  the blocks whose index has bit p set, packed: their count times the send count, in elements
 *  of the receive datatype. The local rotations before and after are self-copies. */
void alltoall_bruck(RankBuilder& b, int n, double block) {
  const int rank = b.rank();
  for (int pof2 = 1; pof2 < n; pof2 *= 2) {
    int blocks = 0;
    for (int k = 1; k < n; k++)
      if (k & pof2) blocks++;
    coll_sendrecv(b, (rank + pof2) % n, blocks * block, (rank - pof2 + n) % n, blocks * block, kTagAlltoall);
  }
}

void alltoall_ompi(const Trace& t, const TraceAction& a, RankBuilder& b, int n) {
  switch (alltoall_algorithm(n, a.amount)) {
  case AlltoallAlgorithm::Linear:
    alltoall_linear(b, n, a.amount, a.amount2);
    break;
  case AlltoallAlgorithm::Pairwise:
    if ((n & (n - 1)) != 0)
      fail_collective(t, a,
                      fmt::format("SMPI's alltoall for {} ranks and {:g} bytes per rank uses the pairwise "
                                  "algorithm, which needs a power-of-two number of ranks (SMPI aborts)",
                                  n, a.amount));
    alltoall_pairwise(b, n, a.amount, a.amount2);
    break;
  case AlltoallAlgorithm::Bruck:
    alltoall_bruck(b, n, a.elements * a.type_size);
    break;
  }
}

// ---- reducescatter: reduce + scatterv when regular, else MPICH's algorithms ----

/** @brief reduce_scatter__mpich_pair: for i = 1 ... n - 1, a sendrecv sending r + i its block
 *  and receiving r's block from r - i. */
void reduce_scatter_pairwise(RankBuilder& b, int n, const std::vector<double>& block) {
  const int rank = b.rank();
  for (int i = 1; i < n; i++) {
    const int dst = (rank + i) % n, src = (rank - i + n) % n;
    coll_sendrecv(b, dst, block[static_cast<std::size_t>(dst)], src, block[static_cast<std::size_t>(rank)],
                  kTagReduceScatter);
  }
}

/** @brief reduce_scatter__mpich_rdb, recursive doubling: at step mask = 2^i, r exchanges with
 *  r XOR mask every block but those of its own subtree of 2^i ranks (the partner likewise);
 *  when the partner's subtree lies beyond the last rank (n not a power of two), the ranks of
 *  r's subtree that had a partner forward what they received to those that had none, by
 *  recursive halving (the source's lines 324-472, sizes only). */
void reduce_scatter_recursive_doubling(RankBuilder& b, int n, const std::vector<double>& block) {
  const int rank = b.rank();
  auto blocks = [&](int from, int to) { // the bytes of blocks [from, to) that exist
    double sum = 0;
    for (int j = from; j < std::min(to, n); j++) sum += block[static_cast<std::size_t>(j)];
    return sum;
  };
  for (int mask = 1, i = 0; mask < n; mask <<= 1, i++) {
    const int dst = rank ^ mask;
    const int my_tree = rank >> i << i, dst_tree = dst >> i << i;
    const double sent = blocks(0, my_tree) + blocks(my_tree + mask, n);
    const double received = blocks(0, dst_tree) + blocks(dst_tree + mask, n);
    if (dst < n) coll_sendrecv(b, dst, sent, dst, received, kTagReduceScatter);
    if (dst_tree + mask <= n) continue;
    // Ranks [tree, tree + completed) have the data; in my subtree, they pass it on.
    const int completed = n - my_tree - mask;
    for (int sub = mask >> 1, k = i; sub > 0; sub >>= 1, k--) {
      const int peer = rank ^ sub, tree = rank >> k << k;
      if (peer > rank && rank < tree + completed && peer >= tree + completed)
        b.send_blocking(peer, kTagReduceScatter, received);
      else if (peer < rank && peer < tree + completed && rank >= tree + completed)
        b.recv(peer, kTagReduceScatter, received);
    }
  }
}

/** @brief reduce_scatter__default: equal counts: a reduce of every block to rank 0, then a
 *  scatterv from 0; else reduce_scatter__mpich, which (with SMPI's null operation, commutative)
 *  takes the pairwise algorithm above 524288 elements in all, recursive doubling below. */
void reduce_scatter_default(const Trace& t, const TraceAction& a, RankBuilder& b, int n) {
  std::vector<double> block(static_cast<std::size_t>(n));
  double elements = 0;
  bool regular = true;
  for (int r = 0; r < n; r++) {
    elements += count_of(t, a, r);
    regular = regular && count_of(t, a, r) == count_of(t, a, 0);
    block[static_cast<std::size_t>(r)] = count_of(t, a, r) * a.type_size;
  }
  if (regular) {
    linear_rooted(b, n, 0, true, kTagReduce, [&](int) { return elements * a.type_size; });
    linear_rooted(b, n, 0, false, kTagScatter, [&](int r) { return block[static_cast<std::size_t>(r)]; });
  } else if (elements > 524288) {
    reduce_scatter_pairwise(b, n, block);
  } else {
    reduce_scatter_recursive_doubling(b, n, block);
  }
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
    alltoall_ompi(t, a, b, n);
    break;
  case Action::Alltoallv:
    linear_alltoallv(t, a, b, n);
    break;
  case Action::ReduceScatter:
    reduce_scatter_default(t, a, b, n);
    break;
  case Action::Scan:
  case Action::Exscan:
    scan_linear(b, n, a.amount);
    break;
  default:
    return;
  }
  b.compute(a.compute);
}

} // namespace ckptsim::mpi
