/* The repository's promises: `.ci/run` runs exactly the README's second command, and the README
 * starts with the two commands. */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

using ckptsim::test_support::slurp;

TEST(Repository, CiRunsTheReadmesTestCommand) {
  const std::string readme = slurp(std::string(CKPTSIM_SOURCE_DIR) + "/README.md");
  const std::string ci = slurp(std::string(CKPTSIM_SOURCE_DIR) + "/.ci/run");
  std::regex block("```sh\n([^\n]*)\n```");
  std::vector<std::string> commands;
  for (auto it = std::sregex_iterator(readme.begin(), readme.end(), block); it != std::sregex_iterator(); ++it)
    commands.push_back((*it)[1]);
  ASSERT_GE(commands.size(), 2u);
  EXPECT_NE(commands[0].find("./build/ckptsim"), std::string::npos) << "the first command runs the default scenario";
  EXPECT_NE(commands[1].find("ctest"), std::string::npos) << "the second command runs the tests";
  EXPECT_NE(ci.find("\n" + commands[1] + "\n"), std::string::npos) << ".ci/run must hold the README's second command";
  // The test command installs what the build needs and more (the schedulers the sweep tests
  // start): every package of the first command, the same way.
  auto packages = [](const std::string& command) {
    std::istringstream words(command.substr(0, command.find("&& cmake")));
    std::vector<std::string> out;
    for (std::string w; words >> w;) out.push_back(w);
    return out;
  };
  const auto build = packages(commands[0]);
  const auto test = packages(commands[1]);
  ASSERT_LE(build.size(), test.size());
  EXPECT_TRUE(std::equal(build.begin(), build.end(), test.begin()))
      << "the test command installs the first command's packages, then its own";
  for (const char* p : {"slurmctld", "slurmd", "munge", "parallel"})
    EXPECT_NE(std::find(test.begin() + static_cast<std::ptrdiff_t>(build.size()), test.end(), p), test.end())
        << "the sweep tests need " << p;
}
