#include "tests/support/fake_node.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <stdexcept>

namespace ckptsim::test_support {

std::string WireMessage::type() const {
  switch (kind) {
  case Kind::Control:
    return control.type;
  case Kind::App:
    return "app";
  case Kind::Resent:
    return "resent";
  }
  return {};
}

FakeNode::FakeNode(const FederationLayout& layout, NodeId self, Incarnation incarnation, Stats* shared_stats)
    : statistics(shared_stats ? *shared_stats : own_stats_)
    , layout_(layout)
    , self_(self)
    , cluster_(self < layout.num_nodes() ? layout.cluster_of(self) : -1)
    , incarnation_(incarnation) {
  own_stats_.set_clusters(layout.num_clusters());
}

std::vector<std::string> FakeNode::control_names() const {
  std::vector<std::string> names;
  for (const auto& c : controls) names.push_back(c.msg.type);
  return names;
}

double FakeNode::timer(int id) const {
  auto it = timers.find(id);
  return it == timers.end() ? -1 : it->second;
}

AppStateValue FakeNode::fresh_app() const {
  if (workload) return workload->initial_state(self_, seed);
  return AppStateValue(std::make_unique<PlainAppState>());
}

void FakeNode::send_app(const AppMessage& msg, PayloadPtr piggyback) {
  app_sent.emplace_back(msg, piggyback);
  outbox.push_back({WireMessage::Kind::App, self_, msg.dst, {}, msg, std::move(piggyback)});
}

void FakeNode::resend_app(const AppMessage& msg, PayloadPtr piggyback) {
  app_resent.emplace_back(msg, piggyback);
  outbox.push_back({WireMessage::Kind::Resent, self_, msg.dst, {}, msg, std::move(piggyback)});
}

void FakeNode::deliver(const AppMessage& msg, const PayloadPtr& piggyback) {
  delivered.emplace_back(msg, piggyback);
  if (workload)
    workload->deliver(*app, msg);
  else
    app->delivered++;
}

bool FakeNode::stop_app_between_steps() {
  stopped = true;
  return !step_under_way;
}

void FakeNode::send_control(NodeId to, ControlMessage msg) {
  statistics.add("ctrl.total");
  statistics.add("ctrl." + msg.type);
  controls.push_back({to, msg});
  outbox.push_back({WireMessage::Kind::Control, self_, to, std::move(msg), {}, nullptr});
}

double FakeNode::timer_period(const std::string& name) const {
  auto it = periods.find(name);
  return it == periods.end() ? std::numeric_limits<double>::infinity() : it->second;
}

Snapshot FakeNode::snapshot(std::any protocol_state) {
  Snapshot s;
  s.app = app;
  s.protocol = std::move(protocol_state);
  s.date = clock;
  return s;
}

Snapshot FakeNode::initial_snapshot() {
  Snapshot s;
  s.app = fresh_app();
  return s;
}

void FakeNode::restore(const Snapshot& s, const std::string& reason) {
  restores.push_back({s, reason});
  app = s.app;
}

void FakeNode::save_checkpoint(std::uint64_t number, Snapshot s) {
  saves.push_back(number);
  saved[number] = std::move(s);
}

std::optional<std::uint64_t> FakeNode::recovery_line(const std::vector<std::uint64_t>& numbers) {
  if (line) return line(numbers);
  if (numbers.empty()) return 0;
  return *std::max_element(numbers.begin(), numbers.end());
}

void FakeNode::discard_checkpoint(std::uint64_t number) {
  discards.push_back(number);
  saved.erase(number);
}

void FakeNode::trace_event(int, const char* event, nlohmann::ordered_json) { events.emplace_back(event); }

FakeFederation::FakeFederation(const Topology& topology, const std::string& protocol,
                               std::map<std::string, std::string> params, const Workload* workload)
    : topology_(topology)
    , layout_(topology_)
    , stats_(layout_.num_clusters())
    , module_(make_module(protocol, layout_, topology_, std::move(params), workload))
    , workload_(workload) {
  const int n = layout_.num_nodes();
  const int total = n + static_cast<int>(module_->services().size());
  for (NodeId e = 0; e < total; e++) {
    nodes_.push_back(std::make_unique<FakeNode>(layout_, e, 0, &stats_));
    if (e < n && workload) {
      nodes_[e]->workload = workload;
      nodes_[e]->app = nodes_[e]->fresh_app();
    }
    agents_.push_back(module_->make_agent(e, e >= n));
  }
  saves_seen_.assign(total, 0);
  loads_seen_.assign(total, 0);
}

void FakeFederation::at(double date) {
  for (auto& n : nodes_) n->clock = date;
}

int FakeFederation::advance_to(double date) {
  int fired = 0;
  while (true) {
    NodeId due = -1;
    int id = 0;
    double when = std::numeric_limits<double>::infinity();
    for (NodeId e = 0; e < endpoints(); e++) {
      if (down_.count(e)) continue;
      for (const auto& [t, d] : nodes_[e]->timers)
        if (d <= date && d < when) {
          when = d;
          due = e;
          id = t;
        }
    }
    if (due < 0) break;
    at(when);
    nodes_[due]->timers.erase(id);
    agents_[due]->on_timer(*nodes_[due], id);
    fired++;
  }
  at(date);
  return fired;
}

std::vector<FakeFederation::Delivered> FakeFederation::run_until(double date) {
  std::vector<Delivered> log;
  while (true) {
    double next = std::numeric_limits<double>::infinity();
    for (NodeId e = 0; e < endpoints(); e++)
      if (!down_.count(e))
        for (const auto& [id, d] : nodes_[e]->timers) next = std::min(next, d);
    if (next > date) break;
    advance_to(next);
    auto part = settle();
    log.insert(log.end(), part.begin(), part.end());
  }
  at(date);
  return log;
}

void FakeFederation::start() {
  for (NodeId e = 0; e < endpoints(); e++) agents_[e]->on_start(*nodes_[e]);
}

void FakeFederation::deliver_message(const WireMessage& m) {
  if (m.kind == WireMessage::Kind::Control)
    agents_[m.to]->on_control(*nodes_[m.to], m.from, m.control);
  else
    agents_[m.to]->on_app_receive(*nodes_[m.to], m.app, m.piggyback);
}

std::vector<FakeFederation::Delivered> FakeFederation::route(const std::set<NodeId>& cut, int limit) {
  std::deque<WireMessage> wire;
  auto collect = [&] {
    for (auto& n : nodes_) {
      for (auto& m : n->outbox) wire.push_back(std::move(m));
      n->outbox.clear();
    }
  };
  std::vector<Delivered> log;
  collect();
  while (!wire.empty()) {
    if (static_cast<int>(log.size()) >= limit) throw std::logic_error("FakeFederation::route: message limit reached");
    WireMessage m = std::move(wire.front());
    wire.pop_front();
    if (cut.count(m.to) || down_.count(m.to)) continue;
    if (hold && hold(m)) {
      held_.push_back(std::move(m));
      continue;
    }
    log.push_back({m.from, m.to, m.type()});
    deliver_message(m);
    collect();
  }
  return log;
}

std::vector<WireMessage> FakeFederation::take_held() { return std::exchange(held_, {}); }

void FakeFederation::hand(const WireMessage& m) { deliver_message(m); }

void FakeFederation::complete_saves(const std::set<NodeId>& cut) {
  for (NodeId e = 0; e < endpoints(); e++) {
    if (cut.count(e) || down_.count(e)) continue;
    auto& saves = nodes_[e]->saves;
    for (; saves_seen_[e] < saves.size(); saves_seen_[e]++) agents_[e]->on_saved(*nodes_[e], saves[saves_seen_[e]]);
  }
}

void FakeFederation::complete_loads() {
  for (NodeId e = 0; e < endpoints(); e++) {
    if (down_.count(e)) continue;
    FakeNode& n = *nodes_[e];
    for (; loads_seen_[e] < n.loads.size(); loads_seen_[e]++) {
      const std::uint64_t number = n.loads[loads_seen_[e]];
      auto it = n.saved.find(number);
      if (it == n.saved.end())
        throw std::logic_error("FakeFederation: endpoint " + std::to_string(e) + " loads checkpoint " +
                               std::to_string(number) + ", which it has not saved");
      const Snapshot s = it->second; // a copy: the handler may discard it
      agents_[e]->on_loaded(n, number, s);
    }
  }
}

std::vector<FakeFederation::Delivered> FakeFederation::settle() {
  std::vector<Delivered> log;
  auto pending = [&] {
    for (NodeId e = 0; e < endpoints(); e++) {
      if (!nodes_[e]->outbox.empty()) return true;
      if (down_.count(e)) continue;
      if (saves_seen_[e] < nodes_[e]->saves.size() || loads_seen_[e] < nodes_[e]->loads.size()) return true;
    }
    return false;
  };
  while (pending()) {
    auto part = route();
    log.insert(log.end(), part.begin(), part.end());
    complete_saves();
    complete_loads();
  }
  return log;
}

AppMessage FakeFederation::app_send(NodeId from, NodeId to, double size) {
  FakeNode& n = *nodes_[from];
  AppMessage msg;
  msg.src = from;
  msg.dst = to;
  msg.seq = n.app->next_seq++;
  msg.size = size;
  agents_[from]->on_app_send(n, msg);
  return msg;
}

bool FakeFederation::run_app(NodeId p) {
  FakeNode& n = *nodes_[p];
  if (!workload_ || n.app_paused() || n.app->finished) return false;
  std::vector<AppMessage> sends;
  const auto work = workload_->advance(*n.app, p, sends);
  for (const auto& m : sends) agents_[p]->on_app_send(n, m);
  if (work) { // the step takes no time here
    n.app->work_done += *work;
    n.app->step_remaining = 0;
    workload_->complete_step(*n.app, p);
  }
  if (!work && n.app->finished) agents_[p]->on_app_finished(n);
  return work.has_value() || !sends.empty() || n.app->finished;
}

FailureNotice FakeFederation::fail(const std::vector<NodeId>& victims, FailureId id) {
  FailureNotice notice;
  notice.id = id;
  notice.victims = victims;
  notice.date = nodes_[victims.front()]->clock;
  for (NodeId victim : victims) {
    const FakeNode& old = *nodes_[victim];
    for (auto& n : nodes_) std::erase_if(n->outbox, [&](const WireMessage& m) { return m.to == victim; });
    std::erase_if(held_, [&](const WireMessage& m) { return m.to == victim || m.from == victim; });
    auto fresh = std::make_unique<FakeNode>(layout_, victim, old.incarnation() + 1, &stats_);
    fresh->clock = old.clock;
    fresh->overhead = old.overhead;
    fresh->ckpt_bytes = old.ckpt_bytes;
    fresh->periods = old.periods;
    fresh->workload = old.workload;
    fresh->seed = old.seed;
    fresh->app = fresh->fresh_app();
    fresh->line = old.line;
    fresh->saved = old.saved; // stable storage
    nodes_[victim] = std::move(fresh);
    agents_[victim] = module_->make_agent(victim, false);
    saves_seen_[victim] = 0;
    loads_seen_[victim] = 0;
    down_.insert(victim);
  }
  for (NodeId e = 0; e < endpoints(); e++)
    if (!notice.struck(e)) agents_[e]->on_failure_detected(*nodes_[e], notice);
  return notice;
}

void FakeFederation::restart(const FailureNotice& notice) {
  for (NodeId v : notice.victims) down_.erase(v);
  FailureNotice own = notice;
  own.latest = notice.id;
  for (NodeId v : notice.victims) agents_[v]->on_restart(*nodes_[v], own);
}

void FakeFederation::node_back(const FailureNotice& notice) {
  for (NodeId e = 0; e < endpoints(); e++) agents_[e]->on_node_back(*nodes_[e], notice);
}

std::unique_ptr<ProtocolModule> make_module(const std::string& name, const FederationLayout& layout,
                                            const Topology& topology, std::map<std::string, std::string> params,
                                            const Workload* workload) {
  ProtocolSetup setup;
  setup.layout = &layout;
  setup.topology = &topology;
  setup.params = std::move(params);
  setup.topology_file = "topology.json";
  setup.workload = workload;
  setup.application_file = "application.json";
  return ProtocolRegistry::instance().get(name).factory(setup);
}

} // namespace ckptsim::test_support
