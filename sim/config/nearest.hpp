/* "Did you mean ...?": the known name nearest a mistyped one, for error messages that point at the
 * fix (an unknown JSON field, an unknown command-line option, a sweep path). */
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckptsim {

/** @brief Edits (insert, delete, replace, swap two neighbours) from @p a to @p b, ignoring case. */
std::size_t edit_distance(std::string_view a, std::string_view b);

/** @brief The name of @p known nearest @p typed, when it is near enough to be what was meant (a
 *  few edits for its length: 1 up to 4 characters, 2 up to 8, 3 beyond); ties go to the first. */
std::optional<std::string> nearest_name(std::string_view typed, const std::vector<std::string>& known);

/** @brief "did you mean \"NAME\"? " for the nearest name, or "" when none is near: the head of a
 *  parenthesis that goes on listing the known names. */
std::string did_you_mean_head(std::string_view typed, const std::vector<std::string>& known);

/** @brief " (did you mean \"NAME\"?)" for the nearest name, or "" when none is near. */
std::string did_you_mean(std::string_view typed, const std::vector<std::string>& known, std::string_view prefix = "");

} // namespace ckptsim
