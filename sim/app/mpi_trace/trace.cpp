/* Reading a time-independent trace. The grammar is the one SimGrid 3.32's replay accepts
 * (src/smpi/internals/smpi_replay.cpp, the *Parser classes): a line is "RANK ACTION ARG...",
 * separated by blanks; empty lines and lines starting with '#' are skipped; counts are in
 * elements of a datatype given by its SMPI id (smpi_datatype.cpp), MPI_BYTE by default (MPI_DOUBLE
 * when the rank's "init" has an argument, as SMPI does for MPE traces). docs/MODEL.md tells what
 * each action does in the replay. */
#include "sim/app/mpi_trace/trace.hpp"
#include "sim/config/file_errors.hpp"

#include "sim/config/input_error.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <limits>
#include <span>
#include <string_view>

namespace ckptsim::mpi {

namespace {

// Sizes in bytes of SMPI's predefined datatypes by id (x86-64), smpi_datatype.cpp at v3.32.
constexpr std::array<int, 60> kDatatypeSize = {
    8, 4,  1, 2,  8,  4, 1,  8,  1, 1,  2,  4,  8,  8,  16, 4, 1,  1,  2, 4, // 0-19
    8, 1,  2, 4,  8,  8, 16, 32, 8, 8,  8,  16, 16, 8,  8,  8, 16, 16, 4, 4, // 20-39
    8, 16, 8, 16, 16, 4, 2,  4,  8, 16, 32, 1,  8,  16, 32, 0, 0,  1,  8, 8, // 40-59
};
constexpr int kDouble = 0;
constexpr int kByte = 6;

class LineReader {
 public:
  LineReader(Trace& trace, std::uint32_t file, std::uint32_t line, std::span<const std::string_view> tokens)
      : trace_(trace)
      , file_(file)
      , line_(line)
      , t_(tokens) {}

  [[noreturn]] void fail(const std::string& problem) const {
    throw InputError(trace_.files[file_], fmt::format("line {}", line_), problem);
  }
  std::size_t size() const { return t_.size(); }
  std::string_view token(std::size_t i) const { return t_[i]; }
  /** @brief Requires @p mandatory arguments after the rank and the action, allows @p optional more. */
  void arity(std::size_t mandatory, std::size_t optional) const {
    std::size_t args = t_.size() - 2;
    if (args < mandatory || args > mandatory + optional)
      fail(optional == 0
               ? fmt::format("\"{}\" takes {} argument{}, not {}", t_[1], mandatory, mandatory == 1 ? "" : "s", args)
               : fmt::format("\"{}\" takes {} to {} arguments, not {}", t_[1], mandatory, mandatory + optional, args));
  }
  double number(std::size_t i, const char* what) const {
    const std::string_view s = t_[i];
    double v = 0;
    // from_chars first (no allocation, no locale: a trace has hundreds of thousands of numbers);
    // what it leaves (a leading '+', hexadecimal) goes to std::stod, whose grammar this reader
    // has always accepted. Both round correctly, so a number reads the same either way.
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    bool read = ec == std::errc() && end == s.data() + s.size();
    if (!read) {
      const std::string text(s);
      std::size_t used = 0;
      try {
        v = std::stod(text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      read = used == text.size();
    }
    if (!read || !std::isfinite(v)) fail(fmt::format("{} \"{}\" is not a number", what, s));
    return v;
  }
  double nonnegative(std::size_t i, const char* what) const {
    double v = number(i, what);
    if (v < 0) fail(fmt::format("{} {} is negative", what, t_[i]));
    return v;
  }
  /** @brief An element count: SMPI reads a number and truncates it. */
  double count(std::size_t i, const char* what) const { return std::trunc(nonnegative(i, what)); }
  std::int32_t integer(std::size_t i, const char* what, double min) const {
    double v = number(i, what);
    if (v != std::trunc(v) || v < min || v > std::numeric_limits<std::int32_t>::max())
      fail(fmt::format("{} \"{}\" is not an integer >= {}", what, t_[i], min));
    return static_cast<std::int32_t>(v);
  }
  std::int32_t rank_at(std::size_t i, const char* what, int ranks) const {
    if (t_[i] == "-333")
      fail(fmt::format("{} -333 is MPI_ANY_SOURCE: the trace does not say which rank the message comes from, so it "
                       "cannot be replayed (SMPI's replay deadlocks on it too); trace a program that names its sources",
                       what));
    std::int32_t r = integer(i, what, 0);
    if (ranks > 0 && r >= ranks) fail(fmt::format("{} {} is not a rank of this trace (0 to {})", what, r, ranks - 1));
    return r;
  }
  /** @brief Bytes of a datatype: the id at @p i when the line has it, else @p fallback's. */
  int datatype(std::size_t i, int fallback) const {
    return i < t_.size() ? datatype_size_at(i) : kDatatypeSize[static_cast<std::size_t>(fallback)];
  }
  /** @brief Bytes of the datatype whose id is at @p i. SMPI's writer gives every derived datatype
   *  the id -1, which its replay reads as MPI_DATATYPE_NULL, of size 0: so do we. */
  int datatype_size_at(std::size_t i) const {
    std::int32_t id = integer(i, "datatype", -1);
    if (id >= static_cast<std::int32_t>(kDatatypeSize.size()))
      fail(fmt::format("datatype {} is not one of SMPI's predefined datatypes (ids 0 to {}, -1 for a derived one)", id,
                       kDatatypeSize.size() - 1));
    return id < 0 ? 0 : kDatatypeSize[static_cast<std::size_t>(id)];
  }

 private:
  Trace& trace_;
  std::uint32_t file_;
  std::uint32_t line_;
  std::span<const std::string_view> t_;
};

struct RankContext {
  int default_type = kByte;
};

/** @brief Parses the action of @p r (tokens 1...) into @p a; @p ranks: the trace's rank count. */
void parse_action(const LineReader& r, TraceAction& a, RankContext& ctx, int ranks, std::vector<double>& counts) {
  static constexpr std::pair<std::string_view, Action> kActions[] = {
      {"init", Action::Init},
      {"finalize", Action::Finalize},
      {"comm_size", Action::CommSize},
      {"comm_split", Action::CommSplit},
      {"comm_dup", Action::CommDup},
      {"location", Action::Location},
      {"compute", Action::Compute},
      {"sleep", Action::Sleep},
      {"send", Action::Send},
      {"isend", Action::Isend},
      {"recv", Action::Recv},
      {"irecv", Action::Irecv},
      {"test", Action::Test},
      {"wait", Action::Wait},
      {"waitall", Action::Waitall},
      {"sendRecv", Action::SendRecv},
      {"barrier", Action::Barrier},
      {"bcast", Action::Bcast},
      {"reduce", Action::Reduce},
      {"allreduce", Action::Allreduce},
      {"alltoall", Action::Alltoall},
      {"alltoallv", Action::Alltoallv},
      {"gather", Action::Gather},
      {"gatherv", Action::Gatherv},
      {"scatter", Action::Scatter},
      {"scatterv", Action::Scatterv},
      {"allgather", Action::Allgather},
      {"allgatherv", Action::Allgatherv},
      {"reducescatter", Action::ReduceScatter},
      {"scan", Action::Scan},
      {"exscan", Action::Exscan},
  };
  const auto* it = std::find_if(std::begin(kActions), std::end(kActions),
                                [name = r.token(1)](const auto& entry) { return entry.first == name; });
  if (it == std::end(kActions))
    r.fail(fmt::format("unknown action \"{}\" (the actions of SimGrid 3.32's time-independent traces: init, "
                       "finalize, compute, sleep, send, isend, recv, irecv, test, wait, waitall, sendRecv, barrier, "
                       "bcast, reduce, allreduce, alltoall(v), gather(v), scatter(v), allgather(v), reducescatter, "
                       "scan, exscan, comm_size, comm_split, comm_dup, location)",
                       r.token(1)));
  a.action = it->second;
  const std::size_t n = static_cast<std::size_t>(ranks);
  auto v_counts = [&](std::size_t first, int type) {
    a.counts = static_cast<std::uint32_t>(counts.size());
    for (std::size_t i = 0; i < n; i++) counts.push_back(r.count(first + i, "count") * type);
  };
  switch (a.action) {
  case Action::Init:
    r.arity(0, 1);
    ctx.default_type = r.size() > 2 ? kDouble : kByte;
    break;
  case Action::Finalize:
  case Action::Barrier:
    r.arity(0, 0);
    break;
  case Action::Waitall: // SMPI writes the number of requests, and ignores it
    r.arity(0, 1);
    break;
  case Action::CommSize: // replayed as nothing, whatever they say
  case Action::CommSplit:
  case Action::CommDup:
    break;
  case Action::Location:
    r.arity(2, 0);
    r.integer(3, "line", 0);
    break;
  case Action::Compute:
    r.arity(1, 0);
    a.amount = r.nonnegative(2, "flops");
    break;
  case Action::Sleep:
    r.arity(1, 0);
    a.amount = r.nonnegative(2, "duration");
    break;
  case Action::Send:
  case Action::Isend:
  case Action::Recv:
  case Action::Irecv: {
    r.arity(3, 1);
    a.peer = r.rank_at(2, "partner", ranks);
    if (r.token(3) == "-444")
      r.fail("tag -444 is MPI_ANY_TAG: the trace does not say which message completes this "
             "receive, so it cannot be replayed (SMPI's replay deadlocks on it too)");
    a.tag = r.integer(3, "tag", 0);
    const bool receive = a.action == Action::Recv || a.action == Action::Irecv;
    // A receive of unknown size (negative: SMPI probes the matching send) takes the send's size.
    double count = receive ? std::trunc(r.number(4, "count")) : r.count(4, "count");
    a.amount = count < 0 ? -1 : count * r.datatype(5, ctx.default_type);
    break;
  }
  case Action::Test:
  case Action::Wait:
    r.arity(3, 0);
    a.peer = r.rank_at(2, "source", ranks);
    a.peer2 = r.rank_at(3, "destination", ranks);
    a.tag = r.integer(4, "tag", 0);
    break;
  case Action::SendRecv: // SMPI requires both datatypes (its parser: 6 mandatory arguments)
    r.arity(6, 0);
    a.peer = r.rank_at(3, "destination", ranks);
    a.amount = r.count(2, "send count") * r.datatype(6, ctx.default_type);
    a.peer2 = r.rank_at(5, "source", ranks);
    a.amount2 = r.count(4, "receive count") * r.datatype(7, ctx.default_type);
    break;
  case Action::Bcast:
    r.arity(1, 2);
    a.amount = r.count(2, "count") * r.datatype(4, ctx.default_type);
    a.peer = r.size() > 3 ? r.rank_at(3, "root", ranks) : 0;
    break;
  case Action::Reduce:
    r.arity(2, 2);
    a.amount = r.count(2, "count") * r.datatype(5, ctx.default_type);
    a.compute = r.nonnegative(3, "flops");
    a.peer = r.size() > 4 ? r.rank_at(4, "root", ranks) : 0;
    break;
  case Action::Allreduce:
    r.arity(2, 1);
    a.amount = r.count(2, "count") * r.datatype(4, ctx.default_type);
    a.compute = r.nonnegative(3, "flops");
    break;
  case Action::Alltoall:
    r.arity(2, 2);
    a.elements = r.count(2, "send count");
    a.type_size = r.datatype(5, ctx.default_type);
    a.amount = a.elements * r.datatype(4, ctx.default_type);
    a.amount2 = r.count(3, "receive count") * a.type_size;
    break;
  case Action::Gather:
  case Action::Scatter:
    r.arity(2, 3);
    a.amount = r.count(2, "send count") * r.datatype(5, ctx.default_type);
    a.amount2 = r.count(3, "receive count") * r.datatype(6, ctx.default_type);
    a.peer = r.size() > 4 ? r.rank_at(4, "root", ranks) : 0;
    break;
  case Action::Allgather:
    r.arity(2, 2);
    a.amount = r.count(2, "send count") * r.datatype(4, ctx.default_type);
    a.amount2 = r.count(3, "receive count") * r.datatype(5, ctx.default_type);
    break;
  case Action::Gatherv: { // sendcount, recvcounts[ranks], [root, sendtype, recvtype]
    r.arity(n + 1, 3);
    int recv_type = r.datatype(5 + n, ctx.default_type);
    a.amount = r.count(2, "send count") * r.datatype(4 + n, ctx.default_type);
    v_counts(3, recv_type);
    a.peer = r.size() > 3 + n ? r.rank_at(3 + n, "root", ranks) : 0;
    break;
  }
  case Action::Allgatherv: { // sendcount, recvcounts[ranks], [sendtype, recvtype | displacements...]
    if (r.size() < n + 3) r.arity(n + 1, 2);
    // SMPI: more than 2 values after the counts are displacements, with or without the two types.
    const int fallback = kDatatypeSize[static_cast<std::size_t>(ctx.default_type)];
    int send_size = fallback, recv_size = fallback;
    if (r.size() > 3 + 2 * n) {
      if (r.size() != 5 + 2 * n) r.arity(n + 1, 2 + n);
      send_size = r.datatype_size_at(3 + n), recv_size = r.datatype_size_at(4 + n);
    } else if (r.size() > 3 + n + 2) {
      if (r.size() != 3 + 2 * n) r.arity(2 * n + 1, 0);
    } else {
      send_size = r.datatype(3 + n, ctx.default_type);
      recv_size = r.datatype(4 + n, ctx.default_type);
    }
    a.amount = r.count(2, "send count") * send_size;
    v_counts(3, recv_size);
    break;
  }
  case Action::Scatterv: { // sendcounts[ranks], recvcount, [root, sendtype, recvtype]
    r.arity(n + 1, 3);
    int send_type = r.datatype(4 + n, ctx.default_type);
    v_counts(2, send_type);
    a.amount2 = r.count(2 + n, "receive count") * r.datatype(5 + n, ctx.default_type);
    a.peer = r.size() > 3 + n ? r.rank_at(3 + n, "root", ranks) : 0;
    break;
  }
  case Action::Alltoallv: { // sendbuf, sendcounts[ranks], recvbuf, recvcounts[ranks], [sendtype, recvtype]
    r.arity(2 * n + 2, 2);
    int send_type = r.datatype(4 + 2 * n, ctx.default_type);
    int recv_type = r.datatype(5 + 2 * n, ctx.default_type);
    r.nonnegative(2, "send buffer size");
    r.nonnegative(3 + n, "receive buffer size");
    v_counts(3, send_type);
    v_counts(4 + n, recv_type);
    a.counts -= static_cast<std::uint32_t>(n); // the first of the two arrays
    break;
  }
  case Action::ReduceScatter: // recvcounts[ranks], flops, [type]; SMPI decides on element counts
    r.arity(n + 1, 1);
    a.type_size = r.datatype(3 + n, ctx.default_type);
    v_counts(2, 1);
    a.compute = r.nonnegative(2 + n, "flops");
    break;
  case Action::Scan: // count, flops, [type]
  case Action::Exscan:
    r.arity(2, 1);
    a.amount = r.count(2, "count") * r.datatype(4, ctx.default_type);
    a.compute = r.nonnegative(3, "flops");
    break;
  }
}

/** @brief A file an index names: as SMPI opens it (relative to the working directory), else
 *  relative to the index's folder, so a trace moved with its files still works. */
std::string resolve(const std::string& name, const std::filesystem::path& folder) {
  std::filesystem::path p(name);
  if (p.is_absolute() || std::filesystem::exists(p)) return name;
  return (folder / p).string();
}

struct RawLine {
  std::uint32_t line;  // 1-based
  std::uint32_t first; // its tokens: RawFile::tokens[first, first + count)
  std::uint32_t count;
};

/** @brief A file cut into lines of blank-separated tokens (views into its text). */
struct RawFile {
  std::vector<char> text; // a vector: moving it keeps the characters where the views point
  std::vector<std::string_view> tokens;
  std::vector<RawLine> lines;
  std::span<const std::string_view> of(const RawLine& l) const { return {tokens.data() + l.first, l.count}; }
};

// The blanks of the C locale's isspace, which separated tokens when lines were read with >>.
constexpr bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

RawFile read_lines(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", cannot_open_reason(path, what));
  RawFile f;
  // In one read: a trace of a few hundred thousand actions is tens of megabytes.
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size > 0) {
    f.text.resize(static_cast<std::size_t>(size));
    in.read(f.text.data(), size);
    f.text.resize(static_cast<std::size_t>(in.gcount()));
  } else { // not seekable (a pipe): as it comes
    in.clear();
    f.text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const char* p = f.text.data();
  const char* const end = p + f.text.size();
  std::uint32_t no = 0;
  while (p < end) {
    no++;
    const char* eol = std::find(p, end, '\n');
    const auto first = static_cast<std::uint32_t>(f.tokens.size());
    while (p < eol) {
      while (p < eol && blank(*p)) p++;
      const char* start = p;
      while (p < eol && !blank(*p)) p++;
      if (p > start) f.tokens.emplace_back(start, static_cast<std::size_t>(p - start));
    }
    const auto count = static_cast<std::uint32_t>(f.tokens.size()) - first;
    if (count == 0 || f.tokens[first][0] == '#')
      f.tokens.resize(first); // empty, or a comment
    else
      f.lines.push_back({no, first, count});
    p = eol < end ? eol + 1 : end;
  }
  return f;
}

/** @brief The rank a line starts with, or -1 when its first token is not a rank. */
int leading_rank(std::span<const std::string_view> t) {
  const std::string_view s = t[0];
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string_view::npos) return -1;
  int rank = 0;
  std::from_chars(s.data(), s.data() + s.size(), rank);
  return rank;
}

} // namespace

const char* action_name(Action a) {
  switch (a) {
  case Action::Init:
    return "init";
  case Action::Finalize:
    return "finalize";
  case Action::CommSize:
    return "comm_size";
  case Action::CommSplit:
    return "comm_split";
  case Action::CommDup:
    return "comm_dup";
  case Action::Location:
    return "location";
  case Action::Compute:
    return "compute";
  case Action::Sleep:
    return "sleep";
  case Action::Send:
    return "send";
  case Action::Isend:
    return "isend";
  case Action::Recv:
    return "recv";
  case Action::Irecv:
    return "irecv";
  case Action::Test:
    return "test";
  case Action::Wait:
    return "wait";
  case Action::Waitall:
    return "waitall";
  case Action::SendRecv:
    return "sendRecv";
  case Action::Barrier:
    return "barrier";
  case Action::Bcast:
    return "bcast";
  case Action::Reduce:
    return "reduce";
  case Action::Allreduce:
    return "allreduce";
  case Action::Alltoall:
    return "alltoall";
  case Action::Alltoallv:
    return "alltoallv";
  case Action::Gather:
    return "gather";
  case Action::Gatherv:
    return "gatherv";
  case Action::Scatter:
    return "scatter";
  case Action::Scatterv:
    return "scatterv";
  case Action::Allgather:
    return "allgather";
  case Action::Allgatherv:
    return "allgatherv";
  case Action::ReduceScatter:
    return "reducescatter";
  case Action::Scan:
    return "scan";
  case Action::Exscan:
    return "exscan";
  }
  return "?";
}

std::string Trace::where(const TraceAction& a) const { return fmt::format("{}:{}", files[a.file], a.line); }

Trace read_trace(const std::string& path) {
  Trace trace;
  RawFile lines = read_lines(path, "trace");
  if (lines.lines.empty()) throw InputError(path, "", "the trace holds no action");
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  // An index names one file per line; an action file's lines start with a rank and an action.
  const auto front = lines.of(lines.lines.front());
  const bool index = front.size() == 1 && leading_rank(front) < 0;
  std::vector<std::pair<std::uint32_t, RawFile>> sources; // (file index, lines)
  trace.files.push_back(path);
  // An index of one line names a file shared by every rank (SMPI's rule, and what
  // tracing/smpi/format/ti-one-file writes).
  const bool shared = index && lines.lines.size() == 1;
  if (shared) {
    trace.files.push_back(resolve(std::string(front[0]), folder));
    sources.emplace_back(1, read_lines(trace.files.back(), "trace file (listed in " + path + ")"));
  } else if (index) {
    for (const auto& l : lines.lines) {
      if (l.count != 1)
        throw InputError(path, fmt::format("line {}", l.line),
                         "an index lists one trace file per line (the files of ranks 0, 1, ... in order)");
      trace.files.push_back(resolve(std::string(lines.of(l)[0]), folder));
      sources.emplace_back(static_cast<std::uint32_t>(trace.files.size() - 1),
                           read_lines(trace.files.back(), "rank's trace file (listed in " + path + ")"));
    }
  } else {
    sources.emplace_back(0, std::move(lines));
  }
  // The rank count: the number of files of an index, else the highest rank + 1.
  int ranks = 0;
  if (index && !shared) {
    ranks = static_cast<int>(sources.size());
  } else {
    const RawFile& only = sources.front().second;
    for (const auto& l : only.lines) ranks = std::max(ranks, leading_rank(only.of(l)) + 1);
  }
  trace.ranks.resize(static_cast<std::size_t>(ranks));
  std::vector<RankContext> contexts(static_cast<std::size_t>(ranks));
  for (std::size_t s = 0; s < sources.size(); s++) {
    const auto& [file, raw] = sources[s];
    if (index && !shared) trace.ranks[s].reserve(raw.lines.size());
    for (const auto& l : raw.lines) {
      const auto tokens = raw.of(l);
      LineReader r(trace, file, l.line, tokens);
      int rank = leading_rank(tokens);
      if (rank < 0 || tokens.size() < 2) r.fail("expected \"RANK ACTION ARGUMENTS...\", e.g. \"0 compute 1e6\"");
      if (index && !shared && rank != static_cast<int>(s))
        r.fail(fmt::format("an action of rank {} in the file of rank {} (the index lists the ranks' files in order)",
                           rank, s));
      TraceAction a;
      a.file = file;
      a.line = l.line;
      parse_action(r, a, contexts[static_cast<std::size_t>(rank)], ranks, trace.counts);
      trace.ranks[static_cast<std::size_t>(rank)].push_back(a);
    }
  }
  for (int rank = 0; rank < ranks; rank++)
    if (trace.ranks[static_cast<std::size_t>(rank)].empty())
      throw InputError(path, "", fmt::format("rank {} has no action (ranks go from 0 to {})", rank, ranks - 1));
  return trace;
}

} // namespace ckptsim::mpi
