/* Protocol "coordinated": standard blocking coordinated checkpointing (CCK thesis chapter 3),
 * run federation-wide. N(N+3) control messages per wave: N INIT, N*N FLUSH, N ACK, N CONT.
 * --param trigger: when waves start (trigger.hpp, the LAM/MPI paper's policies).
 * Global restart from the newest committed wave every node can still load (RLFFN: with the
 * "replicated" storage model the last SD waves are kept); stable storage "servers" by default. */
#include "protocols/coordinated/coordinator.hpp"
#include "protocols/coordinated/participant.hpp"
#include "sim/protocol/storage.hpp"

#include <fmt/format.h>

namespace ckptsim::coordinated {
namespace {

class Module : public ProtocolModule {
 public:
  Module(int nodes, KeptSaves kept, TriggerPolicy trigger)
      : nodes_(nodes)
      , kept_(std::move(kept))
      , trigger_(trigger) {}
  std::vector<ServiceSpec> services() const override { return {{"coordinator"}}; }
  StorageUse storage_use() const override { return StorageUse::NewestLine; }
  // Processes roll back on the coordinator's ROLLBACK, after the failure notice.
  bool nodes_report_recovery() const override { return true; }
  std::unique_ptr<Agent> make_agent(NodeId node, bool service) const override {
    if (service) return std::make_unique<Coordinator>(kept_, trigger_);
    (void)node;
    // The coordinator is the first service: id N.
    return std::make_unique<Participant>(nodes_, kept_, trigger_ != TriggerPolicy::Periodic);
  }
  void summarize(const Stats& st, std::string& out) const override {
    out += fmt::format("\n  Coordinated checkpointing\n  waves committed {:.0f}, aborted {:.0f}, time checkpointing "
                       "{:.3f} s, checkpoint bytes written {:.4g}\n",
                       st.get("coordinated.waves_committed"), st.get("coordinated.waves_aborted"),
                       st.get("coordinated.checkpoint_time"), st.get("storage.bytes_written"));
    if (trigger_ != TriggerPolicy::Periodic)
      out +=
          fmt::format("  trigger {}: waves started periodic {:.0f}, at collectives {:.0f}; periodic skipped {:.0f}, "
                      "collective requests declined {:.0f}\n",
                      to_string(trigger_), st.get("coordinated.waves_periodic"), st.get("coordinated.waves_collective"),
                      st.get("coordinated.periodic_skipped"), st.get("coordinated.requests_declined"));
  }

 private:
  int nodes_;
  KeptSaves kept_; // committed waves kept (the replicated storage's last SD, a level's newest...)
  TriggerPolicy trigger_;
};

TriggerPolicy trigger_of(const ProtocolSetup& setup) {
  auto it = setup.params.find("trigger");
  return it == setup.params.end() ? TriggerPolicy::Periodic : parse_trigger(it->second);
}

const ProtocolRegistration registration{
    {.name = "coordinated",
     .description = "blocking coordinated checkpointing (INIT/FLUSH/ACK/CONT), global restart from the last wave",
     .factory =
         [](const ProtocolSetup& setup) {
           return std::make_unique<Module>(setup.layout->num_nodes(), storage_kept(setup, "servers"),
                                           trigger_of(setup));
         },
     .params = {{"trigger",
                 "when waves start: periodic (every checkpoint_period, default), collective (when process 0 reaches "
                 "a collective of the application, at most once per checkpoint_period), both (the LAM/MPI paper's "
                 "rule: a periodic wave is skipped after a collective one, next = start + period + duration)"}},
     .compared_by_default = ""}};

} // namespace
} // namespace ckptsim::coordinated
