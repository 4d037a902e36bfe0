/* Failure logs read as published (sim/failures/lanl, sim/failures/fta, log_source): the records a
 * window, a system, a platform and the causes select from the sample files of
 * workloads/failures/, their dates from the window's start, their repair times, the mapping of log
 * nodes onto the federation, the account of every record skipped, and bad input. Dates and
 * repairs below are counted by hand from the sample files. */
#include "sim/config/input_error.hpp"
#include "sim/failures/lanl/lanl.hpp"
#include "sim/failures/source.hpp"
#include "sim/scenario/readers.hpp"

#include <gtest/gtest.h>

using namespace ckptsim;

namespace {

const std::string kDir = std::string(CKPTSIM_SOURCE_DIR) + "/workloads/failures";

// One cluster of @p nodes nodes (c0-0 ...) or two of 4 (c0-*, c1-*), with @p failures.
Topology federation(const json& failures, int nodes = 8, bool two_clusters = false) {
  json t;
  const json san = {{"latency", 0}, {"bandwidth", 1e9}};
  t["clusters"] =
      two_clusters
          ? json::array({{{"name", "c0"}, {"nodes", 4}, {"san", san}}, {{"name", "c1"}, {"nodes", 4}, {"san", san}}})
          : json::array({{{"name", "c0"}, {"nodes", nodes}, {"san", san}}});
  if (two_clusters) t["wan"] = json::array({json::array({san})});
  t["failures"] = failures;
  return parse_topology(t, "topo.json", kDir);
}

struct Arrival {
  double date;
  NodeId victim;
  double repair;
  bool operator==(const Arrival&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Arrival& a) {
  return os << "{" << a.date << ", " << a.victim << ", " << a.repair << "}";
}

// Every arrival of the topology's source, and its account once the run took them all.
std::vector<Arrival> arrivals(const Topology& t, nlohmann::ordered_json* account = nullptr) {
  FederationLayout layout(t);
  auto source = make_failure_source({t, layout, 1});
  std::vector<Arrival> out;
  while (auto a = source->next()) {
    EXPECT_EQ(a->victims.size(), 1u);
    EXPECT_TRUE(a->repair.has_value());
    out.push_back({a->date, a->victims.at(0), a->repair.value_or(-1)});
  }
  if (account) *account = source->account(out.size()).value();
  return out;
}

std::string problem_of(const json& failures) {
  try {
    federation(failures);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

constexpr double kH = 3600;

} // namespace

TEST(FailureLogs, LanlDatesAreSecondsOfTheCalendar) {
  EXPECT_EQ(parse_lanl_date("1/1/1970 0:00"), 0.0);
  EXPECT_EQ(parse_lanl_date("3/1/2003 8:00"), 1046505600.0); // date -u -d '2003-03-01 08:00' +%s
  EXPECT_EQ(parse_lanl_date("2/29/2004 23:59:30"), 1078099170.0);
  EXPECT_FALSE(parse_lanl_date("2003-03-01 08:00"));
  EXPECT_FALSE(parse_lanl_date("13/1/2003 8:00"));
  EXPECT_FALSE(parse_lanl_date("3/1/2003 8:00 PM"));
}

TEST(FailureLogs, LanlSystemReplayedFromItsFirstFailureWithItsRepairTimes) {
  nlohmann::ordered_json account;
  const auto got = arrivals(federation({{"model", "lanl"}, {"file", "lanl-sample.csv"}, {"system", 20}}), &account);
  // System 20's 8 records (2 of system 19 skipped), from 3/1/2003 8:00; nodenumz mod 8.
  const std::vector<Arrival> want = {{0, 2, 1.5 * kH},
                                     {6 * kH + 20 * 60, 0, 1800},
                                     {27 * kH + 5 * 60, 5, 600},
                                     {47 * kH + 40 * 60, 5, 12 * kH},
                                     {47 * kH + 40 * 60, 6, 12 * kH},
                                     {87 * kH + 59 * 60, 0, 300},
                                     {128 * kH + 30 * 60, 2, 1.5 * kH},
                                     {164 * kH + 15 * 60, 1, 1800}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(account["records_read"], 10);
  EXPECT_EQ(account["used"], 8);
  EXPECT_EQ(account["skipped"], (nlohmann::ordered_json{{"other system", 2}}));
  EXPECT_EQ(account["origin"], "3/1/2003 8:00");
  EXPECT_EQ(account["first_used"], "3/1/2003 8:00");
  EXPECT_EQ(account["last_used"], "3/8/2003 4:15");
}

TEST(FailureLogs, LanlCausesAndWindowSelectAndAreAccountedFor) {
  nlohmann::ordered_json account;
  auto got = arrivals(
      federation({{"model", "lanl"}, {"file", "lanl-sample.csv"}, {"system", 20}, {"causes", {"Hardware"}}}), &account);
  EXPECT_EQ(got, (std::vector<Arrival>{{0, 2, 1.5 * kH}, {128 * kH + 30 * 60, 2, 1.5 * kH}}));
  EXPECT_EQ(account["skipped"], (nlohmann::ordered_json{{"other cause", 6}, {"other system", 2}}));
  // The window's start is time 0, whether a failure happens then or not.
  got = arrivals(federation({{"model", "lanl"},
                             {"file", "lanl-sample.csv"},
                             {"system", 20},
                             {"from", "3/2/2003 0:00"},
                             {"to", "3/4/2003 0:00"}}),
                 &account);
  EXPECT_EQ(got, (std::vector<Arrival>{
                     {11 * kH + 5 * 60, 5, 600}, {31 * kH + 40 * 60, 5, 12 * kH}, {31 * kH + 40 * 60, 6, 12 * kH}}));
  EXPECT_EQ(account["skipped"], (nlohmann::ordered_json{{"other system", 2}, {"outside the window", 5}}));
  EXPECT_EQ(account["origin"], "3/2/2003 0:00");
}

TEST(FailureLogs, LogNodesMapByModuloByNameOrExplicitly) {
  nlohmann::ordered_json account;
  // Explicit: nodenumz 2 on c0-7, nodenumz 5 on c0-3; the others unmapped, skipped.
  const auto got = arrivals(
      federation(
          {{"model", "lanl"}, {"file", "lanl-sample.csv"}, {"system", 20}, {"nodes", {{"2", "c0-7"}, {"5", "c0-3"}}}}),
      &account);
  EXPECT_EQ(got, (std::vector<Arrival>{{0, 7, 1.5 * kH},
                                       {27 * kH + 5 * 60, 3, 600},
                                       {47 * kH + 40 * 60, 3, 12 * kH},
                                       {128 * kH + 30 * 60, 7, 1.5 * kH}}));
  EXPECT_EQ(account["skipped"]["unmapped node"], 4);
  // Modulo over 3 nodes: nodenumz 16 -> 1, 40 -> 1, 25 -> 1.
  const auto three = arrivals(federation({{"model", "lanl"}, {"file", "lanl-sample.csv"}, {"system", 20}}, 3));
  ASSERT_EQ(three.size(), 8u);
  EXPECT_EQ(three[1].victim, 1);
  EXPECT_EQ(three[5].victim, 1);
}

TEST(FailureLogs, FtaUnavailabilitiesOfOnePlatformByNodeName) {
  nlohmann::ordered_json account;
  const auto got = arrivals(
      federation({{"model", "fta"}, {"file", "fta-sample.tsv"}, {"platform_id", 1}, {"nodes", "by-name"}}, 0, true),
      &account);
  // Events 1, 3, 5, 6 (type 0, platform 1), from 1133706720; c1-1 is node 5, c1-3 node 7.
  EXPECT_EQ(got, (std::vector<Arrival>{{0, 0, 3600}, {7200, 5, 1800}, {18000, 7, 300}, {21600, 3, 4 * kH}}));
  EXPECT_EQ(account["records_read"], 7);
  EXPECT_EQ(account["skipped"],
            (nlohmann::ordered_json{{"not a failure (event_type 1: available)", 2}, {"other platform", 1}}));
  // A window in epoch seconds: time 0 is its start.
  const auto window = arrivals(
      federation({{"model", "fta"}, {"file", "fta-sample.tsv"}, {"from", 1133710000}, {"to", 1133720000}}, 0, true));
  EXPECT_EQ(window, (std::vector<Arrival>{{3920, 5, 1800}, {7520, 2, 3600}}));
}

TEST(FailureLogs, BadLogInputNamesTheFileAndField) {
  EXPECT_NE(
      problem_of({{"model", "lanl"}, {"file", "lanl-sample.csv"}}).find("/failures: missing required field \"system\""),
      std::string::npos);
  EXPECT_NE(problem_of({{"model", "lanl"}, {"file", "fta-sample.tsv"}, {"system", 20}})
                .find("fta-sample.tsv: line 1: no column \"System\" in the header"),
            std::string::npos);
  EXPECT_NE(problem_of({{"model", "lanl"}, {"file", "lanl-sample.csv"}, {"system", 20}, {"from", "2003-03-01"}})
                .find("/failures/from: \"2003-03-01\" is not a date of the LANL log (m/d/yyyy h:mm)"),
            std::string::npos);
  EXPECT_NE(problem_of({{"model", "lanl"}, {"file", "lanl-sample.csv"}, {"system", 20}, {"causes", {"Cosmic"}}})
                .find("/failures/causes/0"),
            std::string::npos);
  EXPECT_NE(problem_of({{"model", "lanl"}, {"file", "nowhere.csv"}, {"system", 20}}).find("cannot open"),
            std::string::npos);
  EXPECT_NE(
      problem_of({{"system", 20}}).find("/failures/system: \"system\" is only meaningful with \"model\": \"lanl\""),
      std::string::npos);
  EXPECT_NE(problem_of({{"file", "x"}}).find("/failures/file: \"file\" is only meaningful with a failure log's"),
            std::string::npos);
  EXPECT_NE(
      problem_of({{"model", "fta"}, {"file", "fta-sample.tsv"}, {"nodes", "round-robin"}}).find("/failures/nodes"),
      std::string::npos);
  // An explicit mapping onto a host the federation lacks: found when the source is made.
  const Topology t = federation({{"model", "fta"}, {"file", "fta-sample.tsv"}, {"nodes", {{"0", "c9-9"}}}});
  FederationLayout layout(t);
  try {
    make_failure_source({t, layout, 1});
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("topo.json: /failures/nodes/0: no host \"c9-9\""), std::string::npos)
        << e.what();
  }
}
