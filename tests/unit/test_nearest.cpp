#include "sim/config/nearest.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;

TEST(Nearest, EditDistanceCountsInsertionsDeletionsReplacementsAndSwaps) {
  EXPECT_EQ(edit_distance("seed", "seed"), 0u);
  EXPECT_EQ(edit_distance("sed", "seed"), 1u);             // one insertion
  EXPECT_EQ(edit_distance("totaltime", "total_time"), 1u); // one insertion
  EXPECT_EQ(edit_distance("sede", "seed"), 1u);            // neighbours swapped: one edit, not two
  EXPECT_EQ(edit_distance("MTBF", "mtbf"), 0u);            // case is no mistake worth counting
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
}

TEST(Nearest, ANameIsSuggestedOnlyWhenFewEditsAway) {
  const std::vector<std::string> options{"seed", "end", "protocol", "topology", "application"};
  EXPECT_EQ(nearest_name("sed", options), "seed"); // "end" is 2 edits away, "seed" 1
  EXPECT_EQ(nearest_name("protocl", options), "protocol");
  EXPECT_EQ(nearest_name("aplication", options), "application");
  EXPECT_EQ(nearest_name("xyz", options), std::nullopt); // 1 edit allowed at 3 characters
  EXPECT_EQ(nearest_name("output", options), std::nullopt);
  EXPECT_EQ(did_you_mean("protocl", options, "--"), " (did you mean \"--protocol\"?)");
  EXPECT_EQ(did_you_mean("output", options), "");
}
