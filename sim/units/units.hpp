/* Quantities with units, SimGrid style: "10us", "30min", "80MBps", "1Gbps", "4KiB", "1Gf".
 * Every input number of ckptsim is in SI units (seconds, bytes, bytes/s, flop/s); strings carry a
 * unit suffix and are converted here. */
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ckptsim::units {

enum class Kind { Duration, Size, Bandwidth, Speed, Power };

/** @brief Name of a kind, for error messages ("a duration"). */
const char* kind_name(Kind kind);

/** @brief Parses "<number><unit>" (or a bare number, SI) of the given kind.
 *  Returns std::nullopt with an explanation in @p why when the text is not a valid quantity.
 *  "inf" / "infinity" give +infinity (only meaningful for durations). */
std::optional<double> parse(std::string_view text, Kind kind, std::string* why = nullptr);

/** @brief Formats a duration for humans: "36000 s (10 h)". */
std::string format_duration(double seconds);

} // namespace ckptsim::units
