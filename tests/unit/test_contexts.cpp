/* plan_contexts (sim/engine/contexts.hpp): SimGrid's stack size and guard pages chosen from the
 * actors to create and the machine's limits, on hand-written limits. */
#include "sim/engine/contexts.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;

namespace {
SystemLimits machine(double available = 24e9) {
  SystemLimits l;
  l.max_map_count = 65530;
  l.maps_in_use = 200;
  l.memory_available = available;
  return l;
}
ContextRequest actors(long n) {
  ContextRequest r;
  r.actors = n;
  return r;
}
} // namespace

TEST(Contexts, SimGridsDefaultsStayWhenTheyFit) {
  // 2 x 100 nodes: 464 actors, 928 mappings with guard pages.
  const ContextPlan p = plan_contexts(actors(464), machine());
  EXPECT_TRUE(p.error.empty()) << p.error;
  EXPECT_EQ(p.stack_kib, 8192);
  EXPECT_EQ(p.guard_pages, 1);
  EXPECT_FALSE(p.stack_chosen || p.guard_chosen);
}

TEST(Contexts, PastTheMappingLimitGuardPagesGoAndStacksShrink) {
  // 2 x 32,153 actors + 200 in use + 1,024 margin = 65,530 mappings: just fits; one more does not.
  EXPECT_EQ(plan_contexts(actors(32153), machine()).guard_pages, 1);
  const ContextPlan p = plan_contexts(actors(32154), machine());
  EXPECT_TRUE(p.error.empty()) << p.error;
  EXPECT_EQ(p.guard_pages, 0);
  EXPECT_EQ(p.stack_kib, 32); // zeroed by SimGrid without a guard: resident in full
  EXPECT_TRUE(p.stack_chosen && p.guard_chosen);
}

TEST(Contexts, AUsersGuardPagesThatCannotFitAreAnInputError) {
  ContextRequest r = actors(80064); // 40 x 1,000 nodes
  r.guard_pages = 1;
  const ContextPlan p = plan_contexts(r, machine());
  EXPECT_EQ(p.error_field, "--cfg=contexts/guard-size");
  EXPECT_NE(p.error.find("80064 actors with guard pages need about 161352 memory mappings, and the kernel allows "
                         "65530 (vm.max_map_count): use --cfg=contexts/guard-size:0"),
            std::string::npos)
      << p.error;
  // Without guard pages the user's choice stands, and ckptsim sizes the stacks.
  r.guard_pages = 0;
  const ContextPlan q = plan_contexts(r, machine());
  EXPECT_TRUE(q.error.empty()) << q.error;
  EXPECT_EQ(q.stack_kib, 32);
  EXPECT_FALSE(q.guard_chosen);
}

TEST(Contexts, StacksShrinkToFitTheMemoryOrTheRunIsRefused) {
  // 80,064 actors without guard pages: 100 MB + 80,064 x (16 + 32) KiB = 4.04 GB; with 16 KiB
  // stacks 2.72 GB.
  const ContextPlan p = plan_contexts(actors(80064), machine(3e9));
  EXPECT_TRUE(p.error.empty()) << p.error;
  EXPECT_EQ(p.stack_kib, 16);
  const ContextPlan q = plan_contexts(actors(80064), machine(2e9));
  EXPECT_EQ(q.error_field, "--cfg=contexts/stack-size");
  EXPECT_NE(q.error.find("80064 actors with 16 KiB stacks need about 2.7 GB of memory before the simulation's own, "
                         "and 2.0 GB is available"),
            std::string::npos)
      << q.error;
  // A user's large stacks without guard pages are zeroed in full: refused, not swapped to death.
  ContextRequest r = actors(80064);
  r.stack_kib = 8192;
  EXPECT_EQ(plan_contexts(r, machine()).error_field, "--cfg=contexts/stack-size");
}

TEST(Contexts, StrictOvercommitGetsSmallerStacks) {
  // 20,000 actors fit the mappings with guard pages; 8 MiB stacks would reserve 164 GB.
  SystemLimits l = machine();
  l.strict_overcommit = true;
  l.commit_free = 10e9;
  const ContextPlan p = plan_contexts(actors(20000), l);
  EXPECT_TRUE(p.error.empty()) << p.error;
  EXPECT_EQ(p.guard_pages, 1);
  EXPECT_EQ(p.stack_kib, 64);
  l.commit_free = 1e9; // 20,000 x 68 KiB = 1.39 GB
  EXPECT_NE(plan_contexts(actors(20000), l).error.find("vm.overcommit_memory = 2"), std::string::npos);
}

TEST(Contexts, TooSmallAStackIsRefusedAndThreadsAreLeftAlone) {
  ContextRequest r = actors(100);
  r.stack_kib = 8;
  EXPECT_EQ(plan_contexts(r, machine()).error_field, "--cfg=contexts/stack-size");
  ContextRequest t = actors(30000);
  t.swapped = false; // thread contexts: SimGrid ignores the stack size
  SystemLimits l = machine();
  l.max_threads = 32768;
  const ContextPlan p = plan_contexts(t, l);
  EXPECT_TRUE(p.error.empty());
  EXPECT_FALSE(p.stack_chosen || p.guard_chosen);
  t.actors = 80064; // a thread each: more than the system allows
  EXPECT_EQ(plan_contexts(t, l).error_field, "--cfg=contexts/factory");
}
