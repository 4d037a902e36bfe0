/* The repository's promises: `.ci/run` runs exactly the README's second command, and the README
 * starts with the two commands. */
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

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
  // Both commands install the same packages.
  EXPECT_EQ(commands[0].substr(0, commands[0].find("&& cmake")), commands[1].substr(0, commands[1].find("&& cmake")));
}
