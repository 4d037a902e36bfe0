#include "tests/support/fake_node.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <stdexcept>

namespace ckptsim::test_support {

FakeNode::FakeNode(const FederationLayout& layout, NodeId self, Incarnation incarnation)
    : layout_(layout)
    , self_(self)
    , cluster_(self < layout.num_nodes() ? layout.cluster_of(self) : -1)
    , incarnation_(incarnation) {
  statistics.set_clusters(layout.num_clusters());
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

void FakeNode::send_app(const AppMessage& msg, PayloadPtr piggyback) {
  app_sent.emplace_back(msg, std::move(piggyback));
}

void FakeNode::resend_app(const AppMessage& msg, PayloadPtr piggyback) {
  app_resent.emplace_back(msg, std::move(piggyback));
}

void FakeNode::deliver(const AppMessage& msg, const PayloadPtr& piggyback) {
  delivered.emplace_back(msg, piggyback);
  app->delivered++;
}

bool FakeNode::stop_app_between_steps() {
  stopped = true;
  return !step_under_way;
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
  s.app = AppStateValue(std::make_unique<PlainAppState>());
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
    , module_(make_module(protocol, layout_, topology_, std::move(params), workload)) {
  const int n = layout_.num_nodes();
  const int total = n + static_cast<int>(module_->services().size());
  for (NodeId e = 0; e < total; e++) {
    nodes_.push_back(std::make_unique<FakeNode>(layout_, e));
    agents_.push_back(module_->make_agent(e, e >= n));
  }
  saves_seen_.assign(total, 0);
}

void FakeFederation::at(double date) {
  for (auto& n : nodes_) n->clock = date;
}

void FakeFederation::start() {
  for (NodeId e = 0; e < endpoints(); e++) agents_[e]->on_start(*nodes_[e]);
}

std::vector<FakeFederation::Delivered> FakeFederation::route(const std::set<NodeId>& cut, int limit) {
  struct InFlight {
    NodeId from;
    FakeNode::Control c;
  };
  std::deque<InFlight> wire;
  auto collect = [&] {
    for (NodeId e = 0; e < endpoints(); e++)
      for (auto& c : nodes_[e]->take_controls()) wire.push_back({e, std::move(c)});
  };
  std::vector<Delivered> log;
  collect();
  while (!wire.empty()) {
    if (static_cast<int>(log.size()) >= limit) throw std::logic_error("FakeFederation::route: message limit reached");
    InFlight m = std::move(wire.front());
    wire.pop_front();
    if (cut.count(m.c.to)) continue;
    log.push_back({m.from, m.c.to, m.c.msg.type});
    agents_[m.c.to]->on_control(*nodes_[m.c.to], m.from, m.c.msg);
    collect();
  }
  return log;
}

void FakeFederation::complete_saves(const std::set<NodeId>& cut) {
  for (NodeId e = 0; e < endpoints(); e++) {
    if (cut.count(e)) continue;
    auto& saves = nodes_[e]->saves;
    for (; saves_seen_[e] < saves.size(); saves_seen_[e]++) agents_[e]->on_saved(*nodes_[e], saves[saves_seen_[e]]);
  }
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
