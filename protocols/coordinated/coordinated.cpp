/* Protocol "coordinated": standard blocking coordinated checkpointing (CCK thesis chapter 3),
 * run federation-wide. N(N+3) control messages per wave: N INIT, N*N FLUSH, N ACK, N CONT.
 * Global restart from the newest committed wave every node can still load (RLFFN: with the
 * "replicated" storage model the last SD waves are kept); stable storage "servers" by default. */
#include "protocols/coordinated/coordinator.hpp"
#include "protocols/coordinated/participant.hpp"
#include "sim/storage/placement.hpp"

#include <fmt/format.h>

namespace ckptsim::coordinated {
namespace {

class Module : public ProtocolModule {
 public:
  Module(int nodes, int depth)
      : nodes_(nodes)
      , depth_(depth) {}
  std::vector<ServiceSpec> services() const override { return {{"coordinator"}}; }
  // Processes roll back on the coordinator's ROLLBACK, after the failure notice.
  bool nodes_report_recovery() const override { return true; }
  std::unique_ptr<Agent> make_agent(NodeId node, bool service) const override {
    if (service) return std::make_unique<Coordinator>(depth_);
    (void)node;
    return std::make_unique<Participant>(nodes_, depth_); // the coordinator is the first service: id N
  }
  void summarize(const Stats& st, std::string& out) const override {
    out += fmt::format("\n  Coordinated checkpointing\n  waves committed {:.0f}, aborted {:.0f}, time checkpointing "
                       "{:.3f} s, checkpoint bytes written {:.4g}\n",
                       st.get("coordinated.waves_committed"), st.get("coordinated.waves_aborted"),
                       st.get("coordinated.checkpoint_time"), st.get("storage.bytes_written"));
  }

 private:
  int nodes_;
  int depth_; // committed waves kept (the replicated storage's SD, else 1)
};

const ProtocolRegistration registration{
    {"coordinated",
     "blocking coordinated checkpointing (INIT/FLUSH/ACK/CONT), global restart from the last wave",
     [](const ProtocolSetup& setup) {
       return std::make_unique<Module>(setup.layout->num_nodes(), storage_depth(*setup.topology, "servers"));
     },
     {}}};

} // namespace
} // namespace ckptsim::coordinated
