/* advise --verify's points: the mean of their makespans and the half-width of its 95 % interval,
 * Student's t with n - 1 degrees of freedom (few seeds a point), against hand computations. */
#include "sim/cli/advise/advise.hpp"

#include <gtest/gtest.h>

#include <cmath>

using ckptsim::cli::advise::SweepPoint;

TEST(AdviseSweepPoint, HalfWidthIsStudentsTTimesTheStandardError) {
  SweepPoint p;
  p.makespans = {100, 110, 120}; // mean 110, s = 10, s / sqrt(3) = 5.7735
  EXPECT_DOUBLE_EQ(p.mean(), 110);
  EXPECT_NEAR(p.half_width(), 4.303 * 10 / std::sqrt(3.0), 1e-9); // t(0.975, 2) = 4.303, not 1.96
  p.makespans = {100, 110};                                       // s = 7.0711, t(0.975, 1) = 12.706
  EXPECT_NEAR(p.half_width(), 12.706 * std::sqrt(50.0) / std::sqrt(2.0), 1e-9);
}

TEST(AdviseSweepPoint, FewerThanTwoRunsHaveNoInterval) {
  SweepPoint p;
  EXPECT_TRUE(std::isnan(p.mean()));
  EXPECT_TRUE(std::isinf(p.half_width()));
  p.makespans = {42};
  EXPECT_DOUBLE_EQ(p.mean(), 42);
  EXPECT_TRUE(std::isinf(p.half_width()));
}
