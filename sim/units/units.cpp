#include "sim/units/units.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <utility>

namespace ckptsim::units {
namespace {

struct Unit {
  std::string_view suffix;
  double factor;
};

// Suffixes are matched exactly (case-sensitive, as in SimGrid: "MBps" is bytes, "Mbps" is bits).
constexpr std::array duration_units{Unit{"ps", 1e-12},  Unit{"ns", 1e-9},   Unit{"us", 1e-6},  Unit{"ms", 1e-3},
                                    Unit{"s", 1.0},     Unit{"m", 60.0},    Unit{"min", 60.0}, Unit{"h", 3600.0},
                                    Unit{"d", 86400.0}, Unit{"w", 604800.0}};

constexpr double Ki = 1024.0;
constexpr std::array size_units{Unit{"B", 1.0},          Unit{"kB", 1e3},
                                Unit{"KB", 1e3},         Unit{"MB", 1e6},
                                Unit{"GB", 1e9},         Unit{"TB", 1e12},
                                Unit{"KiB", Ki},         Unit{"MiB", Ki* Ki},
                                Unit{"GiB", Ki* Ki* Ki}, Unit{"TiB", Ki* Ki* Ki* Ki},
                                Unit{"b", 1.0 / 8},      Unit{"kb", 1e3 / 8},
                                Unit{"Kb", 1e3 / 8},     Unit{"Mb", 1e6 / 8},
                                Unit{"Gb", 1e9 / 8},     Unit{"Kib", Ki / 8},
                                Unit{"Mib", Ki* Ki / 8}, Unit{"Gib", Ki* Ki* Ki / 8}};

constexpr std::array bandwidth_units{Unit{"Bps", 1.0},      Unit{"kBps", 1e3},         Unit{"KBps", 1e3},
                                     Unit{"MBps", 1e6},     Unit{"GBps", 1e9},         Unit{"TBps", 1e12},
                                     Unit{"KiBps", Ki},     Unit{"MiBps", Ki* Ki},     Unit{"GiBps", Ki* Ki* Ki},
                                     Unit{"bps", 1.0 / 8},  Unit{"kbps", 1e3 / 8},     Unit{"Kbps", 1e3 / 8},
                                     Unit{"Mbps", 1e6 / 8}, Unit{"Gbps", 1e9 / 8},     Unit{"Tbps", 1e12 / 8},
                                     Unit{"Kibps", Ki / 8}, Unit{"Mibps", Ki* Ki / 8}, Unit{"Gibps", Ki* Ki* Ki / 8}};

constexpr std::array speed_units{Unit{"f", 1.0},  Unit{"kf", 1e3},  Unit{"Kf", 1e3}, Unit{"Mf", 1e6},
                                 Unit{"Gf", 1e9}, Unit{"Tf", 1e12}, Unit{"Pf", 1e15}};

constexpr std::array power_units{Unit{"mW", 1e-3}, Unit{"W", 1.0}, Unit{"kW", 1e3}, Unit{"MW", 1e6}};

template <std::size_t N>
std::optional<double> factor_in(const std::array<Unit, N>& table, std::string_view suffix) {
  for (const auto& unit : table)
    if (unit.suffix == suffix) return unit.factor;
  return std::nullopt;
}

std::optional<double> factor_of(Kind kind, std::string_view suffix) {
  switch (kind) {
  case Kind::Duration:
    return factor_in(duration_units, suffix);
  case Kind::Size:
    return factor_in(size_units, suffix);
  case Kind::Bandwidth:
    return factor_in(bandwidth_units, suffix);
  case Kind::Speed:
    return factor_in(speed_units, suffix);
  case Kind::Power:
    return factor_in(power_units, suffix);
  }
  return std::nullopt;
}

std::string_view example_of(Kind kind) {
  switch (kind) {
  case Kind::Duration:
    return "\"10us\", \"30min\", \"10h\"";
  case Kind::Size:
    return "\"4KiB\", \"1.5MB\"";
  case Kind::Bandwidth:
    return "\"80MBps\", \"1Gbps\"";
  case Kind::Speed:
    return "\"1Gf\"";
  case Kind::Power:
    return "\"200W\", \"1.2kW\"";
  }
  return "";
}

} // namespace

const char* kind_name(Kind kind) {
  switch (kind) {
  case Kind::Duration:
    return "a duration";
  case Kind::Size:
    return "a size";
  case Kind::Bandwidth:
    return "a bandwidth";
  case Kind::Speed:
    return "a speed";
  case Kind::Power:
    return "a power";
  }
  return "a quantity";
}

std::optional<double> parse(std::string_view text, Kind kind, std::string* why) {
  auto fail = [&](std::string msg) -> std::optional<double> {
    if (why) *why = std::move(msg);
    return std::nullopt;
  };
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text == "inf" || text == "infinity") return std::numeric_limits<double>::infinity();
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  // from_chars accepts "nan": a NaN latency or size would silently poison every date, so it is
  // rejected like any other non-number ("inf" stays valid: it means "never" for durations).
  if (ec != std::errc() || end == text.data() || std::isnan(value))
    return fail(fmt::format("\"{}\" is not {} (expected a number with a unit such as {})", text, kind_name(kind),
                            example_of(kind)));
  std::string_view suffix(end, text.data() + text.size() - end);
  while (!suffix.empty() && suffix.front() == ' ') suffix.remove_prefix(1);
  if (suffix.empty()) return value;
  auto factor = factor_of(kind, suffix);
  if (!factor)
    return fail(fmt::format("unknown unit \"{}\" in \"{}\" for {} (examples: {})", suffix, text, kind_name(kind),
                            example_of(kind)));
  return value * *factor;
}

std::string format_duration(double seconds) {
  if (std::isinf(seconds)) return "inf";
  if (seconds >= 3600) return fmt::format("{:.6g} s ({:.4g} h)", seconds, seconds / 3600);
  return fmt::format("{:.6g} s", seconds);
}

} // namespace ckptsim::units
