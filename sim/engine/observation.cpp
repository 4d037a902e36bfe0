/* The observers' service (observation.hpp), and the engine's side of the Paje export: the
 * containers from the federation, the events it draws from the event trace's own (failures,
 * checkpoints saved, rollbacks). */
#include "sim/engine/observation.hpp"

#include <simgrid/s4u.hpp>

#include <cstdio>

namespace ckptsim {

namespace sg4 = simgrid::s4u;

void Observation::reset(int endpoints, int nodes, int clusters) {
  stats.set_clusters(clusters);
  oracle.reset(nodes);
  states_.assign(static_cast<std::size_t>(endpoints), nullptr);
  power.reset(nodes);
}

void Observation::warn(std::string message) {
  std::fprintf(stderr, "ckptsim: warning: %s\n", message.c_str());
  warnings_.push_back(std::move(message));
}

void Observation::set_state(NodeId e, const char* state) {
  if (states_[e] == state) return;
  states_[e] = state;
  const double now = sg4::Engine::get_clock();
  power.enter(e, power_state_of(state), now); // a service (e >= nodes) is no process: ignored
  paje.state(now, e, state);
  if (trace.enabled(2)) trace.emit(2, now, "state", {{"node", e}, {"state", state}});
}

void Observation::check_consistency(bool final, const std::string& context) {
  checks_++;
  auto found = oracle.check(final);
  for (const auto& v : found) {
    std::fprintf(stderr, "ckptsim: CONSISTENCY VIOLATION %s: %s\n", context.c_str(), v.what.c_str());
    trace.emit(0, sg4::Engine::get_clock(), "violation", {{"context", context}, {"what", v.what}});
  }
  violations_ += found.size();
}

void Observation::open_paje(const std::string& file, const FederationLayout& layout,
                            const std::vector<ServiceSpec>& services) {
  if (file.empty()) return;
  std::vector<PajeWriter::Group> groups;
  for (ClusterId c = 0; c < layout.num_clusters(); c++) {
    PajeWriter::Group g{layout.cluster(c).name, {}};
    for (NodeId n = layout.cluster(c).first; n < layout.cluster(c).first + layout.cluster(c).size; n++)
      g.members.push_back(layout.host_name(n));
    groups.push_back(std::move(g));
  }
  if (!services.empty()) {
    PajeWriter::Group g{"services", {}};
    for (const auto& s : services) g.members.push_back(s.name);
    groups.push_back(std::move(g));
  }
  paje.open(file, groups);
  trace.listen(1, [this](double date, const char* event, const nlohmann::ordered_json& f) {
    const std::string ev = event;
    if (ev == "failure")
      paje.event(date, f["node"].get<int>(), "F", "failure " + f["failure"].dump());
    else if (ev == "ckpt_save")
      paje.event(date, f["node"].get<int>(), "C", "checkpoint " + f["number"].dump());
    else if (ev == "rollback")
      paje.event(date, f["node"].get<int>(), "R", "to " + f["to_date"].dump());
    else if (ev == "link_down" || ev == "link_up")
      paje.federation_event(date, f["link"].get<std::string>() + (ev == "link_down" ? " down" : " up"));
  });
}

} // namespace ckptsim
