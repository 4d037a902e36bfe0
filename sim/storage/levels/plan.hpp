/* The "levels" storage model's plan (docs/INPUTS.md, "Storage levels"): the levels of a checkpoint
 * hierarchy as SCR, FTI and VeloC write it, each level with its kind and its `every` (this level on
 * every n-th checkpoint: the deepest level whose `every` divides the checkpoint's number is
 * written, as SCR chooses among its descriptors). Read from the topology's "storage" object; the
 * cost of each step and where each copy goes: placement.hpp and model.cpp. */
#pragma once

#include "sim/config/json_reader.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ckptsim::levels {

enum class Kind { Local, Partner, Xor, Rs, Pfs };
const char* to_string(Kind kind);

struct Level {
  Kind kind = Kind::Local;
  int every = 1;
  double bandwidth = 0;   // local: the device's write (and read) rate; pfs: 0 = the storage zone's link
  double latency = -1;    // pfs: < 0 = the storage zone's link
  int distance = 1;       // partner: the partner is the distance-th next node (in another domain)
  int group = 0;          // xor, rs: members of an encoding group
  int parity = 0;         // xor: 1; rs: lost members a group survives
  double encode_rate = 0; // xor, rs: bytes per second a node encodes (and decodes)
  bool async = false;     // pfs: the application resumes before the flush ends
  std::string domain;     // partner, xor, rs: the failure-domain scope copies are spread over ("": the only one)
  std::string path;       // "/storage/levels/i", for errors
};

struct Plan {
  std::vector<Level> levels;
  bool given = false; // the topology had "levels"
};

/** @brief Reads "levels" (an array of level objects) into a plan; InputError naming the field. */
Plan parse_levels(const json& j, const Where& at);

/** @brief The level (1-based index) checkpoint @p number is written at: the deepest whose `every`
 *  divides it (number 0, the initial state, needs none: 0). */
int level_of(const Plan& plan, std::uint64_t number);

/** @brief The saves a protocol restoring the newest line it can keeps when its newest is @p newest:
 *  newest first, for each level the newest save written at that level or deeper, and one more at
 *  an asynchronous flush level (its newest may not have reached the file system yet); 0 when
 *  reached (the initial state survives everything). */
std::vector<std::uint64_t> kept_saves(const Plan& plan, std::uint64_t newest);

/** @brief The index (0-based) of the first level of kind @p kind, -1 when none. */
int find_level(const Plan& plan, Kind kind);

/** @brief The level whose scheme a checkpoint of level @p level (1-based) is written with before a
 *  flush: @p level itself, or the level before it for a pfs level (0: none but the local write). */
int scheme_level(const Plan& plan, int level);

} // namespace ckptsim::levels
