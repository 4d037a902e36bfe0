/* Seeds on the command line: `--seed S` of a run, `--seeds LIST` of compare (ranges and lists,
 * "1-20", "1,4,9", "1-5,10"). A seed is a non-negative integer written in decimal: "-1" is not
 * the huge seed an unsigned conversion would make of it, "1.5" not 1. */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ckptsim::cli {

/** @brief @p text as a seed; InputError naming @p option otherwise. */
std::uint64_t parse_seed(const std::string& text, const std::string& option);

/** @brief "A-B" (A <= B), "S", or several of them separated by commas, in the order given; a seed
 *  given twice is an error (it would count one run twice in a mean). */
std::vector<std::uint64_t> parse_seed_list(const std::string& text, const std::string& option);

} // namespace ckptsim::cli
