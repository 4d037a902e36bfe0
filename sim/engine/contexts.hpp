/* SimGrid's execution contexts sized for the run (issue 19: no hand-tuning). Every actor has a
 * context with its own stack. With SimGrid's defaults (8 MiB stacks, one guard page) each stack
 * costs two memory mappings, and past about 32,000 actors the kernel's vm.max_map_count makes
 * SimGrid abort while creating them. Without guard pages a stack costs no mapping but SimGrid
 * zeroes it (calloc): every page of it becomes resident, so the stacks must then be small. Our
 * actors' deepest stack measured 8.8 KiB (every protocol, traces, Paje; 12.7 KiB with debug
 * logging), so 64 KiB with a guard page or 32 KiB without leave a wide margin.
 *
 * The plan is a pure function of the actors to create, what the user fixed (--cfg wins) and the
 * machine's limits, so that it is tested without a large machine; Run applies it before the
 * first actor exists (SimGrid reads the guard size again when a context dies: it must not change
 * once an actor exists). A run that cannot fit is an input error naming the limit and the option,
 * never SimGrid's abort. docs/MODEL.md, "Execution contexts". */
#pragma once

#include <optional>
#include <string>

namespace ckptsim {

/** @brief What the machine allows (read_system_limits); sizes in bytes. */
struct SystemLimits {
  long max_map_count = 65530;     // /proc/sys/vm/max_map_count
  long maps_in_use = 0;           // lines of /proc/self/maps now
  double memory_available = -1;   // MemAvailable (or the cgroup's limit, when lower); < 0: unknown
  bool strict_overcommit = false; // vm.overcommit_memory = 2: address space is reserved, not lazily given
  double commit_free = -1;        // CommitLimit - Committed_AS when strict; < 0: unknown
  long max_threads = -1;          // thread contexts: min(kernel.pid_max, kernel.threads-max, ulimit -u); < 0: unknown
};

/** @brief This process' limits, read from /proc and /sys (unknown values stay at their defaults). */
SystemLimits read_system_limits();

struct ContextRequest {
  long actors = 0;                // the most that may live at once (an estimate from above)
  bool swapped = true;            // raw, ucontext or boost contexts (false: threads, sized by the system)
  std::optional<int> stack_kib;   // fixed by the user (--cfg=contexts/stack-size)
  std::optional<int> guard_pages; // fixed by the user (--cfg=contexts/guard-size)
  int default_stack_kib = 8192;   // SimGrid's defaults, kept when they fit
  int default_guard_pages = 1;
  long page_size = 4096;
};

struct ContextPlan {
  int stack_kib = 8192;
  int guard_pages = 1;
  bool stack_chosen = false; // true: ckptsim chose it (set as SimGrid's default, so --cfg still wins)
  bool guard_chosen = false;
  // When the run cannot fit: the option or limit to name (the InputError's field) and why.
  std::string error_field;
  std::string error;
};

/** @brief The stack size and guard pages for @p r on a machine with @p limits. */
ContextPlan plan_contexts(const ContextRequest& r, const SystemLimits& limits);

} // namespace ckptsim
