/* A time-independent MPI trace as SMPI writes it (`smpirun -trace-ti`, SimGrid 3.32): per rank, the
 * list of its MPI actions with their sizes, read into typed actions. Reading checks the syntax of
 * every line (an unknown or malformed action is an InputError naming the file and line); what the
 * actions mean for the replay is the program's business (program.hpp). Plain data, no SimGrid. */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ckptsim::mpi {

enum class Action : std::uint8_t {
  // Bookkeeping, replayed in no time.
  Init,
  Finalize,
  CommSize,
  CommSplit,
  CommDup,
  Location,
  // Local time.
  Compute, // amount: flops
  Sleep,   // amount: seconds
  // Point to point. peer: the partner rank; amount: bytes.
  Send,
  Isend,
  Recv,
  Irecv,
  Test,     // peer: src, peer2: dst, tag: the request's
  Wait,     // idem
  Waitall,  // every pending request of the rank
  SendRecv, // peer: dst, amount: bytes sent; peer2: src, amount2: bytes received (tag 0 both ways)
  // Collectives over every rank. peer: root (rooted ones); amount: bytes this rank sends (per
  // destination for alltoall / allgather / gather / scatter / scan), amount2: bytes received
  // likewise; compute: flops of the reduction (reduce, allreduce, reducescatter, scan, exscan).
  Barrier,
  Bcast,
  Reduce,
  Allreduce,
  Alltoall,  // elements: the send count; type_size: bytes of the receive datatype (Bruck's blocks)
  Alltoallv, // counts: bytes sent to each rank then received from each rank (2 x ranks values)
  Gather,
  Gatherv, // counts: bytes received from each rank (ranks values)
  Scatter,
  Scatterv, // counts: bytes sent to each rank (ranks values)
  Allgather,
  Allgatherv,    // counts: bytes received from each rank (ranks values)
  ReduceScatter, // counts: ELEMENTS each rank receives (ranks values); type_size: bytes per element
  Scan,
  Exscan,
};

/** @brief The action's name in the trace ("isend", "allreduce"...). */
const char* action_name(Action a);

struct TraceAction {
  Action action = Action::Init;
  std::int32_t peer = -1;
  std::int32_t peer2 = -1;
  std::int32_t tag = 0;
  double amount = 0;
  double amount2 = 0;
  double compute = 0;
  // Where an algorithm needs elements rather than bytes (SMPI decides on element counts, and a
  // datatype of size 0 hides them in bytes): see the actions above.
  double elements = 0;
  double type_size = 0;
  std::uint32_t counts = 0; // first of this action's values in Trace::counts (v-collectives)
  std::uint32_t file = 0;   // index in Trace::files
  std::uint32_t line = 0;   // 1-based
};

struct Trace {
  std::vector<std::string> files;              // the files read (the index first, when there is one)
  std::vector<std::vector<TraceAction>> ranks; // per rank, in trace order
  std::vector<double> counts;                  // per-rank counts of the v-collectives (see Action)

  int num_ranks() const { return static_cast<int>(ranks.size()); }
  /** @brief "FILE:LINE" of an action, for messages. */
  std::string where(const TraceAction& a) const;
};

/** @brief Reads a trace: @p path is either the index `smpirun -trace-ti` writes (one file name per
 *  line, one file per rank in rank order; an index of one line names a file shared by every rank)
 *  or a file holding every rank's actions, each line starting with its rank. An index's names are
 *  resolved as SMPI does (relative to the working directory), else against the index's folder.
 *  An InputError names the file and line of the first problem. */
Trace read_trace(const std::string& path);

} // namespace ckptsim::mpi
