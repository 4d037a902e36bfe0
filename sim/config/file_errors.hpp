/* What to say when an input file cannot be opened: the path tried (made absolute, since relative
 * names are resolved against a folder the user may not have in mind) and the system's reason. */
#pragma once

#include <string>

namespace ckptsim {

/** @brief "cannot open this WHAT (/absolute/path): No such file or directory", from errno: call it
 *  right after the open that failed. */
std::string cannot_open_reason(const std::string& path, const std::string& what = "file");

} // namespace ckptsim
