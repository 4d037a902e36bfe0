#include "sim/engine/contexts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

namespace ckptsim {

namespace {

constexpr long kMapMargin = 1024;        // mappings left for the libraries, the heap, late actors
constexpr int kGuardedStackKib = 64;     // with a guard page: only what is touched is resident
constexpr int kBareStackKib = 32;        // without: SimGrid zeroes the whole stack
constexpr int kSmallStackKib = 16;       // without, when 32 KiB stacks do not fit in memory
constexpr int kMinStackKib = 12;         // our deepest actor: 8.8 KiB (12.7 with debug logging)
constexpr double kPerActorBytes = 16384; // an actor's own memory besides its stack
constexpr double kBaseBytes = 100e6;     // the program, SimGrid, the platform

long read_long(const std::string& path, long fallback) {
  std::ifstream in(path);
  long v = 0;
  return in >> v ? v : fallback;
}

// A "Key: value kB" line of /proc/meminfo, in bytes; -1 when absent.
double meminfo(const std::string& key) {
  std::ifstream in("/proc/meminfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key + ":", 0) != 0) continue;
    std::istringstream words(line.substr(key.size() + 1));
    double kb = 0;
    if (words >> kb) return kb * 1024;
  }
  return -1;
}

std::string bytes_text(double b) {
  return b >= 1e9 ? fmt::format("{:.1f} GB", b / 1e9) : fmt::format("{:.0f} MB", b / 1e6);
}

} // namespace

SystemLimits read_system_limits() {
  SystemLimits l;
  l.max_map_count = read_long("/proc/sys/vm/max_map_count", l.max_map_count);
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) l.maps_in_use++;
  l.memory_available = meminfo("MemAvailable");
  // A cgroup's memory limit (v2, then v1) when it is the tighter one.
  for (const char* path : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    const long limit = read_long(path, -1);
    if (limit > 0 && (l.memory_available < 0 || static_cast<double>(limit) < l.memory_available))
      l.memory_available = static_cast<double>(limit);
  }
  l.strict_overcommit = read_long("/proc/sys/vm/overcommit_memory", 0) == 2;
  rlimit nproc{};
  const long user_processes =
      getrlimit(RLIMIT_NPROC, &nproc) == 0 && nproc.rlim_cur != RLIM_INFINITY ? static_cast<long>(nproc.rlim_cur) : -1;
  for (long v :
       {read_long("/proc/sys/kernel/pid_max", -1), read_long("/proc/sys/kernel/threads-max", -1), user_processes})
    if (v > 0) l.max_threads = l.max_threads < 0 ? v : std::min(l.max_threads, v);
  if (l.strict_overcommit) {
    const double limit = meminfo("CommitLimit"), committed = meminfo("Committed_AS");
    if (limit >= 0 && committed >= 0) l.commit_free = limit - committed;
  }
  return l;
}

ContextPlan plan_contexts(const ContextRequest& r, const SystemLimits& limits) {
  ContextPlan p;
  p.stack_kib = r.stack_kib.value_or(r.default_stack_kib);
  p.guard_pages = r.guard_pages.value_or(r.default_guard_pages);
  if (!r.swapped) { // threads: SimGrid ignores the stack size; each actor is a thread of its own
    if (limits.max_threads >= 0 && r.actors > limits.max_threads) {
      p.error_field = "--cfg=contexts/factory";
      p.error = fmt::format("{} actors as threads: the system allows {} (kernel.pid_max, kernel.threads-max, ulimit "
                            "-u): use --cfg=contexts/factory:raw",
                            r.actors, limits.max_threads);
    }
    return p;
  }
  const auto fail = [&p](std::string field, std::string why) {
    p.error_field = std::move(field);
    p.error = std::move(why);
    return p;
  };
  if (r.stack_kib && *r.stack_kib < kMinStackKib)
    return fail("--cfg=contexts/stack-size",
                fmt::format("{} KiB is too small: ckptsim's actors use up to 9 KiB of stack (13 with debug logging); "
                            "give at least {} KiB",
                            *r.stack_kib, kMinStackKib));

  // Guard pages: two mappings per stack, which the kernel counts against vm.max_map_count.
  const long maps_needed = 2 * r.actors + limits.maps_in_use + kMapMargin;
  if (maps_needed > limits.max_map_count) {
    if (r.guard_pages && *r.guard_pages > 0)
      return fail("--cfg=contexts/guard-size",
                  fmt::format("{} actors with guard pages need about {} memory mappings, and the kernel allows {} "
                              "(vm.max_map_count): use --cfg=contexts/guard-size:0, or raise vm.max_map_count",
                              r.actors, maps_needed, limits.max_map_count));
    if (!r.guard_pages) {
      p.guard_pages = 0;
      p.guard_chosen = true;
    }
  }
  const bool guarded = p.guard_pages > 0;
  if (!r.stack_kib && !guarded && p.stack_kib > kBareStackKib) {
    p.stack_kib = kBareStackKib; // zeroed by SimGrid: resident in full
    p.stack_chosen = true;
  }

  // Resident memory of the stacks alone (without guard pages they are zeroed, hence resident).
  const auto resident = [&](int stack_kib) {
    return kBaseBytes + static_cast<double>(r.actors) * (kPerActorBytes + (guarded ? 0.0 : stack_kib * 1024.0));
  };
  if (limits.memory_available >= 0 && resident(p.stack_kib) > limits.memory_available && !r.stack_kib && !guarded &&
      p.stack_kib > kSmallStackKib) {
    p.stack_kib = kSmallStackKib;
    p.stack_chosen = true;
  }
  if (limits.memory_available >= 0 && resident(p.stack_kib) > limits.memory_available)
    return fail("--cfg=contexts/stack-size",
                fmt::format("{} actors with {} KiB stacks need about {} of memory before the simulation's own, and {} "
                            "is available: simulate a smaller federation{}",
                            r.actors, p.stack_kib, bytes_text(resident(p.stack_kib)),
                            bytes_text(limits.memory_available),
                            guarded || p.stack_kib <= kSmallStackKib
                                ? ""
                                : fmt::format(", or give --cfg=contexts/stack-size:{}", kSmallStackKib)));

  // Strict overcommit reserves every stack's whole size up front.
  const auto reserved = [&](int stack_kib) {
    return static_cast<double>(r.actors) * (stack_kib * 1024.0 + p.guard_pages * static_cast<double>(r.page_size));
  };
  if (limits.strict_overcommit && limits.commit_free >= 0 && reserved(p.stack_kib) > limits.commit_free) {
    if (!r.stack_kib && p.stack_kib > kGuardedStackKib) {
      p.stack_kib = kGuardedStackKib;
      p.stack_chosen = true;
    }
    if (reserved(p.stack_kib) > limits.commit_free)
      return fail("--cfg=contexts/stack-size",
                  fmt::format("{} actors with {} KiB stacks reserve {}, more than the {} the kernel still commits "
                              "(vm.overcommit_memory = 2): give a smaller --cfg=contexts/stack-size (at least {} KiB), "
                              "or simulate a smaller federation",
                              r.actors, p.stack_kib, bytes_text(reserved(p.stack_kib)), bytes_text(limits.commit_free),
                              kMinStackKib));
  }
  return p;
}

} // namespace ckptsim
