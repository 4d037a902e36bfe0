/* Network faults (issue 32): a link that fails and comes back delays messages, never loses them.
 * Hand-computed dates on 2 clusters of 2 nodes (SAN 10 us / 80 MB/s, WAN 150 us / 100 MB/s, CM02):
 * a transfer the failure cuts resumes once the link is back (what it had not sent yet, after the
 * route's latency again: TCP resends only what was not acknowledged); a message sent while
 * it is down waits for it; a message between nodes of one cluster does not notice. The same from
 * a platform XML's SimGrid availability profile, and the input errors. */
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {
constexpr double kLfEps = 1e-9;
constexpr double kLfSanLat = 10e-6, kLfSanBw = 80e6, kLfWanLat = 150e-6;
constexpr double kLfEpoch = 8; // protocol none piggybacks its 8-byte epoch on every message

// Two one-host clusters a and b (80 MB/s, no latency of their own) joined by a WAN link "wan"
// (100 MB/s, 150 us) whose SimGrid state profile is @p profile, in a fresh folder: the XML's path.
std::string profile_platform(const std::string& name, const std::string& profile) {
  const std::string dir = temp_folder(name);
  std::ofstream(dir + "/state.txt") << profile;
  std::ofstream(dir + "/platform.xml") << R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="federation" routing="Full">
    <cluster id="a" prefix="a-" suffix="" radical="0-0" speed="1Gf" bw="80MBps" lat="0us" router_id="a-router"/>
    <cluster id="b" prefix="b-" suffix="" radical="0-0" speed="1Gf" bw="80MBps" lat="0us" router_id="b-router"/>
    <link id="wan" bandwidth="100MBps" latency="150us" state_file="state.txt"/>
    <zoneRoute src="a" dst="b" gw_src="a-router" gw_dst="b-router"><link_ctn id="wan"/></zoneRoute>
  </zone>
</platform>
)";
  return dir + "/platform.xml";
}

RunConfig lf_outage(json app, const std::string& link, double down, double up, const std::string& name) {
  json topo = small_topology(2, 2, INFINITY);
  topo["link_failures"] = json::array({json{{"link", link}, {"down", down}, {"up", up}}});
  RunConfig c = make_config(topo, std::move(app));
  c.options.trace_file = temp_path(name);
  return c;
}
} // namespace

TEST(LinkFaults, ATransferTheFailureCutsResumesOnceTheLinkIsBack) {
  // 100 MB from c0-0 to c1-0 at 0: 1.25 s at the SAN's 80 MB/s after the path's 160 us of latency,
  // cut by the WAN's failure at 0.5 s; its rest leaves at 3 s, after the latency again.
  auto c = lf_outage(json::parse(R"({"kind": "scripted", "nodes": {
                         "c0-0": [{"send": "c1-0", "size": 100000000, "label": "cut"}]}})"),
                     "wan_0_1", 0.5, 3.0, "cut.jsonl");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  auto d = send_deliver_dates(c.options.trace_file);
  EXPECT_NEAR(d["cut"].first, 0.0, kLfEps);
  const double latency = kLfSanLat + kLfWanLat;
  const double rest = (1e8 + kLfEpoch) - (0.5 - latency) * kLfSanBw;     // bytes not sent at the cut
  EXPECT_NEAR(d["cut"].second, 3.0 + latency + rest / kLfSanBw, kLfEps); // 3.7503201
  const auto& res = r.document["results"];
  EXPECT_EQ(res["status"], "completed");
  EXPECT_EQ(res["consistency"]["violations"], 0);
  const auto& net = res["network"];
  EXPECT_EQ(net["link_failures"], 1);
  EXPECT_NEAR(net["links"]["wan_0_1"]["down_seconds"].get<double>(), 2.5, kLfEps);
  EXPECT_EQ(net["links"]["wan_0_1"]["outages"], 1);
  ASSERT_EQ(net["clusters_cut_off"].size(), 1u);
  EXPECT_EQ(net["clusters_cut_off"][0]["clusters"], json::parse(R"(["c0", "c1"])"));
  EXPECT_NEAR(net["clusters_cut_off"][0]["seconds"].get<double>(), 2.5, kLfEps);
  EXPECT_EQ(net["transfers_resent"], 1);
  EXPECT_EQ(net["messages_delayed"], 1);
  EXPECT_NEAR(net["message_delay_total"].get<double>(), 2.5, kLfEps); // held from the cut to the repair
  const auto down = trace_events(c.options.trace_file, "link_down");
  const auto up = trace_events(c.options.trace_file, "link_up");
  ASSERT_EQ(down.size(), 1u);
  ASSERT_EQ(up.size(), 1u);
  EXPECT_EQ(down[0]["link"], "wan_0_1");
  EXPECT_NEAR(down[0]["t"].get<double>(), 0.5, kLfEps);
  EXPECT_NEAR(up[0]["t"].get<double>(), 3.0, kLfEps);
  EXPECT_NEAR(up[0]["down"].get<double>(), 2.5, kLfEps);
}

TEST(LinkFaults, AMessageSentWhileTheLinkIsDownWaitsForItAndALocalOneDoesNot) {
  // At 1 s, while the WAN is down (0.5 to 3 s): c0-0 sends 1000 bytes to c1-0 (held until 3 s)
  // and c0-1 1000 bytes to c0-0 (the SAN: no delay).
  auto c = lf_outage(json::parse(R"({"kind": "scripted", "nodes": {
                         "c0-0": [{"compute": "1s"}, {"send": "c1-0", "size": 1000, "label": "held"}],
                         "c0-1": [{"compute": "1s"}, {"send": "c0-0", "size": 1000, "label": "local"}]}})"),
                     "wan_0_1", 0.5, 3.0, "held.jsonl");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  auto d = send_deliver_dates(c.options.trace_file);
  EXPECT_NEAR(d["held"].first, 1.0, kLfEps);
  EXPECT_NEAR(d["held"].second, 3.0 + kLfSanLat + kLfWanLat + (1000 + kLfEpoch) / kLfSanBw, kLfEps);
  EXPECT_NEAR(d["local"].second, 1.0 + kLfSanLat + (1000 + kLfEpoch) / kLfSanBw, kLfEps);
  const auto& net = r.document["results"]["network"];
  EXPECT_EQ(net["transfers_resent"], 0);
  EXPECT_EQ(net["messages_delayed"], 1);
  EXPECT_NEAR(net["message_delay_total"].get<double>(), 2.0, kLfEps);
  EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);
}

TEST(LinkFaults, OverlappingOutagesOfOneLinkKeepItDownUntilTheLastEnds) {
  // Two scripted outages, 0.5-2 s and 1-3 s: one outage of the link, 0.5 to 3 s.
  json topo = small_topology(2, 2, INFINITY);
  topo["link_failures"] = json::parse(R"([{"link": "wan_0_1", "down": 0.5, "up": 2},
                                          {"link": "wan_0_1", "down": 1, "up": 3}])");
  RunConfig c = make_config(topo, json::parse(R"({"kind": "scripted", "nodes": {
                              "c0-0": [{"compute": "1.5s"}, {"send": "c1-0", "size": 1000, "label": "m"}]}})"));
  c.options.trace_file = temp_path("overlap.jsonl");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_NEAR(send_deliver_dates(c.options.trace_file)["m"].second,
              3.0 + kLfSanLat + kLfWanLat + (1000 + kLfEpoch) / kLfSanBw, kLfEps);
  EXPECT_EQ(trace_events(c.options.trace_file, "link_down").size(), 1u);
  EXPECT_NEAR(r.document["results"]["network"]["links"]["wan_0_1"]["down_seconds"].get<double>(), 2.5, kLfEps);
}

TEST(LinkFaults, AnAvailabilityProfileOfAPlatformXmlLinkActsAsAScriptedOutage) {
  // Two one-host clusters joined by a WAN whose state profile downs it from 0.5 s to 3 s. Without
  // a transfer using the link when it comes back, SimGrid would apply the profile's event in
  // passing and the held message would leave only at the next activity's end (never, here).
  const std::string xml = profile_platform("xml-profile", "0.5 0\n3 1\n");
  json topo{{"platform", xml}, {"mtbf", "inf"}};
  RunConfig c = make_config(topo, json::parse(R"({"kind": "scripted", "nodes": {
                              "a-0": [{"send": "b-0", "size": 100000000, "label": "cut"},
                                      {"compute": "1s"}, {"send": "b-0", "size": 1000, "label": "held"}]}})"));
  c.options.trace_file = temp_path("xml-profile.jsonl");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  auto d = send_deliver_dates(c.options.trace_file);
  // Both leave at 3 s (the big one's rest, the small one whole) and share the path: the small one
  // ends first, FIFO holds it for the big one.
  const double rest = (1e8 + kLfEpoch) - (0.5 - kLfWanLat) * kLfSanBw;
  EXPECT_NEAR(d["cut"].second, 3.0 + kLfWanLat + (rest + 1000 + kLfEpoch) / kLfSanBw, kLfEps); // 3.7503127
  EXPECT_NEAR(d["held"].second, d["cut"].second, kLfEps);
  const auto& net = r.document["results"]["network"];
  EXPECT_EQ(net["link_failures"], 1);
  EXPECT_NEAR(net["links"]["wan"]["down_seconds"].get<double>(), 2.5, kLfEps);
  EXPECT_EQ(net["transfers_resent"], 1);
  EXPECT_EQ(net["messages_delayed"], 2);
  EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);

  // A profile SimGrid could not open is an input error naming it, not an abort.
  std::filesystem::remove(std::filesystem::path(xml).parent_path() / "state.txt");
  auto missing = run_in_child(c);
  EXPECT_EQ(missing.exit_status, 2);
  EXPECT_NE(missing.error.find("state_file: cannot open profile \"state.txt\""), std::string::npos) << missing.error;
}

TEST(LinkFaults, WithoutLinkFailuresTheResultsHaveNoNetworkSection) {
  RunConfig c = make_config(small_topology(2, 2, INFINITY), json::parse(R"({"kind": "scripted", "nodes": {
                              "c0-0": [{"send": "c1-0", "size": 1000}]}})"));
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_FALSE(r.document["results"].contains("network"));
}

TEST(LinkFaults, BadLinkFailuresAreInputErrorsNamingTheField) {
  struct Case {
    json entry;
    std::string message;
  };
  const std::vector<Case> cases{
      {json::parse(R"({"link": "wan_9_9", "down": 1, "up": 2})"), "/link_failures/0/link: no link \"wan_9_9\""},
      {json::parse(R"({"link": "wan_0_1", "down": 2, "up": 2})"), "/link_failures/0/up: the link comes back after"},
      {json::parse(R"({"scope": "wan", "link": "wan_0_1", "mtbf": 1, "downtime": 1})"), "not both nor neither"},
      {json::parse(R"({"scope": "lan", "mtbf": 1, "downtime": 1})"), "/link_failures/0/scope"},
      {json::parse(R"({"scope": "wan", "mtbf": 0, "downtime": 1})"), "/link_failures/0/mtbf"},
      {json::parse(R"({"scope": "wan", "mtbf": 10})"), "/link_failures/0: missing required field \"downtime\""},
      {json::parse(R"({"link": "wan_0_1", "down": 1, "up": 2, "mtbf": 3})"), "/link_failures/0/mtbf"},
  };
  for (const auto& k : cases) {
    json topo = small_topology(2, 2, INFINITY);
    topo["link_failures"] = json::array({k.entry});
    auto r =
        run_in_child(make_config(topo, json::parse(R"({"kind": "scripted", "nodes": {"c0-0": [{"compute": "1s"}]}})")));
    EXPECT_EQ(r.exit_status, 2) << k.entry.dump();
    EXPECT_NE(r.error.find(k.message), std::string::npos) << k.entry.dump() << ": " << r.error;
  }
  json one = small_topology(1, 2, INFINITY);
  one["link_failures"] = json::parse(R"([{"scope": "wan", "mtbf": 10, "downtime": 1}])");
  auto r =
      run_in_child(make_config(one, json::parse(R"({"kind": "scripted", "nodes": {"c0-0": [{"compute": "1s"}]}})")));
  EXPECT_EQ(r.exit_status, 2);
  EXPECT_NE(r.error.find("/link_failures/0/scope: the platform has no wan link to fail"), std::string::npos) << r.error;
}

TEST(LinkFaults, AnOutageLongerThanTheStallLimitIsWaitedForWhenItsRepairIsScheduled) {
  // The WAN is down from 0.5 s to 500 s, the watchdog's limit is 100 s: the engine knows the link
  // comes back (its own pending event), so the wait is not idleness.
  auto c = lf_outage(json::parse(R"({"kind": "scripted", "nodes": {
                       "c0-0": [{"compute": "1s"}, {"send": "c1-0", "size": 1000, "label": "m"}]}})"),
                     "wan_0_1", 0.5, 500.0, "long.jsonl");
  c.options.stall_limit = 100;
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  EXPECT_EQ(r.document["results"]["status"], "completed");
  EXPECT_NEAR(send_deliver_dates(c.options.trace_file)["m"].second,
              500.0 + kLfSanLat + kLfWanLat + (1000 + kLfEpoch) / kLfSanBw, kLfEps);
}

TEST(LinkFaults, ALinkThatNeverComesBackEndsTheRunAsStuckNamingIt) {
  // A platform XML's profile takes the WAN down at 0.5 s for good: the message sent at 1 s waits
  // for a route forever, and the watchdog ends the run after its limit (here 100 s) of idleness.
  const std::string xml = profile_platform("xml-forever", "0.5 0\n");
  RunConfig c = make_config(json{{"platform", xml}, {"mtbf", "inf"}}, json::parse(R"({"kind": "scripted", "nodes": {
                              "a-0": [{"compute": "1s"}, {"send": "b-0", "size": 1000}]}})"));
  c.options.stall_limit = 100;
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const std::string status = r.document["results"]["status"];
  EXPECT_EQ(status.rfind("stuck:", 0), 0u) << status;
  EXPECT_NE(status.find("1 of them wait for a route (wan down since 0.5 s)"), std::string::npos) << status;
  EXPECT_NEAR(r.document["results"]["network"]["links"]["wan"]["down_seconds"].get<double>(), 100.5, 1e-6);
}

TEST(LinkFaults, TheSummarySaysWhatTheLinkFailuresDid) {
  // The default scenario, its WAN down from 10 to 15 min, cut to 1 h: one link failure, the two
  // clusters cut off 5 min.
  const auto o = run_cli("run --end 1h --set 'topology/link_failures=[{\"link\": \"wan_0_1\", \"down\": \"10min\", "
                         "\"up\": \"15min\"}]'");
  EXPECT_EQ(o.status, 0) << o.out;
  EXPECT_NE(o.out.find("network faults     1 link failures, clusters cut off 300 s (pairs summed)"), std::string::npos)
      << o.out;
}

TEST(LinkFaults, AFailureLogLineWithADurationIsAnOutageOfTheLinkItNames) {
  // "<date> <link> <duration>" in a trace failure log: wan_0_1 down from 2 s to 4.5 s, next to a
  // node failure of the same log; the link's name is checked against the platform (line named).
  json topo = small_topology(2, 2, INFINITY);
  const std::string log = temp_path("link-log.txt");
  std::ofstream(log) << "1 c0-1\n2 wan_0_1 2.5s   # the WAN\n";
  topo["failures"] = {{"model", "trace"}, {"trace", log}, {"downtime", 0.5}};
  RunConfig c = make_config(topo, json::parse(R"({"kind": "scripted", "nodes": {
                                "c0-0": [{"compute": 2.2}, {"send": "c1-0", "size": 1000, "label": "late"}]}})"));
  c.options.trace_file = temp_path("link-log.jsonl");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const auto& res = r.document["results"];
  EXPECT_EQ(res["status"], "completed");
  EXPECT_EQ(res["failures"], 1);
  EXPECT_EQ(res["failure_log"]["used"], 1);
  EXPECT_EQ(res["network"]["links"]["wan_0_1"]["outages"], 1);
  EXPECT_NEAR(res["network"]["links"]["wan_0_1"]["down_seconds"].get<double>(), 2.5, kLfEps);
  const auto down = trace_events(c.options.trace_file, "link_down");
  const auto up = trace_events(c.options.trace_file, "link_up");
  ASSERT_EQ(down.size(), 1u);
  ASSERT_EQ(up.size(), 1u);
  EXPECT_NEAR(down[0]["t"].get<double>(), 2.0, kLfEps);
  EXPECT_NEAR(up[0]["t"].get<double>(), 4.5, kLfEps);
  EXPECT_GE(send_deliver_dates(c.options.trace_file)["late"].second, 4.5); // sent at 2.2 s: waited for the WAN

  std::ofstream(log) << "2 wan_9_1 2.5s\n";
  auto bad = run_in_child(c);
  EXPECT_EQ(bad.exit_status, 2);
  EXPECT_NE(bad.error.find(log + ": line 1: no link \"wan_9_1\""), std::string::npos) << bad.error;
}

TEST(LinkFaults, APublishedLogsNodeMappedOntoALinkGivesThatLinksOutages) {
  // LANL system 20 of the sample: nodenumz 2 onto c0-1 (failures at 0 and 128.5 h), nodenumz 5
  // onto the WAN ({"link": "wan_0_1"}): its two records, 3/2 11:05 for 10 min and 3/3 7:40 for
  // 12 h, are outages of the link at 27 h 5 min and 47 h 40 min after the log's first failure.
  json topo = small_topology(2, 2, INFINITY);
  topo["failures"] = {{"model", "lanl"},
                      {"file", std::string(CKPTSIM_SOURCE_DIR) + "/workloads/failures/lanl-sample.csv"},
                      {"system", 20},
                      {"nodes", {{"2", "c0-1"}, {"5", {{"link", "wan_0_1"}}}}}};
  RunConfig c = make_config(topo, small_application(2, 100, 10 * 86400.0, 0.2, 0.2));
  c.options.protocol = "none";
  c.options.end_date = 6 * 86400.0;
  c.options.stall_limit = INFINITY;
  c.options.trace_file = temp_path("lanl-link.jsonl");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  const auto& res = r.document["results"];
  EXPECT_EQ(res["failure_log"]["used"], 2);
  EXPECT_EQ(res["failure_log"]["link_outages"], 2);
  EXPECT_EQ(res["failure_log"]["skipped"], (json{{"other system", 2}, {"unmapped node", 4}}));
  EXPECT_EQ(res["network"]["links"]["wan_0_1"]["outages"], 2);
  EXPECT_NEAR(res["network"]["links"]["wan_0_1"]["down_seconds"].get<double>(), 600 + 12 * 3600.0, kLfEps);
  const auto down = trace_events(c.options.trace_file, "link_down");
  ASSERT_EQ(down.size(), 2u);
  EXPECT_NEAR(down[0]["t"].get<double>(), 27 * 3600.0 + 300, kLfEps);
  EXPECT_NEAR(down[1]["t"].get<double>(), 47 * 3600.0 + 2400, kLfEps);

  topo["failures"]["nodes"]["5"] = {{"link", "nowhere"}};
  RunConfig bad = make_config(topo, small_application(2, 100, 10 * 86400.0, 0.2, 0.2));
  auto b = run_in_child(bad);
  EXPECT_EQ(b.exit_status, 2);
  EXPECT_NE(b.error.find("/failures/nodes/5/link: no link \"nowhere\""), std::string::npos) << b.error;
}
