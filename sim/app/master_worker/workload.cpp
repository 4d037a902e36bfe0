/* The "master-worker" application: see workload.hpp. */
#include "sim/app/master_worker/workload.hpp"

#include "sim/config/input_error.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace ckptsim {

namespace {
constexpr std::uint64_t kDigestMask = (std::uint64_t{1} << 48) - 1; // exact as a JSON number
constexpr std::uint64_t kSalt = 0x3a57e4;

MasterWorkerState& as_mw(AppState& s) {
  auto* p = dynamic_cast<MasterWorkerState*>(&s);
  if (!p) throw std::invalid_argument("master-worker: not the state of a master-worker process");
  return *p;
}
const MasterWorkerState& as_mw(const AppState& s) {
  auto* p = dynamic_cast<const MasterWorkerState*>(&s);
  if (!p) throw std::invalid_argument("master-worker: not the state of a master-worker process");
  return *p;
}

std::uint64_t fold(std::uint64_t acc, std::uint64_t v) { return mix_seed(acc, v, kSalt); }
} // namespace

MasterWorkerWorkload::MasterWorkerWorkload(const Application& app, const FederationLayout& layout)
    : spec_(app.spec_as<MasterWorkerSpec>())
    , processes_(layout.num_nodes()) {
  if (processes_ < 2)
    throw InputError(app.source, "/kind",
                     fmt::format("a master-worker application needs a master and at least one worker: the "
                                 "federation has {} node(s)",
                                 processes_));
  if (spec_.matrix_size < processes_)
    throw InputError(app.source, "/matrix_size",
                     fmt::format("{} rows cannot give each of the {} processes (every node of the federation) a row",
                                 spec_.matrix_size, processes_));
}

int MasterWorkerWorkload::rows(NodeId p) const {
  const int n = spec_.matrix_size;
  return n / processes_ + (p < n % processes_ ? 1 : 0);
}

std::uint64_t MasterWorkerWorkload::b_value(int rep) const {
  return mix_seed(static_cast<std::uint64_t>(rep), 0xB, kSalt);
}
std::uint64_t MasterWorkerWorkload::a_value(int rep, int p) const {
  return mix_seed(static_cast<std::uint64_t>(rep), 0xA0000 + static_cast<std::uint64_t>(p), kSalt);
}
std::uint64_t MasterWorkerWorkload::c_value(int rep, int p, std::uint64_t b, std::uint64_t a) const {
  return mix_seed(mix_seed(b, a), static_cast<std::uint64_t>(rep) << 20 | static_cast<std::uint64_t>(p));
}

AppStateValue MasterWorkerWorkload::initial_state(NodeId process, std::uint64_t seed) const {
  auto s = std::make_unique<MasterWorkerState>();
  s->rng.reseed(mix_seed(seed, static_cast<std::uint64_t>(process), kSalt));
  s->process = process;
  return AppStateValue(std::move(s));
}

std::optional<AppPoint> MasterWorkerWorkload::point(const AppState& base) const {
  const auto& s = as_mw(base);
  const auto r = static_cast<std::uint64_t>(s.rep);
  switch (s.phase) {
  case MasterWorkerState::Phase::Bcast:
    return AppPoint{"bcast", 3 * r + 1};
  case MasterWorkerState::Phase::Scatter:
    return AppPoint{"scatter", 3 * r + 2};
  case MasterWorkerState::Phase::Gather:
    return AppPoint{"gather", 3 * r + 3};
  default:
    return std::nullopt;
  }
}

std::optional<double> MasterWorkerWorkload::advance(AppState& base, NodeId self, std::vector<AppMessage>& sends) const {
  auto& s = as_mw(base);
  using Phase = MasterWorkerState::Phase;
  const double elem = spec_.element_bytes;
  const double n = spec_.matrix_size;
  auto send = [&](NodeId to, const char* label, double elements, std::uint64_t value) {
    AppMessage m;
    m.src = self;
    m.dst = to;
    m.seq = s.next_seq++;
    m.size = elements * elem;
    m.label = label;
    m.digest = value;
    sends.push_back(m);
  };
  auto finish_rep = [&] {
    s.rep++;
    if (s.rep == spec_.repetitions) {
      s.phase = Phase::Finished;
      s.finished = true;
    } else {
      s.phase = Phase::Bcast;
    }
  };
  if (s.phase == Phase::Finished) {
    s.finished = true;
    return std::nullopt;
  }
  if (s.process == 0) {
    switch (s.phase) {
    case Phase::Bcast: // one zero-work step per send phase: the next point stands between steps
      for (NodeId w = 1; w < processes_; w++) send(w, "B", n * n, b_value(s.rep));
      s.phase = Phase::Scatter;
      return 0.0;
    case Phase::Scatter:
      for (NodeId w = 1; w < processes_; w++) send(w, "A", rows(w) * n, a_value(s.rep, w));
      s.phase = Phase::Compute;
      return rows(0) * spec_.row_cost;
    case Phase::Gather:
      if (s.c_count[s.rep] < processes_ - 1) return std::nullopt; // waits for the workers' rows
      s.result = fold(s.result, s.c_sum[s.rep]);
      s.c_sum.erase(s.rep);
      s.c_count.erase(s.rep);
      finish_rep();
      return s.finished ? std::nullopt : std::optional<double>(0.0);
    default:
      throw std::logic_error("master-worker: the master advances while computing");
    }
  }
  switch (s.phase) {
  case Phase::Bcast:
    if (!s.b_by_rep.count(s.rep)) return std::nullopt;
    s.phase = Phase::Scatter; // a zero-work step: the worker then stands at its scatter point
    return 0.0;
  case Phase::Scatter:
    if (!s.a_by_rep.count(s.rep)) return std::nullopt;
    s.phase = Phase::Compute;
    return rows(self) * spec_.row_cost;
  case Phase::Gather: {
    const std::uint64_t c = c_value(s.rep, self, s.b_by_rep.at(s.rep), s.a_by_rep.at(s.rep));
    s.b_by_rep.erase(s.rep);
    s.a_by_rep.erase(s.rep);
    s.result = fold(s.result, c);
    send(0, "C", rows(self) * n, c);
    finish_rep();
    return s.finished ? std::nullopt : std::optional<double>(0.0);
  }
  default:
    throw std::logic_error("master-worker: a worker advances while computing");
  }
}

void MasterWorkerWorkload::complete_step(AppState& base, NodeId self) const {
  auto& s = as_mw(base);
  if (s.phase != MasterWorkerState::Phase::Compute) return;
  s.phase = MasterWorkerState::Phase::Gather;
  if (s.process == 0) // the master's own rows count with the workers' (addition: any order)
    s.c_sum[s.rep] += c_value(s.rep, 0, b_value(s.rep), a_value(s.rep, 0));
  (void)self;
}

void MasterWorkerWorkload::deliver(AppState& base, const AppMessage& msg) const {
  auto& s = as_mw(base);
  s.delivered++;
  const char what = msg.label.empty() ? '?' : msg.label[0];
  if (s.process == 0 && what == 'C' && msg.src > 0 && msg.src < processes_) {
    if (s.c_from.empty()) s.c_from.assign(static_cast<std::size_t>(processes_), 0);
    const int r = s.c_from[static_cast<std::size_t>(msg.src)]++;
    s.c_count[r]++;
    s.c_sum[r] += msg.digest;
  } else if (s.process != 0 && what == 'B') {
    s.b_by_rep[s.b_received++] = msg.digest;
  } else if (s.process != 0 && what == 'A') {
    s.a_by_rep[s.a_received++] = msg.digest;
  } else {
    throw std::logic_error(
        fmt::format("master-worker: process {} got a message \"{}\" from {}", s.process, msg.label, msg.src));
  }
}

std::uint64_t MasterWorkerWorkload::result_digest(const AppState& base) const {
  const auto& s = as_mw(base);
  return s.finished ? (s.result & kDigestMask) : 0;
}

std::uint64_t MasterWorkerWorkload::expected_digest() const {
  std::uint64_t master = 0;
  std::uint64_t total = 0;
  std::vector<std::uint64_t> workers(static_cast<std::size_t>(processes_), 0);
  for (int r = 0; r < spec_.repetitions; r++) {
    std::uint64_t sum = 0;
    for (int p = 0; p < processes_; p++) {
      const std::uint64_t c = c_value(r, p, b_value(r), a_value(r, p));
      sum += c;
      if (p > 0) workers[static_cast<std::size_t>(p)] = fold(workers[static_cast<std::size_t>(p)], c);
    }
    master = fold(master, sum);
  }
  total = master & kDigestMask;
  for (int p = 1; p < processes_; p++) total ^= workers[static_cast<std::size_t>(p)] & kDigestMask;
  return total;
}

double MasterWorkerWorkload::failure_free_work(NodeId process) const {
  return spec_.repetitions * rows(process) * spec_.row_cost;
}

} // namespace ckptsim
