/* The link outage schedule (sim/failures/link_outages.hpp): scripted outages in date order,
 * failures before repairs at one date, random sources reproducible and with the given MTBF and
 * downtime on average. */
#include "sim/failures/link_outages.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace ckptsim;

namespace {
std::vector<LinkChange> outage_drain(LinkOutages& s, std::size_t max = 1000) {
  std::vector<LinkChange> out;
  while (out.size() < max)
    if (auto c = s.next())
      out.push_back(*c);
    else
      break;
  return out;
}
} // namespace

TEST(LinkOutages, ScriptedOutagesComeInDateOrderFailuresFirstAtOneDate) {
  LinkOutages s;
  s.add_outage(1, 5, 10);
  s.add_outage(0, 2, 5);
  s.add_outage(2, 5, 6);
  const auto c = outage_drain(s);
  ASSERT_EQ(c.size(), 6u);
  const std::vector<std::tuple<double, int, bool>> want{{2, 0, true},  {5, 1, true},  {5, 2, true},
                                                        {5, 0, false}, {6, 2, false}, {10, 1, false}};
  for (std::size_t i = 0; i < want.size(); i++) {
    EXPECT_EQ(c[i].date, std::get<0>(want[i])) << i;
    EXPECT_EQ(c[i].link, std::get<1>(want[i])) << i;
    EXPECT_EQ(c[i].down, std::get<2>(want[i])) << i;
  }
  EXPECT_TRUE(s.empty());
  EXPECT_FALSE(s.next());
}

TEST(LinkOutages, ARandomLinkAlternatesFailuresAndRepairsWithTheGivenMeans) {
  LinkOutages s;
  s.add_random(3, 100.0, Distribution::constant(7.0), 42);
  const auto c = outage_drain(s, 40000);
  ASSERT_EQ(c.size(), 40000u);
  double last_up = 0, gaps = 0;
  for (std::size_t i = 0; i < c.size(); i += 2) {
    EXPECT_TRUE(c[i].down);
    EXPECT_FALSE(c[i + 1].down);
    EXPECT_EQ(c[i].link, 3);
    EXPECT_NEAR(c[i + 1].date - c[i].date, 7.0, 1e-9); // a constant downtime
    gaps += c[i].date - last_up;
    last_up = c[i + 1].date;
  }
  // 20,000 exponential gaps of mean 100 s: the mean's standard error is 100 / sqrt(20000) = 0.71 s.
  EXPECT_NEAR(gaps / 20000, 100.0, 3.5);
}

TEST(LinkOutages, TheSameSeedGivesTheSameDatesAndEachLinkItsOwn) {
  LinkOutages a, b, ab;
  a.add_random(0, 50.0, Distribution::constant(1.0), 7);
  b.add_random(0, 50.0, Distribution::constant(1.0), 7);
  ab.add_random(0, 50.0, Distribution::constant(1.0), 7);
  ab.add_random(1, 50.0, Distribution::constant(1.0), 8);
  const auto ca = outage_drain(a, 100), cb = outage_drain(b, 100), cab = outage_drain(ab, 300);
  ASSERT_EQ(ca.size(), cb.size());
  for (std::size_t i = 0; i < ca.size(); i++) EXPECT_EQ(ca[i].date, cb[i].date);
  // Adding link 1 leaves link 0's dates as they were.
  std::vector<double> link0;
  for (const auto& c : cab)
    if (c.link == 0) link0.push_back(c.date);
  for (std::size_t i = 0; i < 50; i++) EXPECT_EQ(link0[i], ca[i].date) << i;
}
