/* The Run's side of the Paje export (sim/observe/paje.hpp) and of the processes' states, which
 * the JSON-lines trace carries too (level 2 `state`): the containers from the federation, the
 * events it draws from the trace's own (failures, checkpoints saved, rollbacks). */
#include "sim/engine/run.hpp"

namespace ckptsim {

void Run::open_paje() {
  if (config_.options.paje_file.empty()) return;
  std::vector<PajeWriter::Group> groups;
  const auto& layout = platform_.layout;
  for (ClusterId c = 0; c < layout.num_clusters(); c++) {
    PajeWriter::Group g{layout.cluster(c).name, {}};
    for (NodeId n = layout.cluster(c).first; n < layout.cluster(c).first + layout.cluster(c).size; n++)
      g.members.push_back(layout.host_name(n));
    groups.push_back(std::move(g));
  }
  if (!services_.empty()) {
    PajeWriter::Group g{"services", {}};
    for (const auto& s : services_) g.members.push_back(s.name);
    groups.push_back(std::move(g));
  }
  paje_.open(config_.options.paje_file, groups);
  // Level 1: the checkpoints saved are level-1 events.
  trace_.listen(1, [this](double date, const char* event, const nlohmann::ordered_json& f) {
    const std::string ev = event;
    if (ev == "failure")
      paje_.event(date, f["node"].get<int>(), "F", "failure " + f["failure"].dump());
    else if (ev == "ckpt_save")
      paje_.event(date, f["node"].get<int>(), "C", "checkpoint " + f["number"].dump());
    else if (ev == "rollback")
      paje_.event(date, f["node"].get<int>(), "R", "to " + f["to_date"].dump());
  });
}

void Run::set_state(NodeId e, const char* state) {
  if (state_[e] == state) return;
  state_[e] = state;
  const double now = sg4::Engine::get_clock();
  paje_.state(now, e, state);
  if (trace_.enabled(2)) trace_.emit(2, now, "state", {{"node", e}, {"state", state}});
}

} // namespace ckptsim
