/* The LANL failure log's dates, for its reader and its tests. */
#pragma once

#include <optional>
#include <string>

namespace ckptsim {

/** @brief Seconds since 1970-01-01 00:00 of a LANL date "m/d/yyyy h:mm" (or h:mm:ss), as written
 *  (no time zone: only differences matter); nullopt when @p text is not one. */
std::optional<double> parse_lanl_date(const std::string& text);

} // namespace ckptsim
