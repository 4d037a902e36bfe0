/* Writing results: JSON (the whole document) or CSV (one row, the document flattened), written
 * to a temporary file and renamed, so a reader never sees a half-written file. */
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace ckptsim {

/** @brief "a.b.c" -> scalar, for every scalar of the document (inputs excluded). */
std::vector<std::pair<std::string, std::string>> flatten_results(const nlohmann::ordered_json& doc);

/** @brief Writes @p content to @p path atomically (InputError if the folder is not writable). */
void write_file_atomically(const std::string& path, const std::string& content);

/** @brief @p word as one word of a POSIX shell command line (quoted when it needs to be). */
std::string shell_word(const std::string& word);

/** @brief Writes the results as JSON, or as CSV when @p path ends in ".csv". */
void write_results(const std::string& path, const nlohmann::ordered_json& doc);

} // namespace ckptsim
