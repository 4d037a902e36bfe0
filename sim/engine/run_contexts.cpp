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
  context_factory_ = simgrid::config::get_value<std::string>("contexts/factory");
  r.swapped = context_factory_ != "thread";
  if (!simgrid::config::is_default("contexts/stack-size"))
    r.stack_kib = simgrid::config::get_value<int>("contexts/stack-size");
  if (!simgrid::config::is_default("contexts/guard-size"))
    r.guard_pages = simgrid::config::get_value<int>("contexts/guard-size");
  r.default_stack_kib = simgrid::config::get_value<int>("contexts/stack-size");
  r.default_guard_pages = simgrid::config::get_value<int>("contexts/guard-size");
  r.page_size = sysconf(_SC_PAGESIZE);
  contexts_ = plan_contexts(r, read_system_limits());
  if (!contexts_.error.empty()) throw InputError("command line", contexts_.error_field, contexts_.error);
  if (contexts_.stack_chosen) simgrid::config::set_default<int>("contexts/stack-size", contexts_.stack_kib);
  if (contexts_.guard_chosen) simgrid::config::set_default<int>("contexts/guard-size", contexts_.guard_pages);
}

nlohmann::ordered_json Run::contexts_json() const {
  const auto origin = [](bool chosen, const char* option) {
    return chosen ? "ckptsim" : !simgrid::config::is_default(option) ? "--cfg" : "SimGrid's default";
  };
  return {{"factory", context_factory_},
          {"stack_kib", contexts_.stack_kib},
          {"stack_size_from", origin(contexts_.stack_chosen, "contexts/stack-size")},
          {"guard_pages", contexts_.guard_pages},
          {"guard_size_from", origin(contexts_.guard_chosen, "contexts/guard-size")}};
}

} // namespace ckptsim
