/* The Run's side of the execution contexts (sim/engine/contexts.hpp): the plan for this run's
 * actors, applied as SimGrid's defaults before the first actor exists, so that a user's --cfg
 * (already parsed) wins. */
#include "sim/engine/contexts.hpp"
#include "sim/engine/run.hpp"

#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

#include <unistd.h>

namespace ckptsim {

void Run::plan_contexts_for_run() {
  ContextRequest r;
  // Each endpoint's node actor and, at most, one communication proxy each; a few engine actors.
  r.actors = 2L * num_endpoints() + 64;
  contexts_.factory = simgrid::config::get_value<std::string>("contexts/factory");
  r.swapped = contexts_.factory != "thread";
  if (!simgrid::config::is_default("contexts/stack-size"))
    r.stack_kib = simgrid::config::get_value<int>("contexts/stack-size");
  if (!simgrid::config::is_default("contexts/guard-size"))
    r.guard_pages = simgrid::config::get_value<int>("contexts/guard-size");
  r.default_stack_kib = simgrid::config::get_value<int>("contexts/stack-size");
  r.default_guard_pages = simgrid::config::get_value<int>("contexts/guard-size");
  r.page_size = sysconf(_SC_PAGESIZE);
  contexts_.plan = plan_contexts(r, read_system_limits());
  if (!contexts_.plan.error.empty()) throw InputError("command line", contexts_.plan.error_field, contexts_.plan.error);
  if (contexts_.plan.stack_chosen) simgrid::config::set_default<int>("contexts/stack-size", contexts_.plan.stack_kib);
  if (contexts_.plan.guard_chosen) simgrid::config::set_default<int>("contexts/guard-size", contexts_.plan.guard_pages);
}

nlohmann::ordered_json Run::contexts_json() const {
  const auto origin = [](bool chosen, const char* option) {
    return chosen ? "ckptsim" : !simgrid::config::is_default(option) ? "--cfg" : "SimGrid's default";
  };
  return {{"factory", contexts_.factory},
          {"stack_kib", contexts_.plan.stack_kib},
          {"stack_size_from", origin(contexts_.plan.stack_chosen, "contexts/stack-size")},
          {"guard_pages", contexts_.plan.guard_pages},
          {"guard_size_from", origin(contexts_.plan.guard_chosen, "contexts/guard-size")}};
}

} // namespace ckptsim
