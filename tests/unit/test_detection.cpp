/* Failure detection delay (sim/failures/detection.hpp): the topology's detection_delay, or the
 * heartbeat model's last beat + timeout, dates by hand. */
#include "sim/failures/detection.hpp"

#include <gtest/gtest.h>

namespace ckptsim {
namespace {

TEST(Detection, FixedDelayWithoutHeartbeat) {
  FailureSpec f;
  f.detection_delay = 1.5;
  EXPECT_EQ(detection_delay(f, 0), 1.5);
  EXPECT_EQ(detection_delay(f, 123.4), 1.5);
}

TEST(Detection, HeartbeatDetectsAtTheLastBeatPlusTimeout) {
  FailureSpec f;
  f.heartbeat = {2.0, 5.0}; // a beat every 2 s, declared failed after 5 s of silence
  EXPECT_DOUBLE_EQ(detection_delay(f, 15), 4) << "last beat 14, detected at 19";
  EXPECT_DOUBLE_EQ(detection_delay(f, 14), 5) << "a crash right at a beat (the beat got through)";
  EXPECT_DOUBLE_EQ(detection_delay(f, 15.9), 3.1);
  EXPECT_DOUBLE_EQ(detection_delay(f, 0.5), 4.5);
  for (double t = 0; t < 10; t += 0.37) {
    EXPECT_GT(detection_delay(f, t), 5.0 - 2.0 - 1e-9) << t;
    EXPECT_LE(detection_delay(f, t), 5.0 + 1e-9) << t;
  }
}

} // namespace
} // namespace ckptsim
