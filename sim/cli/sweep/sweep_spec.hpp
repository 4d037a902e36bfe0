/* A sweep file (docs/SWEEP.md): base input files, axes over input fields (JSON paths, the
 * syntax of `ckptsim run --set`) or over run options, protocols, storage models, seeds, and the
 * statistics to keep. Plain logic: reading and validating the file and expanding it into the list
 * of runs, each an argument list of `ckptsim run` and the values that name it in the results. */
#pragma once

#include "sim/config/json_reader.hpp"

#include <map>
#include <string>
#include <vector>

namespace ckptsim::sweep {

/** @brief One axis: its values, each setting one or several input fields (zipped) or adding
 *  one run option. */
struct Axis {
  std::string name;
  std::vector<std::string> paths;        // "set": fields changed together (empty for an option axis)
  std::string option;                    // "option": a `ckptsim run` option ("--param", "--network-model")
  std::vector<std::vector<json>> values; // per value: one JSON value per path (or one for the option)
  std::vector<std::string> labels;       // per value: how it is written in the results
};

struct SweepSpec {
  std::string file;     // as given on the command line
  std::string base_dir; // the sweep file's folder: relative names resolve against it
  std::string description;
  std::string topology, platform, application, timers; // resolved paths ("" = absent)
  std::vector<std::string> run_options;                // added to every run
  std::vector<Axis> axes;
  std::vector<std::string> protocols; // NAME[:KEY=VALUE...]
  std::vector<std::string> storage;   // empty: the inputs' storage model
  std::vector<std::uint64_t> seeds;
  std::vector<std::string> keep; // result columns (flattened names, a trailing * is a prefix)
  double time_limit = 0;         // seconds per run, 0 = none
  std::string output;            // results prefix, resolved ("" = next to the sweep file)
  json document;                 // the file as read (its fingerprint goes into the results)
};

/** @brief One run of the sweep. */
struct RunSpec {
  std::size_t index = 0;
  std::string key; // "axis=value;...;protocol=P;storage=S;seed=N": what identifies it across resumes
  std::vector<std::pair<std::string, std::string>> values; // column -> label, in column order
  std::vector<std::string> args;                           // `ckptsim run` arguments
};

/** @brief The statistics kept when the sweep file says nothing. */
const std::vector<std::string>& default_keep();

/** @brief Reads and validates a sweep document; errors name @p file and the JSON path. */
SweepSpec parse_sweep(const json& doc, const std::string& file);
SweepSpec load_sweep(const std::string& file);

/** @brief Every run, in a fixed order: axes in file order (first axis slowest), then protocols,
 *  storage models, seeds. @p storage_object_exists says whether the topology has a "storage"
 *  object (the storage axis then sets its model, else creates it). */
std::vector<RunSpec> expand(const SweepSpec& spec, bool storage_object_exists);

/** @brief The columns that name a run (axes, protocol, storage, seed), in order. */
std::vector<std::string> key_columns(const SweepSpec& spec);

/** @brief Whether result column @p column is kept by the patterns of @p keep. */
bool kept(const std::vector<std::string>& keep, const std::string& column);

} // namespace ckptsim::sweep
