/* bench_raw_vs_ckptsim: what ckptsim's engine costs over bare SimGrid on the same work.
 *
 * The scenario's application (by default the embedded one: 2 x 100 nodes, 10 h of exponential
 * 100 s steps, 10 KiB messages) runs once as a bare S4U program -- one actor per node on the
 * platform ckptsim builds (create_platform), computing with sleep_for, execute or a ckptsim-like
 * wait_any_for loop (finished sends reaped with test() as ckptsim does, or waited for), sending
 * with put_async and receiving with get_async, no failure, no protocol -- and once through the
 * ckptsim binary with protocol "none" and no failure. The bare actors draw
 * the same random numbers in the same order as ckptsim's stochastic workload (same seeds), so both
 * simulate the same messages. Each simulation runs in its own process (one SimGrid engine per
 * process): the bare ones as `bench_raw_vs_ckptsim --mode bare-*`, ckptsim as a subprocess.
 * Prints, per variant, the median engine and process wall times, process CPU time, simulated
 * messages and messages per wall second, and the ratios ckptsim / bare. */
#include "sim/app/rng.hpp"
#include "sim/app/stochastic/spec.hpp"
#include "sim/cli/scenario.hpp"
#include "sim/config/topology.hpp"
#include "sim/platform/platform.hpp"
#include "sim/scenario/readers.hpp"

#include <simgrid/s4u.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

namespace sg4 = simgrid::s4u;
using ckptsim::Rng;

namespace {

double wall_now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// ---------------------------------------------------------------- the bare S4U program (child)

enum class Compute { Sleep, Exec, Loop, LoopReap };

struct Shared {
  const ckptsim::StochasticSpec* app = nullptr;
  const ckptsim::FederationLayout* layout = nullptr;
  std::vector<sg4::Mailbox*> mailboxes;
  Compute mode = Compute::Sleep;
  std::uint64_t seed = 1;
  int finished = 0;
  std::uint64_t sent = 0, delivered = 0, steps = 0, events = 0;
  bool over = false;
};

int kPayload = 0; // every message carries this address: the bare program needs no content

class BareNode {
 public:
  BareNode(Shared& s, ckptsim::NodeId id)
      : s_(s)
      , id_(id)
      , cluster_(s.layout->cluster_of(id))
      , spec_(s.app->clusters[cluster_])
      , speed_factor_(s.layout->cluster(cluster_).speed / 1e9)
      , rng_(ckptsim::mix_seed(s.seed, static_cast<std::uint64_t>(id), 0x5170c)) {}

  void operator()() {
    mailbox_ = s_.mailboxes[id_];
    post_receive();
    if (s_.mode == Compute::Loop || s_.mode == Compute::LoopReap)
      event_loop();
    else
      step_loop();
    // The application is done: keep receiving until every node is done and nothing is in flight.
    s_.finished++;
    check_end();
    while (!s_.over) {
      sg4::Comm::wait_any(std::vector<sg4::CommPtr>{recv_});
      received();
    }
    recv_->cancel();
  }

 private:
  // The same draws, in the same order, as ckptsim's StochasticWorkload::advance.
  double next_step() {
    const double total = s_.app->total_time;
    const double left = total - work_done_;
    if (left <= 1e-9 * std::max(1.0, total)) return -1;
    s_.steps++;
    const double step = std::min(left, rng_.exponential(spec_.compute.mean));
    work_done_ += step;
    return step;
  }
  void draw_sends() {
    for (ckptsim::ClusterId c = 0; c < s_.layout->num_clusters(); c++) {
      if (!rng_.bernoulli(spec_.send_probability[c])) continue;
      const auto& cl = s_.layout->cluster(c);
      const int candidates = cl.size - (c == cluster_ ? 1 : 0);
      if (candidates <= 0) continue;
      ckptsim::NodeId dst = cl.first + static_cast<ckptsim::NodeId>(rng_.below(candidates));
      if (c == cluster_ && dst >= id_) dst++;
      rng_.next(); // ckptsim's message digest draw
      s_.sent++;
      sends_.push_back(s_.mailboxes[dst]->put_async(&kPayload, static_cast<std::uint64_t>(spec_.message_size)));
    }
    if (s_.mode != Compute::LoopReap) std::erase_if(sends_, [](const sg4::CommPtr& c) { return c->test(); });
  }
  void post_receive() { recv_ = mailbox_->get_async<int>(&buf_); }
  void received() {
    s_.events++;
    s_.delivered++;
    post_receive();
    check_end();
  }
  void check_end() {
    if (!s_.over && s_.finished == static_cast<int>(s_.mailboxes.size()) && s_.delivered == s_.sent) {
      s_.over = true;
      sg4::Actor::kill_all();
    }
  }
  // Compute a whole step, then handle what arrived meanwhile.
  void step_loop() {
    for (double step; (step = next_step()) >= 0;) {
      s_.events++;
      if (s_.mode == Compute::Exec)
        sg4::this_actor::execute(step * 1e9);
      else
        sg4::this_actor::sleep_for(step / speed_factor_);
      while (recv_->test()) received();
      draw_sends();
    }
  }
  // ckptsim's node loop: one wait_any_for on the pending receive, timed out by the step's end.
  // LoopReap also waits for the pending sends instead of reaping them with test(): in SimGrid 3.32
  // a comm finished by test() stays in its actor's activity list (see README.md).
  void event_loop() {
    double end = sg4::Engine::get_clock() + next_step() / speed_factor_;
    std::vector<sg4::CommPtr> waited;
    while (true) {
      const double timeout = std::max(0.0, end - sg4::Engine::get_clock());
      waited.assign(1, recv_);
      if (s_.mode == Compute::LoopReap) waited.insert(waited.end(), sends_.begin(), sends_.end());
      const ssize_t idx = sg4::Comm::wait_any_for(waited, timeout);
      if (idx == 0) {
        received();
        continue;
      }
      if (idx > 0) {
        sends_.erase(sends_.begin() + (idx - 1));
        continue;
      }
      s_.events++;
      draw_sends();
      const double step = next_step();
      if (step < 0) return;
      end = sg4::Engine::get_clock() + step / speed_factor_;
    }
  }

  Shared& s_;
  const ckptsim::NodeId id_;
  const ckptsim::ClusterId cluster_;
  const ckptsim::StochasticCluster& spec_;
  const double speed_factor_;
  Rng rng_;
  double work_done_ = 0;
  sg4::Mailbox* mailbox_ = nullptr;
  sg4::CommPtr recv_;
  int* buf_ = nullptr;
  std::vector<sg4::CommPtr> sends_;
};

int run_bare(Compute mode, const ckptsim::ScenarioFiles& files, std::uint64_t seed, std::vector<std::string> sg_args) {
  const double t0 = wall_now();
  ckptsim::RunConfig cfg = ckptsim::load_scenario(files, {"topology/mtbf=inf"});
  ckptsim::Topology topo = ckptsim::parse_topology(cfg.topology_doc, cfg.topology_file, cfg.base_dir);
  sg_args.insert(sg_args.begin(), {"bench_raw_vs_ckptsim", "--log=xbt_cfg.thres:warning"});
  std::vector<char*> argv;
  for (auto& a : sg_args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(sg_args.size());
  sg4::Engine engine(&argc, argv.data());
  ckptsim::configure_network_model(engine, "CM02");
  ckptsim::Platform platform = ckptsim::create_platform(engine, topo);
  ckptsim::Application app = ckptsim::parse_application(cfg.application_doc, cfg.application_file, topo);
  if (app.kind != "stochastic" || !app.spec_as<ckptsim::StochasticSpec>().node_matrix.empty())
    throw std::runtime_error("the bare program only runs stochastic applications without a node matrix");

  Shared s;
  s.app = &app.spec_as<ckptsim::StochasticSpec>();
  s.layout = &platform.layout;
  s.mode = mode;
  s.seed = seed;
  const int n = platform.layout.num_nodes();
  for (int i = 0; i < n; i++) s.mailboxes.push_back(sg4::Mailbox::by_name("n" + std::to_string(i)));
  for (int i = 0; i < n; i++)
    sg4::Actor::create(platform.layout.host_name(i), platform.hosts[i], [&s, i] { BareNode(s, i)(); });
  const double t1 = wall_now();
  engine.run();
  const double t2 = wall_now();
  if (!s.over) throw std::runtime_error("the bare simulation deadlocked");
  nlohmann::json out{{"setup_wall_s", t1 - t0},
                     {"engine_wall_s", t2 - t1},
                     {"sim_end", sg4::Engine::get_clock()},
                     {"nodes", n},
                     {"steps", s.steps},
                     {"messages", s.sent},
                     {"delivered", s.delivered},
                     {"events", s.events}};
  std::cout << out.dump() << std::endl;
  return 0;
}

// ---------------------------------------------------------------- the driver (parent)

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct Sample {
  double engine_wall = 0, process_wall = 0, process_cpu = 0, messages = 0, events = 0, sim_end = 0;
};

double children_cpu() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// Runs a command, returns its stdout; records its wall and CPU times; fails on a non-zero exit.
std::string run_command(const std::string& cmd, Sample& sample) {
  const double t0 = wall_now();
  const double c0 = children_cpu();
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("cannot run " + cmd);
  std::string out;
  char buf[4096];
  while (std::size_t k = std::fread(buf, 1, sizeof buf, p)) out.append(buf, k);
  const int rc = pclose(p);
  sample.process_wall = wall_now() - t0;
  sample.process_cpu = children_cpu() - c0; // the shell and its child, both waited for by pclose
  if (rc != 0) throw std::runtime_error("command failed (status " + std::to_string(rc) + "): " + cmd);
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

struct Variant {
  std::string name;
  std::string mode; // --mode of a bare variant; empty for ckptsim
  std::vector<Sample> samples;
  double med(double Sample::*field) const {
    std::vector<double> v;
    for (const auto& s : samples) v.push_back(s.*field);
    return median(v);
  }
};

void usage() {
  std::cout << "usage: bench_raw_vs_ckptsim [--repeat N] [--seed N] [--ckptsim PATH] [--topology FILE "
               "--application FILE] [--skip MODE,...] [--cfg=SIMGRID_OPTION ...]\n"
               "Runs the scenario (default: ckptsim's embedded one) as a bare S4U program (sleep_for, execute,\n"
               "wait_any_for loop) and through ckptsim (protocol none, no failure); prints median wall times,\n"
               "messages per wall second and the ratios ckptsim / bare. --skip leaves out bare variants\n"
               "(bare-sleep, bare-exec, bare-loop, bare-loop-reap).\n";
}

} // namespace

int main(int argc, char** argv) {
  std::string self = std::filesystem::canonical("/proc/self/exe").string();
  std::string mode, skip, ckptsim = CKPTSIM_BINARY;
  ckptsim::ScenarioFiles files;
  std::uint64_t seed = 1;
  int repeat = 3;
  std::vector<std::string> sg_args;
  try {
    for (int i = 1; i < argc; i++) {
      std::string a = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
        return argv[++i];
      };
      if (a == "--mode")
        mode = value();
      else if (a == "--skip")
        skip = value();
      else if (a == "--repeat")
        repeat = std::stoi(value());
      else if (a == "--seed")
        seed = std::stoull(value());
      else if (a == "--ckptsim")
        ckptsim = value();
      else if (a == "--topology")
        files.topology = value();
      else if (a == "--application")
        files.application = value();
      else if (a.rfind("--cfg=", 0) == 0 || a.rfind("--log=", 0) == 0)
        sg_args.push_back(a);
      else if (a == "-h" || a == "--help") {
        usage();
        return 0;
      } else
        throw std::runtime_error("unknown argument " + a);
    }
    if (mode == "bare-sleep") return run_bare(Compute::Sleep, files, seed, sg_args);
    if (mode == "bare-exec") return run_bare(Compute::Exec, files, seed, sg_args);
    if (mode == "bare-loop") return run_bare(Compute::Loop, files, seed, sg_args);
    if (mode == "bare-loop-reap") return run_bare(Compute::LoopReap, files, seed, sg_args);
    if (!mode.empty())
      throw std::runtime_error("unknown mode " + mode + " (bare-sleep, bare-exec, bare-loop, bare-loop-reap)");

    std::string common;
    if (!files.topology.empty())
      common += " --topology " + quote(files.topology) + " --application " + quote(files.application);
    common += " --seed " + std::to_string(seed);
    for (const auto& a : sg_args) common += " " + quote(a);
    const std::string out_file =
        (std::filesystem::temp_directory_path() / ("bench_raw_vs_ckptsim." + std::to_string(getpid()) + ".json"))
            .string();

    std::vector<Variant> variants;
    for (const auto& [m, name] :
         std::vector<std::pair<std::string, std::string>>{{"bare-sleep", "bare S4U, sleep_for steps"},
                                                          {"bare-exec", "bare S4U, execute steps"},
                                                          {"bare-loop", "bare S4U, wait_any_for loop"},
                                                          {"bare-loop-reap", "bare S4U, loop, sends waited"}})
      if (("," + skip + ",").find("," + m + ",") == std::string::npos) variants.push_back({name, m, {}});
    const int bare = static_cast<int>(variants.size());
    variants.push_back({"ckptsim, protocol none", "", {}});
    for (int r = 0; r < repeat; r++) {
      for (int v = 0; v < bare; v++) {
        Sample s;
        auto j = nlohmann::json::parse(run_command(quote(self) + " --mode " + variants[v].mode + common, s));
        s.engine_wall = j["engine_wall_s"];
        s.messages = j["messages"];
        s.events = j["events"];
        s.sim_end = j["sim_end"];
        variants[v].samples.push_back(s);
      }
      Sample s;
      run_command(quote(ckptsim) + " run --protocol none --set topology/mtbf=inf --quiet --progress false --output " +
                      quote(out_file) + common,
                  s);
      nlohmann::json doc;
      std::ifstream(out_file) >> doc;
      s.engine_wall = doc["results"]["wall_time_s"];
      s.messages = doc["results"]["app_messages_sent"];
      s.events = doc["results"]["events"];
      s.sim_end = doc["results"]["end_date"];
      variants[bare].samples.push_back(s);
    }
    std::filesystem::remove(out_file);

    std::printf("scenario: %s, seed %llu, median of %d runs per variant, no failure\n",
                files.topology.empty() ? "ckptsim's embedded default (2 x 100 nodes, 10 h)" : files.topology.c_str(),
                static_cast<unsigned long long>(seed), repeat);
    std::printf("%-30s %11s %11s %11s %10s %9s %10s %13s\n", "variant", "engine [s]", "process [s]", "CPU [s]",
                "sim. end", "messages", "events", "msgs/s engine");
    for (const auto& v : variants)
      std::printf("%-30s %11.4f %11.4f %11.4f %10.1f %9.0f %10.0f %13.0f\n", v.name.c_str(),
                  v.med(&Sample::engine_wall), v.med(&Sample::process_wall), v.med(&Sample::process_cpu),
                  v.med(&Sample::sim_end), v.med(&Sample::messages), v.med(&Sample::events),
                  v.med(&Sample::messages) / v.med(&Sample::engine_wall));
    const Variant& ck = variants[bare];
    for (int v = 0; v < bare; v++)
      std::printf("ratio ckptsim / %-28s engine %6.2fx   process %6.2fx   CPU %6.2fx\n", variants[v].name.c_str(),
                  ck.med(&Sample::engine_wall) / variants[v].med(&Sample::engine_wall),
                  ck.med(&Sample::process_wall) / variants[v].med(&Sample::process_wall),
                  ck.med(&Sample::process_cpu) / variants[v].med(&Sample::process_cpu));
    std::printf("engine = Engine::run() only (ckptsim: results.wall_time_s, which adds the final consistency check);\n"
                "process = the whole subprocess (start-up, parsing, platform, output); CPU = its user + system time.\n"
                "events: bare = steps + "
                "deliveries, ckptsim = results.events.\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_raw_vs_ckptsim: %s\n", e.what());
    return 1;
  }
  return 0;
}
