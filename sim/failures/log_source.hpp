/* The failures of a published failure log (the "lanl" and "fta" sources): the records a source's
 * reader selected, replayed with their own repair times, their log nodes mapped onto the
 * simulated nodes, and an account of every record read, used or skipped and why, for the results
 * ("failure_log"): nothing is dropped without a word. */
#pragma once

#include "sim/failures/source.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace ckptsim {

/** @brief One failure of a log: when (seconds on the log's own clock), which log node, how long. */
struct LogRecord {
  double date = 0;
  long long node = 0;    // the log's node index (LANL nodenumz, FTA node_id)
  std::string name;      // the log's node name (FTA node_name; LANL: the index as text)
  double repair = 0;     // seconds
  std::string date_text; // the date as the log writes it, for the account
};

/** @brief How the log's nodes become simulated nodes (the source's "nodes" field). */
struct NodeMapping {
  enum class Kind { Modulo, ByName, Explicit } kind = Kind::Modulo;
  std::map<std::string, std::string> hosts; // Explicit: log node index (as text) -> host name
  std::map<std::string, std::string> links; // Explicit: log node index -> link id ({"link": id})
};

/** @brief Reads "nodes": "modulo" | "by-name" | {log node: host or {"link": id}}. */
NodeMapping parse_node_mapping(const json& j, const Where& at);

/** @brief What a reader saw of the log: the records it selected (date order), the reasons it
 *  skipped the others, the window. */
struct LogSelection {
  std::string file;
  std::vector<LogRecord> records;
  std::size_t read = 0;                       // failure records of the file (the rows)
  std::size_t link_outages = 0;               // records of a log node mapped onto a link
  std::map<std::string, std::size_t> skipped; // reason -> count ("other system", "outside the window", ...)
  double origin = 0;                          // the log date of simulated time 0
  std::string origin_text;                    // as the log writes it
};

/** @brief The fields every log source reads ("file", "from", "to", "nodes"), as text until the
 *  source parses its dates. */
struct LogFields {
  std::string file; // opened path (relative to the topology file's folder)
  const json* from = nullptr;
  const json* to = nullptr;
  NodeMapping nodes;
  Where nodes_at{""};
};

/** @brief Reads the shared fields of a log source @p model. When @p chosen is false they are
 *  refused, unless the chosen source reads them too (another log source). nullopt: not chosen. */
std::optional<LogFields> read_log_fields(ObjectReader& r, bool chosen, const std::string& base_dir,
                                         const std::string& model);

/** @brief The settings a log source keeps: the selection and the mapping, applied in make; the
 *  records of log nodes mapped onto links, as scripted link outages (FailureSourceInfo::link_outages). */
struct LogSettings {
  LogSelection selection;
  NodeMapping nodes;
  Where nodes_at{""};
  std::vector<LinkFailureSpec> links;
};

/** @brief A log source's settings: @p selection's records of log nodes that @p nodes maps onto a
 *  link become outages of that link (from the record's date for its repair time), the others stay. */
LogSettings log_settings(LogSelection selection, NodeMapping nodes, Where nodes_at);
/** @brief The link outages of a log source's settings (FailureSourceInfo::link_outages). */
std::vector<LinkFailureSpec> log_link_outages(const std::any& settings);

/** @brief Sorts @p s's records by date (stably: the log's order among equal dates) and sets the
 *  origin: @p from when given (with its text), else the first record's date. */
void settle_selection(LogSelection& s, std::optional<double> from, const std::string& from_text);

/** @brief A log source's factory (FailureSourceInfo::make): its LogSettings, applied to the run's
 *  federation. */
std::unique_ptr<FailureSource> make_log_failures(const FailureSourceContext& context);

class LogFailures : public FailureSource {
 public:
  /** @brief Maps every selected record's node now; a record of an unmapped node is skipped (and
   *  counted), an explicit mapping naming a host the federation lacks is an InputError at
   *  @p mapping_at. */
  LogFailures(LogSelection selection, const NodeMapping& mapping, const FederationLayout& layout,
              const Where& mapping_at);
  std::optional<FailureArrival> next() override;
  std::optional<nlohmann::ordered_json> account(std::size_t delivered) const override;

 private:
  LogSelection selection_;
  std::vector<FailureArrival> arrivals_;
  std::size_t next_ = 0;
};

} // namespace ckptsim
