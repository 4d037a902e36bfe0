/* `ckptsim list` prints the protocols, the application kinds and the storage models with their
 * parameters and fields; `ckptsim protocols` the protocols and the timers, as before `list`
 * existed. The sections' content is tested in tests/unit/test_registries.cpp. */
#include "sim/cli/listing.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;
using namespace ckptsim::test_support;

TEST(CliList, PrintsProtocolsApplicationKindsAndStorageModels) {
  auto o = run_cli("list");
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_EQ(o.out,
            cli::protocols_listing() + "\n" + cli::application_kinds_listing() + "\n" + cli::storage_models_listing());
  EXPECT_EQ(o.out.rfind("Protocols (--protocol NAME, parameters with --param KEY=VALUE):\n  cck ", 0), 0u) << o.out;
}

TEST(CliList, ProtocolsStillPrintsTheProtocolsAndTheTimers) {
  auto o = run_cli("protocols");
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_EQ(o.out, cli::protocols_listing() + "\n" + cli::timers_listing());
  EXPECT_NE(o.out.find("\nTimers (timer file):\n  checkpoint_period  delay between two unforced checkpoints"),
            std::string::npos)
      << o.out;
}
