/* The "servers" storage model (CCK): process i writes its remote copy to checkpoint server
 * i mod s, a host of the platform's "storage" zone behind its own link (sim/platform). Servers
 * never fail. Its fields are those servers: the platform builds them whatever the model, and a
 * platform XML gives them as its "storage" zone. */
#include "sim/storage/model.hpp"

namespace ckptsim {

namespace {
const StorageModelRegistration servers_model{{
    .name = "servers",
    .description = "the remote copy of process i on checkpoint server i mod s (servers never fail)",
    .rank = 0,
    .fields = {{"servers", "how many checkpoint servers (hosts server-0 ... of a zone \"storage\"); default 1"},
               {"server_link", "each server's own link {\"latency\": d, \"bandwidth\": b}; default 10us, 80MBps"}},
    .read =
        [](ObjectReader& r, StorageSpec& s) {
          if (auto* v = r.optional("servers"))
            s.servers = static_cast<int>(as_integer(*v, r.where("servers"), 1, 100'000));
          if (auto* v = r.optional("server_link")) s.server_link = parse_link(*v, r.where("server_link"));
        },
    .holders = [](NodeId node, std::uint64_t /*number*/,
                  const StorageContext& c) { return std::vector<Holder>{server_holder(node % c.servers)}; },
    .advised_levels =
        [](const Topology&) {
          return std::vector<AdvisedLevel>{{"servers", {"*"}}};
        },
    .needs_servers = true,
}};
} // namespace

} // namespace ckptsim
