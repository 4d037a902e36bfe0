#include "sim/config/file_errors.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace ckptsim {

std::string cannot_open_reason(const std::string& path, const std::string& what) {
  const int error = errno; // before anything below may change it
  std::error_code ec;
  const auto absolute = std::filesystem::absolute(path, ec);
  const std::string reason = error != 0 ? std::strerror(error) : "unknown reason";
  return fmt::format("cannot open this {} ({}): {}", what, ec ? path : absolute.lexically_normal().string(), reason);
}

} // namespace ckptsim
