/* The table of `ckptsim compare`: one row per protocol. With one seed, each cell is that run's
 * figure; with several (--seeds), each is the mean over the runs that completed with the
 * half-width of its 95 % confidence interval (Student's t), the CSV giving both in two columns
 * ("C" and "C ci95", which plots/compare.py draws as error bars). */
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ckptsim::cli {

/** @brief The runs of one protocol: its label, each run's exit status and results document (null
 *  when it wrote none). */
struct ProtocolRuns {
  std::string label;
  std::vector<int> status;
  std::vector<nlohmann::ordered_json> docs;
};

struct CompareTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;     // what the terminal shows
  std::vector<std::string> csv_header;            // the CSV: numbers only, the intervals in their columns
  std::vector<std::vector<std::string>> csv_rows; //
};

/** @brief Whether any run had link failures in its inputs (the network columns are added). */
bool any_network(const std::vector<ProtocolRuns>& protocols);

/** @brief The table of single runs (one seed): a row per protocol, as `ckptsim compare` always
 *  printed it. */
CompareTable single_run_table(const std::vector<ProtocolRuns>& protocols, bool network);

/** @brief The table over several seeds: per protocol the runs used, the runs that failed, and the
 *  mean and 95 % interval of every column (violations: their sum). */
CompareTable seeds_table(const std::vector<ProtocolRuns>& protocols, bool network);

/** @brief The table as aligned text (first column left, others right). */
std::string aligned(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);

/** @brief The failures (date, victim) of one run's document, "none" without any. */
std::string failures_line(const nlohmann::ordered_json& doc);

} // namespace ckptsim::cli
