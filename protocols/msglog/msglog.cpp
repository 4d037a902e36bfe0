/* Protocol "msglog" (SPEC 3.6): independent checkpoints and message logging. Sender-based
 * payload logging in volatile memory, determinants on an event logger (a service on the
 * controller host), recovery of the failed process alone by replay under piecewise determinism.
 * Variants: pessimistic (a send waits until the determinants it depends on are stable) and
 * causal (unstable determinants ride on the application messages instead), optimistic
 * (determinants logged asynchronously; orphans of a failure roll back, by cascading notices). One failure at a
 * time; storage "servers" by default. */
#include "protocols/msglog/logger.hpp"
#include "protocols/msglog/process.hpp"
#include "sim/protocol/errors.hpp"

#include <fmt/format.h>

namespace ckptsim::msglog {
namespace {

class Module : public ProtocolModule {
 public:
  Module(const FederationLayout& layout, Options options)
      : layout_(layout)
      , options_(options) {}
  // One failure at a time: a second failure during a replay would need the replay's own
  // determinants and re-sends to be recovered too.
  bool tolerates_overlapping_failures() const override { return false; }
  // The failed process reports once its re-execution has caught up with its peers, and each
  // peer once it has re-sent its log.
  bool nodes_report_recovery() const override { return true; }
  // optimistic: rollbacks spread by notices; the recovery is over when none is left to process.
  bool recovery_needs_quiescence() const override { return options_.variant == Variant::Optimistic; }
  std::vector<ServiceSpec> services() const override { return {{"event_logger"}}; }
  std::unique_ptr<Agent> make_agent(NodeId node, bool service) const override {
    if (service) return std::make_unique<EventLogger>(layout_.num_nodes());
    return std::make_unique<Process>(layout_, node, options_);
  }
  void summarize(const Stats& st, std::string& out) const override;

 private:
  const FederationLayout& layout_;
  Options options_;
};

void Module::summarize(const Stats& st, std::string& out) const {
  const bool causal = options_.variant == Variant::Causal;
  const bool optimistic = options_.variant == Variant::Optimistic;
  out += fmt::format("\n  Message logging ({})\n", causal ? "causal" : optimistic ? "optimistic" : "pessimistic");
  out += fmt::format("  {:<34} {:>14} {:>14}\n", "", "max", "end");
  out += fmt::format("  {:<34} {:>14.0f} {:>14.0f}\n", "log entries (all senders)", st.get("log.entries_max"),
                     st.get("log.entries"));
  out += fmt::format("  {:<34} {:>14.4g} {:>14.4g}\n", "log bytes (all senders)", st.get("log.bytes_max"),
                     st.get("log.bytes"));
  out += fmt::format("  {:<34} {:>14.0f} {:>14.0f}\n", "determinants at the logger", st.get("msglog.dets_held_max"),
                     st.get("msglog.dets_held"));
  if (causal)
    out += fmt::format("  {:<34} {:>14.0f} {:>14.0f}\n", "determinant copies at peers", st.get("msglog.det_copies_max"),
                       st.get("msglog.det_copies"));
  const double sends = st.get("msglog.sends");
  out += fmt::format("  determinants {:.0f} in {:.0f} DET messages ({:.4g} bytes); checkpoints {:.0f}\n",
                     st.get("msglog.determinants"), st.get("msglog.det_messages"), st.get("msglog.det_bytes"),
                     st.get("msglog.checkpoints"));
  if (causal)
    out += fmt::format("  piggybacked determinants {:.0f} ({:.4g} bytes)\n", st.get("msglog.piggyback_dets"),
                       st.get("msglog.piggyback_bytes"));
  else if (optimistic)
    out += fmt::format("  orphan rollbacks {:.0f} (processes rolled back per failure: see the engine's recoveries)\n",
                       st.get("msglog.orphan_rollbacks"));
  else
    out += fmt::format("  logging latency: {:.0f} of {:.0f} sends held, mean {:.3g} s per send, {:.3g} s per held "
                       "send, max {:.3g} s\n",
                       st.get("msglog.held"), sends, sends > 0 ? st.get("msglog.hold_time") / sends : 0.0,
                       st.get("msglog.held") > 0 ? st.get("msglog.hold_time") / st.get("msglog.held") : 0.0,
                       st.get("msglog.hold_max"));
  out += fmt::format("  replay: {:.0f} messages re-sent, {:.0f} deliveries replayed ({:.0f} from peers' copies), "
                     "{:.0f} duplicates dropped\n",
                     st.get("msglog.resent"), st.get("msglog.replayed"), st.get("msglog.replay_from_peers"),
                     st.get("msglog.duplicates"));
  const auto& rec = st.series("msglog.recoveries");
  if (!rec.empty()) {
    out += "  recoveries: failure, victim, processes rolled back, replayed, re-sent, duration\n";
    for (const auto& r : rec)
      out += fmt::format("  {:>8} {:>6} {:>4} {:>8} {:>8} {:>10.4g} s\n", r["failure"].get<std::uint64_t>(),
                         r["victim"].get<int>(), r["rolled_back"].get<int>(), r["replayed"].get<std::uint64_t>(),
                         r["resent"].get<std::uint64_t>(), r["duration"].get<double>());
  }
}

std::unique_ptr<ProtocolModule> make_module(const ProtocolSetup& setup) {
  Options options;
  auto it = setup.params.find("variant");
  if (it != setup.params.end()) {
    if (it->second == "pessimistic")
      options.variant = Variant::Pessimistic;
    else if (it->second == "causal")
      options.variant = Variant::Causal;
    else if (it->second == "optimistic")
      options.variant = Variant::Optimistic;
    else
      throw InputError(
          "--param", "variant",
          fmt::format("unknown msglog variant \"{}\" (valid: pessimistic, causal, optimistic)", it->second));
  }
  if (auto k = setup.params.find("keep"); k != setup.params.end()) {
    std::size_t pos = 0;
    long v = 0;
    try {
      v = std::stol(k->second, &pos);
    } catch (const std::exception&) {
      pos = 0;
    }
    if (pos != k->second.size() || v < 2 || v > 100)
      throw InputError(
          "--param", "keep",
          fmt::format("\"{}\": the checkpoints kept per process must be an integer from 2 to 100", k->second));
    options.keep = static_cast<std::size_t>(v);
  }
  return std::make_unique<Module>(*setup.layout, options);
}

const ProtocolRegistration registration{
    {.name = "msglog",
     .description =
         "independent checkpoints, sender-based message logging, determinants on an event logger, replay of the "
         "failed process (optimistic: and of its orphans)",
     .factory = make_module,
     .params = {{"variant",
                 "pessimistic (sends wait for stable determinants), causal (determinants piggybacked) or optimistic "
                 "(asynchronous determinants, orphans roll back); default pessimistic"},
                {"keep",
                 "optimistic: checkpoints kept per process for orphan rollbacks, the initial state included; default "
                 "3"}},
     .compared_by_default = ""}};

} // namespace
} // namespace ckptsim::msglog
