/* bench_alltoall_floor: what SimGrid 3.32 itself costs for coordinated checkpointing's FLUSH
 * broadcast, with no ckptsim code in the loop (issue 34, item 5: is 0.3 x of today's
 * coordinated-4x250 reachable at all?).
 *
 * On the platform ckptsim builds from a topology file (create_platform, as bench_raw_vs_ckptsim),
 * one actor per node; at each wave date every actor sends one message to every other node and
 * receives one from each, as a coordinated wave's N(N-1) FLUSH messages between distinct nodes.
 * Each node's mailbox has a permanent receiver (as ckptsim's), so sends start at once and queue in
 * the receiver's mailbox until taken: the same mailbox shifts ckptsim pays.
 * Modes (--mode):
 *   window    (default) at most --window sends under way per node (put_async; wait_any on them
 *             when the window is full, the rest waited at the end of the wave), as ckptsim's
 *             outbox keeps its own list short: SimGrid 3.32 removes an ended comm from its
 *             issuer's activity list by walking that std::list;
 *   waited    every send put_async at once, all waited for (wait_all) after the receives: the
 *             walk above over up to N-1 comms per send;
 *   detached  the sends are detached (put_init + detach): no sender ever wakes for its sends,
 *             but 3.32 keeps detached comms in the maestro's std::list and walks it to remove
 *             each ended one (quadratic in the comms under way: N(N-1) here; hours at 1,000).
 * Prints one JSON line: engine wall, process CPU and peak RSS (getrusage of this process), the
 * messages and the simulated end. Run it once per mode in its own process, e.g.
 *   build/tests/bench/bench_alltoall_floor --topology T.json --mode detached --waves 2
 */
#include "sim/config/topology.hpp"
#include "sim/platform/platform.hpp"
#include "sim/scenario/readers.hpp"

#include <boost/program_options.hpp>
#include <simgrid/s4u.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/resource.h>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace {

double wall_now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

struct Shared {
  std::vector<sg4::Mailbox*> mailboxes;
  enum class Mode { Window, Waited, Detached } mode = Mode::Window;
  int window = 8;
  int waves = 1;
  double period = 540; // seconds between waves (coordinated-4x250's 9 min)
  double bytes = 64;
  std::uint64_t sent = 0, received = 0;
};

int kPayload = 0; // every message carries this address: the floor needs no content

void node(Shared& s, int id) {
  const int n = static_cast<int>(s.mailboxes.size());
  sg4::Mailbox* own = s.mailboxes[id];
  own->set_receiver(sg4::Actor::self());
  std::vector<sg4::CommPtr> sends;
  for (int w = 1; w <= s.waves; w++) {
    sg4::this_actor::sleep_until(w * s.period);
    for (int p = 0; p < n; p++) {
      if (p == id) continue;
      s.sent++;
      if (s.mode == Shared::Mode::Detached) {
        s.mailboxes[p]->put_init(&kPayload, static_cast<std::uint64_t>(s.bytes))->detach();
        continue;
      }
      if (s.mode == Shared::Mode::Window && static_cast<int>(sends.size()) >= s.window)
        sends.erase(sends.begin() + sg4::Comm::wait_any(sends));
      sends.push_back(s.mailboxes[p]->put_async(&kPayload, static_cast<std::uint64_t>(s.bytes)));
    }
    for (int k = 0; k < n - 1; k++) {
      own->get<int>();
      s.received++;
    }
    sg4::Comm::wait_all(sends);
    sends.clear();
  }
}

long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

double cpu_s() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

} // namespace

int main(int argc, char** argv) {
  namespace po = boost::program_options;
  std::string mode, topology;
  Shared s;
  po::options_description opts("bench_alltoall_floor --topology FILE [options] [--cfg=SIMGRID_OPTION ...]");
  opts.add_options()("help,h", "this help")("topology", po::value(&topology)->required(), "ckptsim topology file")(
      "mode", po::value(&mode)->default_value("window"), "window, waited or detached")(
      "window", po::value(&s.window)->default_value(8), "sends under way per actor (mode window)")(
      "waves", po::value(&s.waves)->default_value(2),
      "waves, at 540 s intervals")("bytes", po::value(&s.bytes)->default_value(64), "bytes per message");
  try {
    // SimGrid's own options (--cfg=..., --log=...) pass through to the engine.
    po::parsed_options parsed = po::command_line_parser(argc, argv).options(opts).allow_unregistered().run();
    po::variables_map vm;
    po::store(parsed, vm);
    if (vm.count("help")) {
      std::cout << opts << "\n";
      return 0;
    }
    po::notify(vm);
    std::vector<std::string> sg_args{"bench_alltoall_floor", "--log=xbt_cfg.thres:warning"};
    for (const std::string& a : po::collect_unrecognized(parsed.options, po::include_positional)) {
      if (a.rfind("--cfg=", 0) != 0 && a.rfind("--log=", 0) != 0) throw std::runtime_error("unknown argument " + a);
      sg_args.push_back(a);
    }
    if (mode == "window")
      s.mode = Shared::Mode::Window;
    else if (mode == "waited")
      s.mode = Shared::Mode::Waited;
    else if (mode == "detached")
      s.mode = Shared::Mode::Detached;
    else
      throw std::runtime_error("unknown mode " + mode + " (window, waited, detached)");
    if (s.window < 1) throw std::runtime_error("--window must be at least 1");

    const double t0 = wall_now();
    std::ifstream in(topology);
    if (!in) throw std::runtime_error("cannot open " + topology);
    nlohmann::json doc = nlohmann::json::parse(in);
    ckptsim::Topology topo = ckptsim::parse_topology(doc, topology, ".");
    std::vector<char*> args;
    for (auto& a : sg_args) args.push_back(a.data());
    args.push_back(nullptr);
    int sg_argc = static_cast<int>(sg_args.size());
    sg4::Engine engine(&sg_argc, args.data());
    ckptsim::configure_network_model(engine, "CM02");
    ckptsim::Platform platform = ckptsim::create_platform(engine, topo);
    const int n = platform.layout.num_nodes();
    for (int i = 0; i < n; i++) s.mailboxes.push_back(sg4::Mailbox::by_name("n" + std::to_string(i)));
    for (int i = 0; i < n; i++)
      sg4::Actor::create(platform.layout.host_name(i), platform.hosts[i], [&s, i] { node(s, i); });
    const double t1 = wall_now();
    engine.run();
    const double t2 = wall_now();
    if (s.received != s.sent) throw std::runtime_error("messages lost: the floor program is wrong");
    nlohmann::json out{{"mode", mode},
                       {"nodes", n},
                       {"waves", s.waves},
                       {"messages", s.sent},
                       {"sim_end", sg4::Engine::get_clock()},
                       {"setup_wall_s", t1 - t0},
                       {"engine_wall_s", t2 - t1},
                       {"cpu_s", cpu_s()},
                       {"peak_rss_mib", peak_rss_kib() / 1024.0}};
    std::cout << out.dump() << std::endl;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_alltoall_floor: %s\n", e.what());
    return 1;
  }
  return 0;
}
