#include "sim/cli/seeds.hpp"

#include "sim/config/input_error.hpp"

#include <fmt/format.h>

#include <charconv>
#include <set>

namespace ckptsim::cli {

namespace {
// Seeds stay within int64 so that results files, JSON and Python read them exactly.
constexpr std::uint64_t kMaxSeed = 9'223'372'036'854'775'807ULL;
} // namespace

std::uint64_t parse_seed(const std::string& text, const std::string& option) {
  std::uint64_t v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || text[0] == '+' || ec != std::errc() || ptr != end || v > kMaxSeed)
    throw InputError("command line", option,
                     fmt::format("a seed is an integer from 0 to {}, found \"{}\"", kMaxSeed, text));
  return v;
}

std::vector<std::uint64_t> parse_seed_list(const std::string& text, const std::string& option) {
  std::vector<std::uint64_t> seeds;
  std::set<std::uint64_t> seen;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    start = comma + 1;
    const std::size_t dash = item.find('-', 1); // a leading '-' is a negative seed, refused below
    std::uint64_t first = 0, last = 0;
    if (dash == std::string::npos) {
      first = last = parse_seed(item, option);
    } else {
      first = parse_seed(item.substr(0, dash), option);
      last = parse_seed(item.substr(dash + 1), option);
      if (last < first)
        throw InputError("command line", option, fmt::format("\"{}\": a range goes from the smaller seed up", item));
      if (last - first >= 1'000'000)
        throw InputError("command line", option, fmt::format("\"{}\": more than a million seeds", item));
    }
    for (std::uint64_t s = first;; s++) {
      if (!seen.insert(s).second) throw InputError("command line", option, fmt::format("seed {} is given twice", s));
      seeds.push_back(s);
      if (s == last) break;
    }
  }
  return seeds;
}

} // namespace ckptsim::cli
