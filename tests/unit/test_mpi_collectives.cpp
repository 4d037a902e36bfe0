/* The collectives of the "mpi-trace" kind, message by message: for hand-computed cases, every
 * rank's sends (destination and bytes) and posted receives (source and bytes) in program order,
 * as SMPI 3.32's default selector sends them (checked against `smpirun -replay` with
 * --log=smpi_request.thres:verbose for the irregular reduce-scatter and the alltoall algorithms). */
#include "sim/app/mpi_trace/program.hpp"
#include "sim/config/input_error.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fstream>

using namespace ckptsim;
using namespace ckptsim::mpi;

namespace {

using Messages = std::vector<std::string>;

// Lowers a trace where each of @p ranks runs @p action (e.g. "alltoall 10 10") between init and
// finalize.
Program mc_lower(int ranks, const std::string& action) {
  std::string text;
  for (int r = 0; r < ranks; r++) text += fmt::format("{0} init\n{0} {1}\n{0} finalize\n", r, action);
  std::string path = test_support::temp_path("mc_coll.ti");
  std::ofstream(path) << text;
  return lower(read_trace(path));
}

std::string mc_problem(int ranks, const std::string& action) {
  try {
    mc_lower(ranks, action);
  } catch (const InputError& e) {
    return e.path() + ": " + e.problem();
  }
  return "";
}

// @p rank's sends as "dst:bytes", in program order.
Messages mc_sends(const Program& p, int rank) {
  Messages out;
  for (const Op& op : p.ranks[static_cast<std::size_t>(rank)].ops)
    if (op.kind == Op::Kind::Send) out.push_back(fmt::format("{}:{:.0f}", op.peer, op.amount));
  return out;
}

// @p rank's receives as "src:bytes", in posting order.
Messages mc_recvs(const Program& p, int rank) {
  Messages out;
  for (const Recv& r : p.ranks[static_cast<std::size_t>(rank)].recvs)
    out.push_back(fmt::format("{}:{:.0f}", r.src, r.bytes));
  return out;
}

// @p rank's operations as letters: c compute, s send, w wait (with its receive count).
std::string mc_shape(const Program& p, int rank) {
  std::string out;
  for (const Op& op : p.ranks[static_cast<std::size_t>(rank)].ops) {
    if (op.kind == Op::Kind::Compute) out += "c";
    if (op.kind == Op::Kind::Send) out += "s";
    if (op.kind == Op::Kind::Wait) out += "w" + std::to_string(op.count);
  }
  return out;
}

} // namespace

TEST(MpiCollectives, AlltoallLinearPostsFromTheNextRanksAndSendsToThePreviousOnes) {
  // 3 ranks, 100 bytes each: linear. Receives from r+1, r+2; sends to r-1, r-2; one wait for all.
  const Program p = mc_lower(3, "alltoall 100 100");
  EXPECT_EQ(mc_recvs(p, 0), (Messages{"1:100", "2:100"}));
  EXPECT_EQ(mc_sends(p, 0), (Messages{"2:100", "1:100"}));
  EXPECT_EQ(mc_recvs(p, 1), (Messages{"2:100", "0:100"}));
  EXPECT_EQ(mc_sends(p, 1), (Messages{"0:100", "2:100"}));
  EXPECT_EQ(mc_sends(p, 2), (Messages{"1:100", "0:100"}));
  EXPECT_EQ(mc_shape(p, 2), "ssw2");
  // Bytes per rank are the send count times the send datatype's size (10 doubles).
  const Program q = mc_lower(5, "alltoall 10 10 0 0");
  EXPECT_EQ(mc_sends(q, 3), (Messages{"2:80", "1:80", "0:80", "4:80"}));
  EXPECT_EQ(mc_recvs(q, 3), (Messages{"4:80", "0:80", "1:80", "2:80"}));
  // 16 ranks and fewer than 4 bytes: linear too.
  EXPECT_EQ(mc_sends(mc_lower(16, "alltoall 3 3"), 0).size(), 15u);
}

TEST(MpiCollectives, AlltoallPairwiseExchangesWithRankXorI) {
  // 4 ranks and 524288 <= b < 1048576: pairwise, one sendrecv per partner r XOR 1, 2, 3.
  const Program p = mc_lower(4, "alltoall 600000 600000");
  EXPECT_EQ(mc_sends(p, 0), (Messages{"1:600000", "2:600000", "3:600000"}));
  EXPECT_EQ(mc_sends(p, 1), (Messages{"0:600000", "3:600000", "2:600000"}));
  EXPECT_EQ(mc_sends(p, 2), (Messages{"3:600000", "0:600000", "1:600000"}));
  EXPECT_EQ(mc_recvs(p, 3), (Messages{"2:600000", "1:600000", "0:600000"}));
  // Each exchange waits for its receive and for its send (600 kB: complete once delivered) before
  // the next; a 1-byte exchange waits for its receive only.
  EXPECT_EQ(mc_shape(p, 3), "sw2sw2sw2");
  // The same size on 5 ranks is linear for none: SMPI's pairwise throws, so the trace is refused.
  EXPECT_EQ(mc_problem(5, "alltoall 600000 600000"),
            "line 2: SMPI's alltoall for 5 ranks and 600000 bytes per rank uses the pairwise algorithm, which needs "
            "a power-of-two number of ranks (SMPI aborts)");
  // 2 ranks, 1 byte: pairwise; 2 bytes: linear; either is one exchange.
  EXPECT_EQ(mc_shape(mc_lower(2, "alltoall 1 1"), 0), "sw1");
  EXPECT_EQ(mc_shape(mc_lower(2, "alltoall 2 2"), 0), "sw1");
  // 1 MiB and more on 4 ranks: linear again.
  EXPECT_EQ(mc_shape(mc_lower(4, "alltoall 1048576 1048576"), 0), "sssw6"); // 3 receives, 3 large sends
  // 64 ranks from 262144 bytes: pairwise.
  EXPECT_EQ(mc_sends(mc_lower(64, "alltoall 262144 262144"), 5).front(), "4:262144");
}

TEST(MpiCollectives, AlltoallBruckSendsPackedBlocksToRankPlusPowersOfTwo) {
  // 16 ranks, 100 bytes: Bruck, 4 rounds of 8 blocks to r + 1, 2, 4, 8 from r - 1, 2, 4, 8.
  const Program p = mc_lower(16, "alltoall 100 100");
  EXPECT_EQ(mc_sends(p, 0), (Messages{"1:800", "2:800", "4:800", "8:800"}));
  EXPECT_EQ(mc_recvs(p, 0), (Messages{"15:800", "14:800", "12:800", "8:800"}));
  EXPECT_EQ(mc_sends(p, 13), (Messages{"14:800", "15:800", "1:800", "5:800"}));
  EXPECT_EQ(mc_shape(p, 13), "sw1sw1sw1sw1");
  // 20 ranks: 10, 10, 8, 8 and 4 blocks have bit 1, 2, 4, 8, 16 set; a block is the send count
  // in elements of the RECEIVE datatype (10 x 1 byte), the choice is on the send's (10 x 8 < 512).
  const Program q = mc_lower(20, "alltoall 10 10 0 2");
  EXPECT_EQ(mc_sends(q, 0), (Messages{"1:100", "2:100", "4:80", "8:80", "16:40"}));
  EXPECT_EQ(mc_recvs(q, 3), (Messages{"2:100", "1:100", "19:80", "15:80", "7:40"}));
  // 32 ranks and 512 bytes or more: linear.
  EXPECT_EQ(mc_sends(mc_lower(32, "alltoall 512 512"), 0).size(), 31u);
}

TEST(MpiCollectives, AlltoallvPostsEveryReceiveThenSendsInRankOrder) {
  const Program p = mc_lower(3, "alltoallv 6 1 2 3 6 1 2 3");
  EXPECT_EQ(mc_recvs(p, 1), (Messages{"0:1", "2:3"}));
  EXPECT_EQ(mc_sends(p, 1), (Messages{"0:1", "2:3"}));
  EXPECT_EQ(mc_shape(p, 1), "ssw2");
  // A zero count is still a message.
  EXPECT_EQ(mc_sends(mc_lower(3, "alltoallv 0 0 0 0 0 0 0 0"), 2), (Messages{"0:0", "1:0"}));
}

TEST(MpiCollectives, ScanAndExscanReceiveFromLowerRanksAndSendToHigherOnes) {
  // 10 doubles: 80 bytes to every higher rank; the flops after the messages, on every rank.
  const Program p = mc_lower(4, "scan 10 5e8 0");
  EXPECT_EQ(mc_sends(p, 0), (Messages{"1:80", "2:80", "3:80"}));
  EXPECT_EQ(mc_recvs(p, 0), Messages{});
  EXPECT_EQ(mc_sends(p, 2), (Messages{"3:80"}));
  EXPECT_EQ(mc_recvs(p, 2), (Messages{"0:80", "1:80"}));
  EXPECT_EQ(mc_shape(p, 2), "sw2c");
  EXPECT_EQ(mc_shape(p, 0), "sssc");
  EXPECT_EQ(mc_shape(p, 3), "w3c");
  const Program q = mc_lower(3, "exscan 4 0");
  EXPECT_EQ(mc_sends(q, 1), (Messages{"2:4"}));
  EXPECT_EQ(mc_recvs(q, 1), (Messages{"0:4"}));
  EXPECT_EQ(mc_problem(3, "scan 4"), "line 2: \"scan\" takes 2 to 3 arguments, not 1");
}

TEST(MpiCollectives, RegularReduceScatterIsAReduceThenAScatterv) {
  // 2 ints each: a reduce of 6 ints (24 bytes) to rank 0, then 8 bytes from 0 to each.
  const Program p = mc_lower(3, "reducescatter 2 2 2 0 1");
  EXPECT_EQ(mc_sends(p, 0), (Messages{"1:8", "2:8"}));
  EXPECT_EQ(mc_recvs(p, 0), (Messages{"1:24", "2:24"}));
  EXPECT_EQ(mc_sends(p, 2), (Messages{"0:24"}));
  EXPECT_EQ(mc_recvs(p, 2), (Messages{"0:8"}));
}

TEST(MpiCollectives, LargeIrregularReduceScatterIsPairwise) {
  // 600001 elements > 524288: for i = 1, 2, r sends r + i its block and receives its own from r - i.
  const Program p = mc_lower(3, "reducescatter 200000 200000 200001 0 6");
  EXPECT_EQ(mc_sends(p, 0), (Messages{"1:200000", "2:200001"}));
  EXPECT_EQ(mc_recvs(p, 0), (Messages{"2:200000", "1:200000"}));
  EXPECT_EQ(mc_sends(p, 1), (Messages{"2:200001", "0:200000"}));
  EXPECT_EQ(mc_sends(p, 2), (Messages{"0:200000", "1:200000"}));
  EXPECT_EQ(mc_recvs(p, 2), (Messages{"1:200001", "0:200001"}));
  EXPECT_EQ(mc_shape(p, 2), "sw2sw2"); // 200 kB sends: complete once delivered
}

TEST(MpiCollectives, SmallIrregularReduceScatterIsRecursiveDoubling) {
  // 1 to 5 ints on 5 ranks (the blocks: 4, 8, 12, 16, 20 bytes). Step 1 pairs 0-1 and 2-3, each
  // sending all blocks but its own; step 2 pairs 0-2 and 1-3, without their pair's blocks; step 4
  // pairs 0-4 (4 sends block 0-3 to 0, receives block 4), then 0 forwards what it received to 2
  // and 1, and 2 to 3 (recursive halving, as SMPI's log of this trace shows).
  const Program p = mc_lower(5, "reducescatter 1 2 3 4 5 0 1");
  EXPECT_EQ(mc_sends(p, 0), (Messages{"1:56", "2:48", "4:20", "2:40", "1:40"}));
  EXPECT_EQ(mc_recvs(p, 0), (Messages{"1:52", "2:32", "4:40"}));
  EXPECT_EQ(mc_sends(p, 1), (Messages{"0:52", "3:48"}));
  EXPECT_EQ(mc_recvs(p, 1), (Messages{"0:56", "3:32", "0:40"}));
  EXPECT_EQ(mc_sends(p, 2), (Messages{"3:48", "0:32", "3:40"}));
  EXPECT_EQ(mc_sends(p, 3), (Messages{"2:44", "1:32"}));
  EXPECT_EQ(mc_recvs(p, 3), (Messages{"2:48", "1:48", "2:40"}));
  EXPECT_EQ(mc_sends(p, 4), (Messages{"0:40"}));
  EXPECT_EQ(mc_shape(p, 0), "sw1sw1sw1ss");
  // The threshold is in elements: 300001 doubles (2.4 MB) are still recursive doubling. 3 ranks:
  // 0-1 exchange all but their own block, 0-2 likewise, then 0 forwards to 1.
  const Program q = mc_lower(3, "reducescatter 100000 100000 100001 0 0");
  EXPECT_EQ(mc_sends(q, 0), (Messages{"1:1600008", "2:800008", "1:1600000"}));
  EXPECT_EQ(mc_sends(q, 1), (Messages{"0:1600008"}));
  EXPECT_EQ(mc_sends(q, 2), (Messages{"0:1600000"}));
  EXPECT_EQ(mc_recvs(q, 2), (Messages{"0:800008"}));
}

TEST(MpiCollectives, LinearCollectivesInSmpiOrder) {
  // barrier: 1 and 2 send to 0 then wait; 0 waits for both, then answers in rank order.
  const Program b = mc_lower(3, "barrier");
  EXPECT_EQ(mc_shape(b, 0), "w2ss");
  EXPECT_EQ(mc_sends(b, 0), (Messages{"1:0", "2:0"}));
  EXPECT_EQ(mc_shape(b, 2), "sw1");
  // reduce to root 1: the others send to 1, 1 posts from 0 then 2.
  const Program r = mc_lower(3, "reduce 5 0 1 0");
  EXPECT_EQ(mc_recvs(r, 1), (Messages{"0:40", "2:40"}));
  EXPECT_EQ(mc_sends(r, 2), (Messages{"1:40"}));
  // allreduce: a reduce to 0, then the binomial bcast from 0.
  const Program a = mc_lower(4, "allreduce 3 0 1");
  EXPECT_EQ(mc_sends(a, 0), (Messages{"2:12", "1:12"}));
  EXPECT_EQ(mc_sends(a, 2), (Messages{"0:12", "3:12"}));
  EXPECT_EQ(mc_shape(a, 2), "sw1s");
  // gather / scatter at root 2: messages of the sender's count times its datatype.
  const Program g = mc_lower(3, "gather 4 4 2 1 1");
  EXPECT_EQ(mc_sends(g, 0), (Messages{"2:16"}));
  EXPECT_EQ(mc_recvs(g, 2), (Messages{"0:16", "1:16"}));
  const Program s = mc_lower(3, "scatter 4 4 2 0 0");
  EXPECT_EQ(mc_sends(s, 2), (Messages{"0:32", "1:32"}));
  EXPECT_EQ(mc_shape(s, 2), "ss");
  EXPECT_EQ(mc_shape(s, 0), "w1");
  // allgather: to and from every other rank, one wait.
  const Program ag = mc_lower(3, "allgather 2 2 0 0");
  EXPECT_EQ(mc_sends(ag, 1), (Messages{"0:16", "2:16"}));
  EXPECT_EQ(mc_recvs(ag, 1), (Messages{"0:16", "2:16"}));
  EXPECT_EQ(mc_shape(ag, 1), "ssw2");
  // allgatherv: each sends its own count; it receives the counts its line gives.
  const Program av = mc_lower(3, "allgatherv 2 1 2 3 0 0");
  EXPECT_EQ(mc_sends(av, 0), (Messages{"1:16", "2:16"}));
  EXPECT_EQ(mc_recvs(av, 0), (Messages{"1:16", "2:24"}));
}

TEST(MpiCollectives, DerivedDatatypesWeighNothingAsInSmpi) {
  // SMPI writes -1 for a derived datatype and replays it as MPI_DATATYPE_NULL, 0 bytes.
  const Program p = mc_lower(2, "bcast 100 0 -1");
  EXPECT_EQ(mc_sends(p, 0), (Messages{"1:0"}));
  EXPECT_EQ(mc_problem(2, "bcast 100 0 -2"), "line 2: datatype \"-2\" is not an integer >= -1");
}

TEST(MpiCollectives, GrammarAsSmpiReadsIt) {
  // sendRecv needs both datatypes in SMPI (6 arguments); SMPI's writer always gives them.
  EXPECT_EQ(mc_problem(2, "sendRecv 10 1 10 1"), "line 2: \"sendRecv\" takes 6 arguments, not 4");
  // Extra fields, which SMPI ignores and its writer never emits, are refused.
  EXPECT_EQ(mc_problem(2, "alltoall 1 1 6 6 6"), "line 2: \"alltoall\" takes 2 to 4 arguments, not 5");
  EXPECT_EQ(mc_problem(2, "exscan 1 0 6 6"), "line 2: \"exscan\" takes 2 to 3 arguments, not 4");
}
