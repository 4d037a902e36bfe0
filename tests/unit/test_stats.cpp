/* Statistics: per-node levels summed into a counter with its peak; a node's new level replaces
 * its old one (a restarted node's log replaces what its dead incarnation held). */
#include "sim/observe/stats.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;

TEST(Stats, LevelsSumOverNodesAndANewLevelReplacesTheOld) {
  Stats st;
  st.level("log.entries", 0, 3);
  st.level("log.entries", 1, 2);
  EXPECT_EQ(st.get("log.entries"), 5);
  st.level("log.entries", 0, 1); // node 0's log shrank (garbage collected)
  EXPECT_EQ(st.get("log.entries"), 3);
  EXPECT_EQ(st.get("log.entries_max"), 5);
  st.level("log.entries", 1, 0); // node 1 restarted with an empty log: its dead log is gone
  EXPECT_EQ(st.get("log.entries"), 1);
  EXPECT_EQ(st.level_of("log.entries", 0), 1);
  EXPECT_EQ(st.level_of("log.entries", 7), 0);
}
