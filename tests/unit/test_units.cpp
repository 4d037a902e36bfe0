/* Tests of ckptsim::units::parse: every unit family (durations, sizes, bandwidths, speeds), bare
 * SI numbers, "inf", and the rejection of bad text, unknown units and units of the wrong kind,
 * with the explanation a user will read. */
#include "sim/units/units.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace ckptsim::units {
namespace {

// Parses text that must be valid and returns its SI value.
double ok(std::string_view text, Kind kind) {
  std::string why;
  auto v = parse(text, kind, &why);
  EXPECT_TRUE(v.has_value()) << "\"" << text << "\" rejected: " << why;
  return v.value_or(std::nan(""));
}

// Parses text that must be rejected and returns the explanation.
std::string rejected(std::string_view text, Kind kind) {
  std::string why;
  auto v = parse(text, kind, &why);
  EXPECT_FALSE(v.has_value()) << "\"" << text << "\" accepted as " << v.value_or(0);
  return why;
}

TEST(Units, Durations) {
  EXPECT_DOUBLE_EQ(ok("10us", Kind::Duration), 10e-6);
  EXPECT_DOUBLE_EQ(ok("30min", Kind::Duration), 1800);
  EXPECT_DOUBLE_EQ(ok("10h", Kind::Duration), 36000);
  EXPECT_DOUBLE_EQ(ok("1d", Kind::Duration), 86400);
  EXPECT_DOUBLE_EQ(ok("2w", Kind::Duration), 2 * 604800);
  EXPECT_DOUBLE_EQ(ok("5m", Kind::Duration), 300); // "m" is minutes, as in SimGrid
  EXPECT_DOUBLE_EQ(ok("150ms", Kind::Duration), 0.15);
  EXPECT_DOUBLE_EQ(ok("3ns", Kind::Duration), 3e-9);
  EXPECT_DOUBLE_EQ(ok("7ps", Kind::Duration), 7e-12);
  EXPECT_DOUBLE_EQ(ok("2.5s", Kind::Duration), 2.5);
  EXPECT_DOUBLE_EQ(ok("1e3s", Kind::Duration), 1000);
}

TEST(Units, Sizes) {
  EXPECT_DOUBLE_EQ(ok("4KiB", Kind::Size), 4096);
  EXPECT_DOUBLE_EQ(ok("1.5MB", Kind::Size), 1.5e6);
  EXPECT_DOUBLE_EQ(ok("8Mb", Kind::Size), 1e6); // bits: 8 Mb = 1 MB
  EXPECT_DOUBLE_EQ(ok("2GiB", Kind::Size), 2.0 * 1024 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(ok("10kB", Kind::Size), 1e4);
  EXPECT_DOUBLE_EQ(ok("10KB", Kind::Size), 1e4);
  EXPECT_DOUBLE_EQ(ok("16b", Kind::Size), 2);
  EXPECT_DOUBLE_EQ(ok("100B", Kind::Size), 100);
}

TEST(Units, Bandwidths) {
  EXPECT_DOUBLE_EQ(ok("80MBps", Kind::Bandwidth), 80e6);
  EXPECT_DOUBLE_EQ(ok("1Gbps", Kind::Bandwidth), 1e9 / 8);
  EXPECT_DOUBLE_EQ(ok("100Mibps", Kind::Bandwidth), 100.0 * 1024 * 1024 / 8);
  EXPECT_DOUBLE_EQ(ok("1KiBps", Kind::Bandwidth), 1024);
  EXPECT_DOUBLE_EQ(ok("10Bps", Kind::Bandwidth), 10);
}

TEST(Units, UnitsAreCaseSensitive) {
  // "MBps" is bytes, "Mbps" is bits: a factor 8 that must not be guessed away.
  EXPECT_DOUBLE_EQ(ok("1MBps", Kind::Bandwidth) / ok("1Mbps", Kind::Bandwidth), 8);
  EXPECT_EQ(rejected("1mbps", Kind::Bandwidth),
            "unknown unit \"mbps\" in \"1mbps\" for a bandwidth (examples: \"80MBps\", \"1Gbps\")");
  EXPECT_EQ(rejected("10H", Kind::Duration),
            "unknown unit \"H\" in \"10H\" for a duration (examples: \"10us\", \"30min\", \"10h\")");
}

TEST(Units, Speeds) {
  EXPECT_DOUBLE_EQ(ok("1Gf", Kind::Speed), 1e9);
  EXPECT_DOUBLE_EQ(ok("2.5Mf", Kind::Speed), 2.5e6);
  EXPECT_DOUBLE_EQ(ok("3Tf", Kind::Speed), 3e12);
  EXPECT_DOUBLE_EQ(ok("1Pf", Kind::Speed), 1e15);
}

TEST(Units, BareNumbersAreSI) {
  EXPECT_DOUBLE_EQ(ok("42", Kind::Duration), 42);
  EXPECT_DOUBLE_EQ(ok("1024", Kind::Size), 1024);
  EXPECT_DOUBLE_EQ(ok("1e8", Kind::Bandwidth), 1e8);
  EXPECT_DOUBLE_EQ(ok("0.5", Kind::Speed), 0.5);
  // Signs are the caller's business (a negative latency is rejected by the loaders, not here).
  EXPECT_DOUBLE_EQ(ok("-3", Kind::Duration), -3);
}

TEST(Units, SpacesAroundAndBeforeTheUnitAreAllowed) {
  EXPECT_DOUBLE_EQ(ok(" 10 h ", Kind::Duration), 36000);
  EXPECT_DOUBLE_EQ(ok("4 KiB", Kind::Size), 4096);
}

TEST(Units, Infinity) {
  EXPECT_EQ(ok("inf", Kind::Duration), std::numeric_limits<double>::infinity());
  EXPECT_EQ(ok("infinity", Kind::Duration), std::numeric_limits<double>::infinity());
}

TEST(Units, NotANumberIsRejected) {
  // A NaN latency or size would poison every date of the simulation without any error.
  EXPECT_EQ(rejected("nan", Kind::Duration),
            "\"nan\" is not a duration (expected a number with a unit such as \"10us\", \"30min\", \"10h\")");
  EXPECT_EQ(rejected("nanMB", Kind::Size),
            "\"nanMB\" is not a size (expected a number with a unit such as \"4KiB\", \"1.5MB\")");
}

TEST(Units, RejectsTextThatIsNotANumber) {
  EXPECT_EQ(rejected("ten hours", Kind::Duration),
            "\"ten hours\" is not a duration (expected a number with a unit such as \"10us\", \"30min\", \"10h\")");
  EXPECT_EQ(rejected("", Kind::Size), "\"\" is not a size (expected a number with a unit such as \"4KiB\", \"1.5MB\")");
  EXPECT_EQ(rejected("MBps", Kind::Bandwidth),
            "\"MBps\" is not a bandwidth (expected a number with a unit such as \"80MBps\", \"1Gbps\")");
  EXPECT_EQ(rejected("+5s", Kind::Duration),
            "\"+5s\" is not a duration (expected a number with a unit such as \"10us\", \"30min\", \"10h\")");
}

TEST(Units, RejectsUnknownUnits) {
  EXPECT_EQ(rejected("10years", Kind::Duration),
            "unknown unit \"years\" in \"10years\" for a duration (examples: \"10us\", \"30min\", \"10h\")");
  EXPECT_EQ(rejected("3XB", Kind::Size), "unknown unit \"XB\" in \"3XB\" for a size (examples: \"4KiB\", \"1.5MB\")");
  EXPECT_EQ(rejected("1Gflops", Kind::Speed), "unknown unit \"Gflops\" in \"1Gflops\" for a speed (examples: \"1Gf\")");
  EXPECT_EQ(rejected("1.2.3s", Kind::Duration),
            "unknown unit \".3s\" in \"1.2.3s\" for a duration (examples: \"10us\", \"30min\", \"10h\")");
}

TEST(Units, RejectsUnitsOfAnotherKind) {
  EXPECT_EQ(rejected("10MBps", Kind::Duration),
            "unknown unit \"MBps\" in \"10MBps\" for a duration (examples: \"10us\", \"30min\", \"10h\")");
  EXPECT_EQ(rejected("10s", Kind::Size), "unknown unit \"s\" in \"10s\" for a size (examples: \"4KiB\", \"1.5MB\")");
  EXPECT_EQ(rejected("4KiB", Kind::Bandwidth),
            "unknown unit \"KiB\" in \"4KiB\" for a bandwidth (examples: \"80MBps\", \"1Gbps\")");
  EXPECT_EQ(rejected("1Gbps", Kind::Speed), "unknown unit \"Gbps\" in \"1Gbps\" for a speed (examples: \"1Gf\")");
}

TEST(Units, ExplanationIsOptional) {
  EXPECT_FALSE(parse("oops", Kind::Duration).has_value());
  EXPECT_DOUBLE_EQ(parse("2h", Kind::Duration).value(), 7200);
}

TEST(Units, KindNamesAndDurationFormatting) {
  EXPECT_STREQ(kind_name(Kind::Duration), "a duration");
  EXPECT_STREQ(kind_name(Kind::Bandwidth), "a bandwidth");
  EXPECT_EQ(format_duration(36000), "36000 s (10 h)");
  EXPECT_EQ(format_duration(12.5), "12.5 s");
  EXPECT_EQ(format_duration(std::numeric_limits<double>::infinity()), "inf");
}

} // namespace
} // namespace ckptsim::units
