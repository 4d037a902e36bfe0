/* The "mpi-trace" kind's fields of the application file (docs/INPUTS.md). */
#include "sim/app/mpi_trace/spec.hpp"

#include <filesystem>
#include <fmt/format.h>

namespace ckptsim {

void parse_mpi_trace(ObjectReader& r, Application& app, const Topology& /*topology*/) {
  MpiTraceSpec& spec = app.spec.emplace<MpiTraceSpec>();
  spec.trace = as_string(r.required("trace"), r.where("trace"));
  if (spec.trace.empty()) r.where("trace").fail("expected the trace file smpirun -trace-ti wrote");
  // Relative to the application file, as the trace sits next to it; an embedded application
  // (or --set) has no folder: relative to the working directory.
  const std::filesystem::path file(r.where().file());
  if (std::filesystem::path(spec.trace).is_relative() && std::filesystem::exists(file))
    spec.trace = (file.parent_path() / spec.trace).string();
  if (auto* v = r.optional("placement")) {
    Where pw = r.where("placement");
    spec.where = pw.file() + ": " + pw.path();
    if (v->is_array()) {
      spec.placement = MpiTraceSpec::Placement::List;
      for (std::size_t i = 0; i < v->size(); i++) {
        const json& n = (*v)[i];
        if (n.is_number_integer())
          spec.nodes.push_back(std::to_string(as_integer(n, pw / i, 0, 100'000'000)));
        else
          spec.nodes.push_back(as_string(n, pw / i));
      }
    } else {
      spec.placement = as_choice(*v, pw, {"linear", "round-robin"}) == "linear" ? MpiTraceSpec::Placement::Linear
                                                                                : MpiTraceSpec::Placement::RoundRobin;
    }
  } else {
    spec.where = r.where().file() + ": /placement";
  }
  if (auto* v = r.optional("compute_scale")) {
    spec.compute_scale = as_number(*v, r.where("compute_scale"));
    if (!(spec.compute_scale > 0)) r.where("compute_scale").fail("expected a number > 0");
  }
  if (auto* v = r.optional("sends"))
    spec.rendezvous = as_choice(*v, r.where("sends"), {"rendezvous", "eager"}) == "rendezvous";
  spec.program = std::make_shared<const mpi::Program>(mpi::lower(mpi::read_trace(spec.trace), spec.rendezvous));
  if (spec.placement == MpiTraceSpec::Placement::List &&
      spec.nodes.size() != static_cast<std::size_t>(spec.program->num_ranks()))
    r.where("placement")
        .fail(fmt::format("the list names {} node{} for a trace of {} rank{}", spec.nodes.size(),
                          spec.nodes.size() == 1 ? "" : "s", spec.program->num_ranks(),
                          spec.program->num_ranks() == 1 ? "" : "s"));
}

} // namespace ckptsim
