/* The topology file (HC3I report section 5.1): clusters, SAN and WAN links, federation MTBF and the
 * failure source. The network part may come from a SimGrid platform XML instead. */
#pragma once

#include "sim/config/distribution.hpp"
#include "sim/config/json_reader.hpp"

#include <any>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ckptsim {

struct LinkSpec {
  double latency = 0;   // seconds
  double bandwidth = 0; // bytes per second
};

/** @brief How a cluster's nodes form the failure domains of one scope (a rack, a power group):
 *  consecutive groups of `size` nodes, or explicit groups of node names. */
struct DomainSpec {
  int size = 0;                                 // > 0: consecutive groups of this many nodes
  std::vector<std::vector<std::string>> groups; // else: explicit groups of host names
};

/** @brief What one node of a cluster draws in each state (watts): the energy model (docs/MODEL.md,
 *  "Energy"). The defaults are an illustration, not a machine: a node computing at full load,
 *  writing or reading a checkpoint with its cores mostly waiting, idle (waiting for a message, in a
 *  recovery, done), and down (a failed node still powered until its repair: 0 says switched off). */
struct PowerSpec {
  double computing = 200;
  double checkpointing = 150;
  double idle = 100;
  double down = 0;
};

struct ClusterSpec {
  std::string name;
  int nodes = 0;                               // 0 when the platform XML gives the hosts
  LinkSpec san;                                // unused with a platform XML
  double speed = 1e9;                          // flop/s of every node; work is expressed in seconds at 1 Gf
  double checkpoint_size = 1e6;                // bytes of one process' checkpoint
  std::string storage;                         // storage model name, "" = the protocol's default
  std::map<std::string, DomainSpec> domains{}; // scope -> this cluster's domains (overrides the topology's)
  PowerSpec power{};                           // watts per node and state
};

struct FailureEvent {
  double date = 0;
  std::string node;  // a host name or a global node index as text; resolved against the federation
  std::string where; // "file: path" of the definition, for errors found when resolving
};

enum class OverlapPolicy { Protocol, Allow, Defer };
/** @brief Where a failed process restarts: on a spare that replaces its node (or the node itself,
 *  back after the downtime), or on a surviving node, which then runs two processes (shrink). */
enum class RestartPlacement { Spare, Shrink };

/** @brief Heartbeat failure detection (LAM/MPI's lamd in fail-safe mode): every node sends a
 *  heartbeat every `period`; a node silent for `timeout` is declared failed. */
struct HeartbeatSpec {
  double period = 0; // 0: no heartbeat model, detection_delay applies
  double timeout = 0;
};

struct FailureSpec {
  std::string model = "exponential"; // the failure source (sim/failures/<model>/), the default one
  std::any settings;                 // the source's fields, as it read them (FailureSourceInfo::read)
  // How long a failed node stays down (or, under shrink, how long after detection its process is
  // relaunched elsewhere), drawn per failure event; a bare duration is a constant.
  Distribution downtime = Distribution::constant(0);
  double detection_delay = 0;
  double restart_overhead = 0;
  OverlapPolicy overlap = OverlapPolicy::Protocol;
  RestartPlacement restart = RestartPlacement::Spare;
  HeartbeatSpec heartbeat;
  /** @brief A source of correlated failures: every `mtbf` on average (exponential), every node of
   *  one domain of `scope` (drawn uniformly) fails at once, down for a draw of `downtime`. */
  struct Correlated {
    std::string scope; // "cluster", "site" or a domain name of the topology
    double mtbf = 0;
    std::optional<Distribution> downtime; // none: the failures' "downtime"
  };
  std::vector<Correlated> correlated;
  /** @brief After a failure of the node source, each other node of the victim's domain of `scope`
   *  fails within `window` (uniformly) with probability `probability`. */
  struct Cascade {
    std::string scope = "rack";
    double probability = 0;
    double window = 0;
  };
  std::optional<Cascade> cascade;

  /** @brief The failure source's settings; std::bad_any_cast when the source is another. */
  template <class Settings>
  const Settings& settings_as() const {
    return std::any_cast<const Settings&>(settings);
  }
};

/** @brief One entry of the topology's "link_failures": a random source, where every link of a
 *  scope fails independently (exponential gaps of mean `mtbf`, each outage lasting a draw of
 *  `downtime`), or one scripted outage of a named link from `down` to `up`. */
struct LinkFailureSpec {
  std::string scope{};                               // "wan" or "san": a random source; empty: a scripted outage
  double mtbf = 0;                                   // random source: mean time between failures of each link
  Distribution downtime = Distribution::constant(0); // random source: how long each outage lasts
  std::string link{};                                // scripted: the link's id (a platform link name)
  double down = 0;                                   // scripted: the outage's start
  double up = 0;                                     // scripted: its end (> down)
  std::string file{}, path{};                        // where the entry is, for errors found with the platform
  std::string link_at{};                             // scripted: where its link's name is written (same file)
};

/** @brief Stable storage (SPEC 1): the topology's "storage" object. Its fields belong to the
 *  storage models (sim/storage/model.hpp), each reading its own. */
struct StorageSpec {
  std::string model; // "" = the protocol's default
  // The checkpoint servers the platform builds (the "servers" model's fields).
  int servers = 1;                   // how many server hosts
  LinkSpec server_link{10e-6, 80e6}; // each server's own link
  // Watts each storage server host of the platform draws (checkpoint servers, a parallel file
  // system's servers), always on: the energy model's storage part; 0 leaves it out.
  double power = 0;
  // The other models' fields, by model name, as the model read them.
  std::map<std::string, std::any> settings;
};

/** @brief Which zones of a platform XML are the clusters (docs/INPUTS.md, "Platform XML"):
 *  every zone holding hosts directly, or every child zone of the root with all its hosts. */
enum class ClustersAt { Clusters, Sites };

struct Topology {
  std::string source = "<embedded>"; // file name, for messages and results
  std::vector<ClusterSpec> clusters;
  std::vector<std::vector<LinkSpec>> wan;                // wan[i][j-i-1] joins cluster i and cluster j > i
  std::string platform_xml;                              // non-empty: hosts and network from this file
  ClustersAt clusters_at = ClustersAt::Clusters;         // platform XML only
  LinkSpec controller{1e-6, 1e10};                       // link(s) of the controller host ckptsim adds
  std::string controller_host;                           // platform XML only: an existing host as controller
  double mtbf = std::numeric_limits<double>::infinity(); // federation MTBF, seconds
  FailureSpec failures;
  StorageSpec storage;
  std::map<std::string, DomainSpec> domains;             // scope -> every cluster's domains (failure domains)
  std::map<std::string, std::vector<std::string>> sites; // site -> its clusters (the "site" scope)
  std::vector<LinkFailureSpec> link_failures;            // network faults (sim/engine/link_faults.hpp)

  int cluster_index(const std::string& name) const; // -1 when unknown
};

/** @brief Reads a link {"latency": d, "bandwidth": b}. */
LinkSpec parse_link(const json& j, const Where& at);

const char* to_string(OverlapPolicy policy);
const char* to_string(RestartPlacement placement);

} // namespace ckptsim
