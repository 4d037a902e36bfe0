/* The "scripted" kind's fields of the application file (docs/INPUTS.md). Node names are resolved
 * against the federation by the workload (sim/app/scripted/workload.cpp) and the failure process. */
#include "sim/app/scripted/spec.hpp"

namespace ckptsim {

namespace {
std::string node_ref(const json& j, const Where& at) {
  if (j.is_number_integer()) return std::to_string(as_integer(j, at, 0, 100'000'000));
  if (j.is_string() && !j.get<std::string>().empty()) return j.get<std::string>();
  at.fail("expected a node: a host name such as \"c0-3\" or a global node index");
}

} // namespace

void parse_scripted(ObjectReader& r, Application& app, const Topology& /*topology*/) {
  ScriptedSpec& spec = app.spec.emplace<ScriptedSpec>();
  const json& nodes = r.required("nodes");
  Where nw = r.where("nodes");
  if (!nodes.is_object()) nw.fail("expected an object mapping node names to their list of actions");
  for (const auto& [name, actions] : nodes.items()) {
    if (is_documentation_key(name)) continue;
    Where aw = nw / name;
    if (!actions.is_array())
      aw.fail("expected an array of actions ({\"compute\": d} or {\"send\": node, \"size\": s, \"label\": l})");
    ScriptedNode sn{name, aw.file() + ": " + aw.path(), {}};
    for (std::size_t i = 0; i < actions.size(); i++) {
      ObjectReader a(actions[i], aw / i);
      ScriptedAction act;
      act.where = (aw / i).file() + ": " + (aw / i).path();
      if (a.has("compute")) {
        act.kind = ScriptedAction::Kind::Compute;
        act.work = as_nonnegative_quantity(*a.optional("compute"), a.where("compute"), units::Kind::Duration);
      } else if (a.has("send")) {
        act.kind = ScriptedAction::Kind::Send;
        act.to = node_ref(*a.optional("send"), a.where("send"));
        act.size = 1024;
        if (auto* v = a.optional("size")) act.size = as_nonnegative_quantity(*v, a.where("size"), units::Kind::Size);
        if (auto* v = a.optional("label")) act.label = as_string(*v, a.where("label"));
      } else {
        (aw / i).fail("an action needs \"compute\" or \"send\"");
      }
      a.finish();
      sn.actions.push_back(std::move(act));
    }
    spec.nodes.push_back(std::move(sn));
  }
  if (auto* v = r.optional("failures")) {
    Where fw = r.where("failures");
    if (!v->is_array()) fw.fail("expected an array of {\"date\": d, \"node\": n}");
    double previous = 0;
    for (std::size_t i = 0; i < v->size(); i++) {
      ObjectReader f((*v)[i], fw / i);
      FailureEvent ev;
      ev.date = as_nonnegative_quantity(f.required("date"), f.where("date"), units::Kind::Duration);
      if (ev.date < previous) f.where("date").fail("failures must be listed in non-decreasing date order");
      previous = ev.date;
      ev.node = node_ref(f.required("node"), f.where("node"));
      ev.where = (fw / i).file() + ": " + (fw / i).path();
      f.finish();
      app.scripted_failures.push_back(ev);
    }
  }
  r.optional("expected"); // free-form expectations of the scenario, read by tests, not by the simulator
}

} // namespace ckptsim
