/* The "mpi-trace" application kind without SimGrid: reading SMPI's time-independent traces (both
 * layouts, every error naming file and line), lowering (the collectives' messages, counted and
 * placed by hand from the algorithms of docs/MODEL.md), static matching and deadlock detection,
 * placement, and the replay state a checkpoint copies (waits, duplicates, digests). */
#include "sim/app/mpi_trace/program.hpp"
#include "sim/app/mpi_trace/workload.hpp"
#include "sim/config/input_error.hpp"
#include "sim/config/topology.hpp"
#include "sim/scenario/readers.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace ckptsim;
using namespace ckptsim::mpi;

namespace {

const std::string kMtData = CKPTSIM_SOURCE_DIR "/tests/data/mpi";

std::string mt_problem(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.path() + ": " + e.problem();
  }
  return "";
}

// A trace file with @p text, every rank's actions in it.
std::string mt_file(const std::string& name, const std::string& text) {
  std::string path = test_support::temp_path(name);
  std::ofstream(path) << text;
  return path;
}

// One line per rank of @p ranks running @p action (e.g. "barrier"), with init and finalize.
std::string mt_everyone(int ranks, const std::string& action) {
  std::string t;
  for (int r = 0; r < ranks; r++) t += std::to_string(r) + " init\n";
  for (int r = 0; r < ranks; r++) t += std::to_string(r) + " " + action + "\n";
  return t;
}

// The sends of @p rank's program as "dst:bytes" in program order.
std::vector<std::string> mt_sends(const Program& p, int rank) {
  std::vector<std::string> out;
  for (const Op& op : p.ranks[static_cast<std::size_t>(rank)].ops)
    if (op.kind == Op::Kind::Send) out.push_back(std::to_string(op.peer) + ":" + fmt::format("{:g}", op.amount));
  return out;
}

std::uint64_t mt_messages(const Program& p) {
  std::uint64_t n = 0;
  for (const auto& r : p.ranks) n += r.messages;
  return n;
}

Topology mt_two_clusters() {
  json t = json::parse(R"({
    "clusters": [{"name": "c0", "nodes": 4, "san": {"latency": 0, "bandwidth": 1e9}},
                 {"name": "c1", "nodes": 1, "san": {"latency": 0, "bandwidth": 1e9}, "speed": "2Gf"}],
    "wan": [[{"latency": 0, "bandwidth": 1e9}]]})");
  return parse_topology(t, "topo.json", "");
}

Application mt_application(const std::string& trace, json placement = nullptr) {
  json doc{{"kind", "mpi-trace"}, {"trace", trace}};
  if (!placement.is_null()) doc["placement"] = placement;
  return parse_application(doc, "app.json", mt_two_clusters());
}

} // namespace

TEST(MpiTraceReader, OneFileHoldsEveryRank) {
  const Trace t = read_trace(kMtData + "/pingpong.ti");
  ASSERT_EQ(t.num_ranks(), 2);
  const auto& r0 = t.ranks[0];
  ASSERT_EQ(r0.size(), 5u);
  EXPECT_EQ(r0[1].action, Action::Compute);
  EXPECT_EQ(r0[1].amount, 2e9);
  EXPECT_EQ(r0[2].action, Action::Send);
  EXPECT_EQ(r0[2].peer, 1);
  EXPECT_EQ(r0[2].tag, 7);
  EXPECT_EQ(r0[2].amount, 1e6); // MPI_BYTE when the line names no datatype
  EXPECT_EQ(t.where(r0[2]), kMtData + "/pingpong.ti:6");
  EXPECT_EQ(t.ranks[1][3].action, Action::Send);
}

TEST(MpiTraceReader, AnIndexListsOneFilePerRankRelativeToItsFolder) {
  const Trace t = read_trace(kMtData + "/ring/index.ti");
  ASSERT_EQ(t.num_ranks(), 3);
  ASSERT_EQ(t.files.size(), 4u);
  EXPECT_EQ(t.files[2], kMtData + "/ring/ring_1.txt");
  const auto& r1 = t.ranks[1];
  EXPECT_EQ(r1[1].action, Action::Irecv);
  EXPECT_EQ(r1[1].peer, 0);
  EXPECT_EQ(r1[5].action, Action::Allreduce);
  EXPECT_EQ(r1[5].amount, 1000); // 125 elements of datatype 0 (MPI_DOUBLE, 8 bytes)
  EXPECT_EQ(t.where(r1[5]), kMtData + "/ring/ring_1.txt:6");
}

TEST(MpiTraceReader, AnIndexOfOneLineNamesATraceSharedByEveryRank) {
  // As SMPI: the index's lines are relative to the working directory, else to the index's folder.
  std::string shared = mt_file("mt_shared.ti", "0 init\n1 init\n0 send 1 0 1e3\n1 recv 0 0 1000.7\n1 waitall 0\n");
  std::string index = mt_file("mt_shared_index.ti", std::filesystem::path(shared).filename().string() + "\n");
  const Trace t = read_trace(index);
  ASSERT_EQ(t.num_ranks(), 2);
  EXPECT_EQ(t.files.back(), shared);
  EXPECT_EQ(t.ranks[0][1].amount, 1000); // counts are numbers, truncated
  EXPECT_EQ(t.ranks[1][1].amount, 1000);
  EXPECT_EQ(t.ranks[1][2].action, Action::Waitall);
}

TEST(MpiTraceReader, DatatypesAndTheMpeDefault) {
  // "init" with an argument makes MPI_DOUBLE the default datatype (SMPI's MPE traces).
  const Trace t = read_trace(mt_file("mt_types.ti", "0 init 1\n1 init\n0 send 1 0 10\n1 recv 0 0 10 1\n"
                                                    "0 bcast 3 0 5\n1 bcast 3 0\n"));
  EXPECT_EQ(t.ranks[0][1].amount, 80); // 10 doubles
  EXPECT_EQ(t.ranks[1][1].amount, 40); // 10 MPI_INT
  EXPECT_EQ(t.ranks[0][2].amount, 12); // 3 MPI_FLOAT
  EXPECT_EQ(t.ranks[1][2].amount, 3);  // 3 bytes, the default of rank 1
}

TEST(MpiTraceReader, NumbersAndBlanksReadAsStodAndStreamsDid) {
  // The reader cuts lines itself and reads numbers with from_chars, falling back on std::stod:
  // the grammar is the one of the stream-and-stod reader it replaced (tabs, CR, several blanks,
  // comments, no trailing newline; a leading '+', hexadecimal, exponents).
  const Trace t = read_trace(mt_file("mt_numbers.ti", "# a comment\n\n0 init\r\n\t1   init \n0 compute +2.5e3\n"
                                                      "0 compute 0x10\n0 compute 1E2\n0 send 1 0 7.9\n"
                                                      "1 recv 0 +0 7\n1 compute 0.1"));
  ASSERT_EQ(t.num_ranks(), 2);
  ASSERT_EQ(t.ranks[0].size(), 5u);
  EXPECT_EQ(t.ranks[0][1].amount, 2500);
  EXPECT_EQ(t.ranks[0][2].amount, 16);
  EXPECT_EQ(t.ranks[0][3].amount, 100);
  EXPECT_EQ(t.ranks[0][4].amount, 7); // a count, truncated
  EXPECT_EQ(t.ranks[1][1].tag, 0);
  EXPECT_EQ(t.ranks[1][2].amount, 0.1); // the double nearest 0.1, as strtod reads it
  EXPECT_EQ(t.where(t.ranks[1][2]), t.files[0] + ":10");
  auto error = [](const std::string& text) {
    std::string path = mt_file("mt_bad_number.ti", text);
    return mt_problem([&] { read_trace(path); });
  };
  EXPECT_EQ(error("0 compute 12abc\n"), "line 1: flops \"12abc\" is not a number");
  EXPECT_EQ(error("0 compute 1e400\n"), "line 1: flops \"1e400\" is not a number");
  EXPECT_EQ(error("0 compute inf\n"), "line 1: flops \"inf\" is not a number");
  EXPECT_EQ(error("0 compute nan\n"), "line 1: flops \"nan\" is not a number");
  EXPECT_EQ(error("0 compute 1,5\n"), "line 1: flops \"1,5\" is not a number");
}

TEST(MpiTraceReader, ErrorsNameTheFileAndLine) {
  auto error = [](const std::string& text) {
    std::string path = mt_file("mt_bad.ti", text);
    std::string p = mt_problem([&] { read_trace(path); });
    return p;
  };
  EXPECT_EQ(error("0 init\n0 jump 3\n"),
            "line 2: unknown action \"jump\" (the actions of SimGrid 3.32's time-independent traces: init, finalize, "
            "compute, sleep, send, isend, recv, irecv, test, wait, waitall, sendRecv, barrier, bcast, reduce, "
            "allreduce, alltoall(v), gather(v), scatter(v), allgather(v), reducescatter, scan, exscan, comm_size, "
            "comm_split, comm_dup, location)");
  EXPECT_EQ(error("0 compute lots\n"), "line 1: flops \"lots\" is not a number");
  EXPECT_EQ(error("0 compute -5\n"), "line 1: flops -5 is negative");
  EXPECT_EQ(error("0 compute\n"), "line 1: \"compute\" takes 1 argument, not 0");
  EXPECT_EQ(error("0 init\n1 init\n0 send 2 0 10\n"), "line 3: partner 2 is not a rank of this trace (0 to 1)");
  EXPECT_EQ(error("0 init\n1 init\n0 send 1 0 10 77\n"),
            "line 3: datatype 77 is not one of SMPI's predefined datatypes (ids 0 to 59, -1 for a derived one)");
  EXPECT_EQ(error("0 send 0 1.5 10\n"), "line 1: tag \"1.5\" is not an integer >= 0");
  EXPECT_EQ(error("0 init\n1 init\n1 recv -333 0 10\n"),
            "line 3: partner -333 is MPI_ANY_SOURCE: the trace does not say which rank the message comes from, so it "
            "cannot be replayed (SMPI's replay deadlocks on it too); trace a program that names its sources");
  EXPECT_EQ(error("0 init\n1 init\n1 recv 0 -444 10\n"),
            "line 3: tag -444 is MPI_ANY_TAG: the trace does not say which message completes this receive, so it "
            "cannot be replayed (SMPI's replay deadlocks on it too)");
  EXPECT_EQ(error("zero init\n"), "line 1: expected \"RANK ACTION ARGUMENTS...\", e.g. \"0 compute 1e6\"");
  EXPECT_EQ(error("1 init\n"), ": rank 0 has no action (ranks go from 0 to 1)");
  EXPECT_EQ(error("# nothing\n"), ": the trace holds no action");
  std::string index = mt_file("mt_index.ti", "mt_missing_rank_file.txt\nmt_other.txt\n");
  EXPECT_EQ(mt_problem([&] {
              read_trace(index);
            }).rfind(": cannot open this rank's trace file (listed in " + index + ") (/", 0),
            0u);
  std::string one = mt_file("mt_index1.ti", "mt_missing_shared_file.txt\n");
  EXPECT_EQ(mt_problem([&] { read_trace(one); }).rfind(": cannot open this trace file (listed in " + one + ") (/", 0),
            0u);
  // The path tried and the system's reason: a relative name is resolved against a folder the user
  // may not have in mind.
  EXPECT_EQ(mt_problem([] { read_trace("/nonexistent/app.ti"); }),
            ": cannot open this trace (/nonexistent/app.ti): No such file or directory");
}

TEST(MpiTraceLowering, PointToPointIsMatchedInPostingOrder) {
  // Two messages on the same (source, tag): the first send completes the first receive posted.
  const Program p = lower(read_trace(mt_file("mt_fifo.ti", "0 isend 1 3 10\n0 isend 1 3 20\n0 waitall\n"
                                                           "1 irecv 0 3 -1\n1 irecv 0 3 -1\n1 waitall\n")));
  const auto& r1 = p.ranks[1];
  ASSERT_EQ(r1.recvs.size(), 2u);
  EXPECT_EQ(r1.recvs[0].bytes, 10); // a receive of unknown size takes its send's
  EXPECT_EQ(r1.recvs[1].bytes, 20);
  EXPECT_EQ(p.ranks[0].recv_of_send, (std::vector<std::uint32_t>{0, 1}));
  ASSERT_EQ(r1.ops.size(), 1u); // one wait for both
  EXPECT_EQ(r1.ops[0].count, 2u);
}

TEST(MpiTraceLowering, WaitAndTestFindRequestsBySourceDestinationAndTag) {
  // wait 1 0 5 waits for the irecv from 1 with tag 5 only; test moves the tested request to the
  // back of its list, as SMPI's replay does; the end of the trace waits for what is left.
  const Program p = lower(read_trace(mt_file("mt_wait.ti", "0 irecv 1 5 8\n0 irecv 1 6 8\n0 irecv 1 5 8\n"
                                                           "0 test 1 0 5\n0 wait 1 0 5\n0 compute 1e9\n"
                                                           "1 send 0 5 8\n1 send 0 6 8\n1 send 0 5 8\n")));
  const auto& r0 = p.ranks[0];
  ASSERT_EQ(r0.ops.size(), 3u);
  EXPECT_EQ(r0.ops[0].kind, Op::Kind::Wait);
  EXPECT_EQ(r0.waits[r0.ops[0].first], 2u); // after the test, the oldest request of (1, 0, 5) is the second
  EXPECT_EQ(r0.ops[1].kind, Op::Kind::Compute);
  EXPECT_EQ(r0.ops[2].kind, Op::Kind::Wait); // the end: receives 0 and 1
  EXPECT_EQ(std::vector<std::uint32_t>(r0.waits.begin() + r0.ops[2].first, r0.waits.end()),
            (std::vector<std::uint32_t>{0, 1}));
}

TEST(MpiTraceLowering, BinomialBroadcastOnFiveRanks) {
  // Root 0: 0 sends to 4, 2, 1 (largest distance first), 2 forwards to 3.
  const Program p = lower(read_trace(mt_file("mt_bcast.ti", mt_everyone(5, "bcast 100"))));
  EXPECT_EQ(mt_sends(p, 0), (std::vector<std::string>{"4:100", "2:100", "1:100"}));
  EXPECT_EQ(mt_sends(p, 2), (std::vector<std::string>{"3:100"}));
  EXPECT_TRUE(mt_sends(p, 4).empty());
  // Root 3: relative ranks shift, 3 sends to 2 (3 + 4 mod 5), 0, 4; 0 (relative 2) to 1.
  const Program q = lower(read_trace(mt_file("mt_bcast3.ti", mt_everyone(5, "bcast 100 3"))));
  EXPECT_EQ(mt_sends(q, 3), (std::vector<std::string>{"2:100", "0:100", "4:100"}));
  EXPECT_EQ(mt_sends(q, 0), (std::vector<std::string>{"1:100"}));
}

TEST(MpiTraceLowering, CollectivesSendTheMessagesOfTheirAlgorithms) {
  auto count = [](const std::string& action) {
    return mt_messages(lower(read_trace(mt_file("mt_coll.ti", mt_everyone(5, action)))));
  };
  EXPECT_EQ(count("barrier"), 8u);        // 4 to rank 0, 4 back
  EXPECT_EQ(count("bcast 10 2"), 4u);     // a tree: P - 1
  EXPECT_EQ(count("reduce 10 0 1"), 4u);  // linear to the root
  EXPECT_EQ(count("allreduce 10 0"), 8u); // reduce to 0, then binomial bcast
  EXPECT_EQ(count("gather 10 10 0"), 4u);
  EXPECT_EQ(count("scatter 10 10 0"), 4u);
  EXPECT_EQ(count("allgather 10 10"), 20u); // every rank to every other
  EXPECT_EQ(count("gatherv 10 1 2 3 4 5 0"), 4u);
  EXPECT_EQ(count("allgatherv 10 1 2 3 4 5"), 20u);
  EXPECT_EQ(count("scatterv 1 2 3 4 5 10 0"), 4u);
  EXPECT_EQ(count("alltoallv 15 1 2 3 4 5 15 1 2 3 4 5"), 20u);
  EXPECT_EQ(count("reducescatter 2 2 2 2 2 0"), 8u); // reduce to 0, scatterv from 0
  // The reduction's flops run on every rank after the messages.
  const Program p = lower(read_trace(mt_file("mt_red.ti", mt_everyone(3, "allreduce 4 5e8"))));
  for (const auto& r : p.ranks) {
    EXPECT_EQ(r.flops, 5e8);
    EXPECT_EQ(r.ops.back().kind, Op::Kind::Compute);
  }
  // The gatherv root receives each rank's own count; the scatterv root sends each its count.
  const Program g = lower(read_trace(mt_file("mt_gv.ti", mt_everyone(3, "gatherv 7 1 2 3 1"))));
  EXPECT_EQ(g.ranks[1].recvs.size(), 2u);
  EXPECT_EQ(mt_sends(g, 0), (std::vector<std::string>{"1:7"}));
  const Program s = lower(read_trace(mt_file("mt_sv.ti", mt_everyone(3, "scatterv 1 2 3 9 2"))));
  EXPECT_EQ(mt_sends(s, 2), (std::vector<std::string>{"0:1", "1:2"}));
}

TEST(MpiTraceLowering, UnmatchedMessagesAndDeadlocksAreInputErrors) {
  EXPECT_EQ(mt_problem([] { lower(read_trace(mt_file("mt_nosend.ti", "0 recv 1 4 10\n1 compute 1\n"))); }),
            "line 1: rank 0's recv from rank 1 (tag 4) has no matching send in rank 1's trace. If rank 1 calls "
            "MPI_Sendrecv with MPI_PROC_NULL as source or destination, SMPI's trace holds nothing of that call, not "
            "even its real send or receive: call MPI_Send or MPI_Recv where the other side is MPI_PROC_NULL "
            "(workloads/mpi/README.md)");
  EXPECT_EQ(mt_problem([] { lower(read_trace(mt_file("mt_norecv.ti", "0 compute 1\n1 send 0 4 10\n"))); }),
            "line 2: rank 1's send to rank 0 (tag 4) has no matching receive in rank 0's trace. If rank 0 calls "
            "MPI_Sendrecv with MPI_PROC_NULL as source or destination, SMPI's trace holds nothing of that call, not "
            "even its real send or receive: call MPI_Send or MPI_Recv where the other side is MPI_PROC_NULL "
            "(workloads/mpi/README.md)");
  // Both receive before sending: with eager sends nothing ever arrives.
  EXPECT_EQ(mt_problem([] {
              lower(read_trace(mt_file("mt_dead.ti", "0 recv 1 0 10\n0 send 1 0 10\n1 recv 0 0 10\n1 send 0 0 10\n")));
            }),
            "line 1: the trace deadlocks: rank 0 waits here for a message from rank 1 (tag 0) that is never sent "
            "(every rank runs as far as it can)");
  // Receiving before sending is fine when the other side sends first.
  EXPECT_EQ(mt_problem([] {
              lower(read_trace(mt_file("mt_live.ti", "0 recv 1 0 10\n0 send 1 0 10\n1 send 0 0 10\n1 recv 0 0 10\n")));
            }),
            "");
  // Both send 64 KiB before receiving: each send waits for a receive the other never posts (as in
  // SMPI, and in MPI); just below 64 KiB the sends are detached and the exchange completes.
  const std::string big = "0 send 1 0 65536\n0 recv 1 0 65536\n1 send 0 0 65536\n1 recv 0 0 65536\n";
  EXPECT_EQ(mt_problem([&] { lower(read_trace(mt_file("mt_big.ti", big))); }),
            "line 1: the trace deadlocks: rank 0 waits here for its send of 65536 bytes to rank 1, which ends only "
            "once rank 1 posts its receive, and rank 1 never does (sends of 65536 bytes or more wait for their "
            "receiver, as in SMPI)");
  EXPECT_EQ(mt_problem([&] { lower(read_trace(mt_file("mt_big.ti", big)), false); }), ""); // eager sends
  EXPECT_EQ(mt_problem([] {
              lower(read_trace(
                  mt_file("mt_small.ti", "0 send 1 0 65535\n0 recv 1 0 65535\n1 send 0 0 65535\n1 recv 0 0 65535\n")));
            }),
            "");
}

TEST(MpiTraceLowering, ReceivesKnowWhereTheyArePostedAndWaitsHoldLargeSends) {
  // Rank 0: compute (op 0), irecv (posted before op 1), isend of 64 KiB (op 1), compute (op 2),
  // wait for the receive and the send (op 3). Rank 1: recv (posted at op 0, waited by op 0), then a
  // small send, complete at once: no wait for it.
  const Program p = lower(read_trace(mt_file("mt_posted.ti", "0 compute 10\n0 irecv 1 0 8\n0 isend 1 0 65536\n"
                                                             "0 compute 5\n0 waitall\n1 recv 0 0 65536\n"
                                                             "1 send 0 0 8\n")));
  EXPECT_EQ(p.ranks[0].recvs.at(0).posted_at, 1u);
  EXPECT_EQ(p.ranks[1].recvs.at(0).posted_at, 0u);
  ASSERT_EQ(p.ranks[0].ops.size(), 4u);
  EXPECT_EQ(p.ranks[0].ops[3].kind, Op::Kind::Wait);
  EXPECT_EQ(p.ranks[0].ops[3].count, 2u);
  EXPECT_EQ(p.ranks[0].waits, (std::vector<std::uint32_t>{0, kSendEntry | 0}));
  ASSERT_EQ(p.ranks[1].ops.size(), 2u); // wait, send
  EXPECT_EQ(p.ranks[1].ops[1].kind, Op::Kind::Send);
}

TEST(MpiTraceWorkload, ReplaysPingPongWaitingForItsMessage) {
  const Application app = mt_application(kMtData + "/pingpong.ti");
  const FederationLayout layout(mt_two_clusters());
  MpiTraceWorkload w(app, layout);
  EXPECT_EQ(w.failure_free_work(0), 2.0);
  EXPECT_EQ(w.failure_free_work(1), 1.0);
  EXPECT_EQ(w.failure_free_work(4), 0.0); // no rank there
  AppStateValue s0 = w.initial_state(0, 1), s1 = w.initial_state(1, 1);
  std::vector<AppMessage> out;
  EXPECT_EQ(w.advance(*s0, 0, out), std::optional<double>(2.0));
  EXPECT_EQ(w.advance(*s0, 0, out), std::nullopt); // sent 1 MB: waits until its transfer ends
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].dst, 1);
  EXPECT_EQ(out[0].seq, 0u);
  EXPECT_EQ(out[0].size, 1e6 + 16); // SMPI's 16-byte envelope on the wire
  EXPECT_TRUE(out[0].awaited);
  EXPECT_EQ(s0->unfinished, (std::vector<std::uint64_t>{0}));
  EXPECT_EQ(w.advance(*s0, 0, out), std::nullopt); // still under way
  std::erase(s0->unfinished, 0u);                  // the node reports its end (AppExecutor::send_done)
  EXPECT_EQ(w.advance(*s0, 0, out), std::nullopt); // now waits for the pong
  EXPECT_EQ(out.size(), 1u);
  EXPECT_FALSE(s0->finished);
  AppStateValue saved = s0; // a checkpoint: a copy of the state

  std::vector<AppMessage> back;
  EXPECT_EQ(w.advance(*s1, 1, back), std::optional<double>(1.0));
  EXPECT_EQ(w.advance(*s1, 1, back), std::nullopt); // waits for the ping
  EXPECT_TRUE(back.empty());
  // Rank 1 has posted its receive once its computation is over, not while it runs.
  EXPECT_TRUE(w.receive_posted(*s1, out[0]));
  AppStateValue computing = w.initial_state(1, 1);
  std::vector<AppMessage> none;
  w.advance(*computing, 1, none);
  computing->step_remaining = 0.5;
  EXPECT_FALSE(w.receive_posted(*computing, out[0]));
  w.deliver(*s1, out[0]);
  EXPECT_EQ(w.advance(*s1, 1, back), std::nullopt); // the pong: 1 MB too
  EXPECT_FALSE(s1->finished);
  std::erase(s1->unfinished, 0u);
  EXPECT_EQ(w.advance(*s1, 1, back), std::nullopt);
  EXPECT_TRUE(s1->finished);
  ASSERT_EQ(back.size(), 1u);
  w.deliver(*s0, back[0]);
  w.deliver(*s0, back[0]); // a duplicate changes nothing
  EXPECT_EQ(w.advance(*s0, 0, out), std::nullopt);
  EXPECT_TRUE(s0->finished);
  EXPECT_NE(w.result_digest(*s0), 0u);
  // Replayed from the checkpoint, the same message gives the same result.
  w.deliver(*saved, back[0]);
  EXPECT_EQ(w.advance(*saved, 0, out), std::nullopt);
  EXPECT_EQ(w.result_digest(*saved), w.result_digest(*s0));
  // A message of other content (another sender state) gives another result.
  AppMessage other = back[0];
  other.digest ^= 1;
  AppStateValue again = w.initial_state(0, 1);
  std::vector<AppMessage> ignored;
  w.advance(*again, 0, ignored);
  w.advance(*again, 0, ignored);
  again->unfinished.clear();
  w.deliver(*again, other);
  w.advance(*again, 0, ignored);
  EXPECT_NE(w.result_digest(*again), w.result_digest(*s0));
}

TEST(MpiTraceWorkload, EachCollectiveIsAProgramOrderPoint) {
  // Rank 1 of the ring: irecv, isend, compute, waitall, then the allreduce (collective 1): the
  // process stops before the allreduce's first operation (a zero-work step) and stands at point 1.
  const Application app = mt_application(kMtData + "/ring/index.ti");
  MpiTraceWorkload w(app, FederationLayout(mt_two_clusters()));
  AppStateValue s = w.initial_state(1, 1);
  std::vector<AppMessage> out;
  EXPECT_EQ(w.next_point(*s, 1), std::nullopt);
  EXPECT_EQ(w.advance(*s, 1, out), std::optional<double>(2.0)); // the isend went, then the compute
  EXPECT_EQ(w.advance(*s, 1, out), std::nullopt);               // waitall: the ring message
  AppMessage from0;
  from0.src = 0;
  from0.dst = 1;
  from0.seq = 0;
  w.deliver(*s, from0);
  EXPECT_EQ(w.advance(*s, 1, out), std::optional<double>(0.0)); // stops at the allreduce
  auto point = w.next_point(*s, 1);
  ASSERT_TRUE(point.has_value());
  EXPECT_EQ(point->kind, "allreduce");
  EXPECT_EQ(point->number, 1u);
  s->points_announced = 1;                        // what the executor does when it announces it
  EXPECT_EQ(w.advance(*s, 1, out), std::nullopt); // the reduce: rank 1 sends to 0, then waits for the bcast
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].dst, 0);
  EXPECT_EQ(out[1].size, 1000 + 16);
}

TEST(MpiTraceWorkload, SleepRunsInSecondsWhateverTheSpeed) {
  // Rank 1 on c1, a 2 Gf node: 1 s of sleep is 2 s of work at 1 Gf; flops are flops.
  const Application app =
      mt_application(mt_file("mt_sleep.ti", "0 init\n1 sleep 1\n1 compute 4e9\n"), json::array({"c0-0", "c1-0"}));
  MpiTraceWorkload w(app, FederationLayout(mt_two_clusters()));
  EXPECT_EQ(w.node_of(1), 4);
  AppStateValue s = w.initial_state(4, 1);
  std::vector<AppMessage> out;
  EXPECT_EQ(w.advance(*s, 4, out), std::optional<double>(2.0));
  EXPECT_EQ(w.advance(*s, 4, out), std::optional<double>(4.0));
  EXPECT_EQ(w.failure_free_work(4), 6.0);
  // compute_scale multiplies both.
  json doc{{"kind", "mpi-trace"},
           {"trace", app.spec_as<MpiTraceSpec>().trace},
           {"compute_scale", 10},
           {"placement", json::array({"c0-0", "c1-0"})}};
  MpiTraceWorkload scaled(parse_application(doc, "app.json", mt_two_clusters()), FederationLayout(mt_two_clusters()));
  AppStateValue t = scaled.initial_state(4, 1);
  EXPECT_EQ(scaled.advance(*t, 4, out), std::optional<double>(20.0));
  EXPECT_EQ(scaled.advance(*t, 4, out), std::optional<double>(40.0));
  doc["compute_scale"] = 0;
  EXPECT_EQ(mt_problem([&] { parse_application(doc, "app.json", mt_two_clusters()); }),
            "/compute_scale: expected a number > 0");
}

TEST(MpiTracePlacement, LinearRoundRobinAndLists) {
  const FederationLayout layout(mt_two_clusters()); // c0: nodes 0-3, c1: node 4
  const std::string three = kMtData + "/ring/index.ti";
  MpiTraceWorkload linear(mt_application(three), layout);
  EXPECT_EQ(linear.node_of(2), 2);
  EXPECT_EQ(linear.rank_of(3), -1);
  MpiTraceWorkload rr(mt_application(three, "round-robin"), layout);
  EXPECT_EQ(rr.node_of(0), 0);
  EXPECT_EQ(rr.node_of(1), 4); // c1's only node
  EXPECT_EQ(rr.node_of(2), 1); // c1 full: back to c0
  MpiTraceWorkload listed(mt_application(three, json::array({"c1-0", 0, "c0-3"})), layout);
  EXPECT_EQ(listed.node_of(0), 4);
  EXPECT_EQ(listed.node_of(2), 3);

  EXPECT_EQ(mt_problem([&] { mt_application(three, json::array({"c1-0"})); }),
            "/placement: the list names 1 node for a trace of 3 ranks");
  EXPECT_EQ(mt_problem([&] {
              MpiTraceWorkload(mt_application(three, json::array({"c1-0", "c9-9", 1})), layout);
            }),
            "/placement: rank 1: no node \"c9-9\" in the federation (a host name such as \"c0-0\" or an index "
            "below 5)");
  EXPECT_EQ(mt_problem([&] {
              MpiTraceWorkload(mt_application(three, json::array({1, 2, 1})), layout);
            }),
            "/placement: ranks 0 and 2 are both placed on c0-1");
  EXPECT_EQ(mt_problem([&] { mt_application(three, "random"); }),
            "/placement: \"random\" is not one of: linear, round-robin");
  std::string six = mt_file("mt_six.ti", mt_everyone(6, "barrier"));
  EXPECT_EQ(mt_problem([&] { MpiTraceWorkload(mt_application(six), layout); }),
            "/placement: the trace has 6 ranks and the federation 5 nodes: one rank per node");
}
