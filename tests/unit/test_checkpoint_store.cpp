/* The engine's checkpoint store: which copies exist, and the storage a protocol holds (each
 * checkpoint counted once, lowered by discards). */
#include "sim/storage/checkpoint_store.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;

TEST(CheckpointStore, HeldBytesFollowSavesReplacementsAndDiscards) {
  CheckpointStore store;
  store.add(0, 1, Snapshot{}, 1e6);
  store.add(1, 1, Snapshot{}, 2e6);
  store.add_copy(0, 1, 1); // a second copy does not count twice
  EXPECT_EQ(store.held(), 2u);
  EXPECT_DOUBLE_EQ(store.held_bytes(), 3e6);
  store.add(0, 1, Snapshot{}, 5e5); // the same number saved again replaces its content
  EXPECT_EQ(store.held(), 2u);
  EXPECT_DOUBLE_EQ(store.held_bytes(), 2.5e6);
  store.drop(1, 1);
  store.drop(1, 7); // not stored: nothing changes
  EXPECT_EQ(store.held(), 1u);
  EXPECT_DOUBLE_EQ(store.held_bytes(), 5e5);
  ASSERT_NE(store.find(0, 1), nullptr);
  EXPECT_EQ(store.find(0, 1)->holders, (decltype(CheckpointStore::Entry::holders){0})); // the replacement starts with its local copy
}
