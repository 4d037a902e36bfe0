/* The Paje export (`--paje`): pajeng's pj_dump (Debian package pajeng, installed by the README's
 * test command) must read the file, and its states, links and events must be those of the run:
 * a link per message put on the wire, a state per change the JSON trace reports, an event per
 * failure, checkpoint saved and rollback. */
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <sstream>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {

struct PajeDump {
  int status = -1;
  std::string error;
  std::map<std::string, int> counts; // "Link Message", "State State", "Event Failure", ...
};

// Runs pj_dump on @p file and counts its entities by kind and type (pj_dump's first and third fields).
PajeDump pj_dump_counts(const std::string& file) {
  PajeDump d;
  const std::string err = temp_path("pj_dump.err");
  FILE* p = popen(("pj_dump '" + file + "' 2>'" + err + "'").c_str(), "r");
  if (!p) return d;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) {
    std::stringstream line(buf);
    std::string kind, container, type;
    std::getline(line, kind, ',');
    std::getline(line, container, ',');
    std::getline(line, type, ',');
    if (!type.empty() && type[0] == ' ') type.erase(0, 1);
    d.counts[kind + " " + type]++;
  }
  d.status = pclose(p);
  d.error = slurp(err);
  return d;
}

bool have_pj_dump() { return std::system("command -v pj_dump >/dev/null 2>&1") == 0; }

int trace_count(const std::string& trace, const std::string& ev) {
  return static_cast<int>(trace_events(trace, ev).size());
}

} // namespace

TEST(Paje, AFailureFreeRunHasALinkPerMessageAndAStatePerChange) {
  ASSERT_TRUE(have_pj_dump()) << "pj_dump not found: install Debian's pajeng (the README's test command does)";
  RunConfig c = make_config(small_topology(2, 4, INFINITY), small_application(2, 5, 200, 0.3, 0.2),
                            {{"default", {{"checkpoint_period", 50}, {"gc_period", 100}}}});
  c.options.protocol = "hc3i";
  c.options.paje_file = temp_path("paje_ff.paje");
  c.options.trace_file = temp_path("paje_ff.jsonl");
  c.options.trace_level = 2;
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const PajeDump d = pj_dump_counts(c.options.paje_file);
  ASSERT_EQ(d.status, 0) << d.error;
  EXPECT_EQ(d.counts.at("Container Node"), 8 + 0); // hc3i has no service endpoint
  EXPECT_EQ(d.counts.at("Container Group"), 2);
  EXPECT_EQ(d.counts.at("Link Message"), counter(r, "app.sent"));
  EXPECT_GT(d.counts.at("Link Message"), 50);
  EXPECT_EQ(d.counts.at("Link Control"), counter(r, "ctrl.total"));
  EXPECT_EQ(d.counts.at("Event Checkpoint"), trace_count(c.options.trace_file, "ckpt_save"));
  EXPECT_GT(d.counts.at("Event Checkpoint"), 8);
  EXPECT_EQ(d.counts.at("State State"), trace_count(c.options.trace_file, "state"));
  EXPECT_EQ(d.counts.count("Event Failure"), 0u);
}

TEST(Paje, FailuresRollbacksAndLostMessagesAreAllThere) {
  ASSERT_TRUE(have_pj_dump()) << "pj_dump not found: install Debian's pajeng (the README's test command does)";
  RunConfig c = make_config(small_topology(2, 4, 60), small_application(2, 5, 300, 0.3, 0.2),
                            {{"default", {{"checkpoint_period", 40}}}});
  c.options.protocol = "coordinated";
  c.options.seed = 3;
  c.options.paje_file = temp_path("paje_f.paje");
  c.options.trace_file = temp_path("paje_f.jsonl");
  c.options.trace_level = 2;
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const auto& res = r.document["results"];
  ASSERT_GT(res["failures"].get<int>(), 0);
  const PajeDump d = pj_dump_counts(c.options.paje_file);
  ASSERT_EQ(d.status, 0) << d.error;
  EXPECT_EQ(d.counts.at("Event Failure"), res["failures"].get<int>());
  EXPECT_EQ(d.counts.at("Event Rollback"), counter(r, "rollbacks"));
  EXPECT_EQ(d.counts.at("Event Checkpoint"), trace_count(c.options.trace_file, "ckpt_save"));
  EXPECT_EQ(d.counts.at("State State"), trace_count(c.options.trace_file, "state"));
  // Every message put on the wire is a link, including those lost with a failed node; those
  // lost before they left (to or from a node that was down) are not.
  EXPECT_EQ(d.counts.at("Link Message") + d.counts.at("Link Control"),
            counter(r, "app.sent") + counter(r, "app.resent") + counter(r, "ctrl.total") -
                counter(r, "net.lost_to_down") - counter(r, "net.lost_from_down"));
  EXPECT_EQ(d.counts.at("Container Node"), 8 + 1); // the coordinator
  // The JSON trace's run_start says who is where (its readers draw without the input files).
  const auto start = trace_events(c.options.trace_file, "run_start").at(0);
  EXPECT_EQ(start["cluster_names"], json::array({"c0", "c1"}));
  EXPECT_EQ(start["cluster_sizes"], json::array({4, 4}));
  EXPECT_EQ(start["hosts"].size(), 8u);
  EXPECT_EQ(start["hosts"][5], "c1-1");
  EXPECT_EQ(start["services"], json::array({"coordinator"}));
}

TEST(Paje, AnUnwritableFileIsAnInputError) {
  auto r = run_cli("run --protocol none --quiet --paje /nonexistent-folder/x.paje");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("/nonexistent-folder/x.paje"), std::string::npos) << r.out;
}

TEST(Paje, LinkFailuresAreFederationEventsAndHeldMessagesOneLinkEach) {
  ASSERT_TRUE(have_pj_dump()) << "pj_dump not found: install Debian's pajeng (the README's test command does)";
  json topo = small_topology(2, 4, INFINITY);
  topo["link_failures"] = json::parse(R"([{"link": "wan_0_1", "down": 20, "up": 60},
                                          {"link": "wan_0_1", "down": 100, "up": 130}])");
  RunConfig c = make_config(topo, small_application(2, 5, 200, 0.3, 0.2));
  c.options.paje_file = temp_path("paje_links.paje");
  c.options.trace_file = temp_path("paje_links.jsonl");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  ASSERT_GT(r.document["results"]["network"]["messages_delayed"].get<int>(), 0);
  const PajeDump d = pj_dump_counts(c.options.paje_file);
  ASSERT_EQ(d.status, 0) << d.error;
  EXPECT_EQ(d.counts.at("Event LinkFault"), 4); // two outages: down and up each
  EXPECT_EQ(d.counts.at("Event LinkFault"),
            trace_count(c.options.trace_file, "link_down") + trace_count(c.options.trace_file, "link_up"));
  // A message that waited for the link is one link from its send to its arrival.
  EXPECT_EQ(d.counts.at("Link Message"), counter(r, "app.sent"));
}
