/* Message times on a 2-cluster platform (CM02): a SAN message takes SAN latency + size / SAN
 * bandwidth, a WAN message SAN latency + WAN latency + size / min(SAN, WAN bandwidth); and a
 * small message sent after a large one on the same channel is delivered after it (FIFO). */
#include "tests/support/results.hpp"
#include "tests/support/sim_child.hpp"

#include <gtest/gtest.h>

#include <map>

using namespace ckptsim;
using namespace ckptsim::test_support;

namespace {
constexpr double kDateEps = 1e-9;
constexpr double kSanLat = 10e-6, kSanBw = 80e6, kWanLat = 150e-6;
// Protocol none piggybacks its 8-byte epoch on every application message.
constexpr double kBytes = 1e6 + 8;

json script() {
  // c0-0: a 1 MB SAN message at 0, a 1 MB WAN message at 1 s, then at 2 s a 1 MB message
  // followed at once by a 1000-byte one on the same channel.
  return json::parse(R"({
    "kind": "scripted",
    "nodes": {
      "c0-0": [
        {"send": "c0-1", "size": 1000000, "label": "san"},
        {"compute": "1s"},
        {"send": "c1-0", "size": 1000000, "label": "wan"},
        {"compute": "1s"},
        {"send": "c0-1", "size": 1000000, "label": "big"},
        {"send": "c0-1", "size": 1000, "label": "small"}
      ]
    }
  })");
}

std::vector<std::string> delivery_order(const std::string& trace) {
  std::vector<std::string> order;
  for (const auto& ev : read_trace(trace))
    if (ev["ev"] == "app_deliver") order.push_back(ev["label"]);
  return order;
}
} // namespace

TEST(Network, MessageTimesAreLatencyPlusSizeOverBandwidth) {
  RunConfig c = make_config(small_topology(2, 2, INFINITY), script());
  c.options.trace_file = temp_path("net.jsonl");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  auto d = send_deliver_dates(c.options.trace_file);
  EXPECT_NEAR(d["san"].first, 0.0, kDateEps);
  EXPECT_NEAR(d["san"].second, kSanLat + kBytes / kSanBw, kDateEps); // 0.0125101
  EXPECT_NEAR(d["wan"].first, 1.0, kDateEps);
  // The path crosses the sender's SAN link, the WAN and the receiver's SAN link: the SAN's
  // 80 MB/s is the bottleneck of the 100 MB/s WAN.
  EXPECT_NEAR(d["wan"].second - d["wan"].first, kSanLat + kWanLat + kBytes / kSanBw, kDateEps); // 0.0126601
}

TEST(Network, LaterSmallerMessageArrivesAfterTheLargerOne) {
  RunConfig c = make_config(small_topology(2, 2, INFINITY), script());
  c.options.trace_file = temp_path("fifo.jsonl");
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  auto order = delivery_order(c.options.trace_file);
  EXPECT_EQ(order, (std::vector<std::string>{"san", "wan", "big", "small"}));
  auto d = send_deliver_dates(c.options.trace_file);
  // Alone, the small message would take 22.5 us; it overtook the large one on the network and
  // waited for it in the channel, so both are delivered at the same date.
  EXPECT_GT(d["big"].second - d["big"].first, 0.0125);
  EXPECT_NEAR(d["small"].second, d["big"].second, kDateEps);
  EXPECT_EQ(r.document["results"]["consistency"]["violations"], 0);
}

TEST(Network, Lv08IsSlowerThanCm02) {
  RunConfig c = make_config(small_topology(2, 2, INFINITY), script());
  c.options.trace_file = temp_path("lv08.jsonl");
  c.options.network_model = "LV08";
  auto r = run_in_child(c);
  ASSERT_EQ(r.exit_status, 0) << r.error;
  auto d = send_deliver_dates(c.options.trace_file);
  // LV08 multiplies latencies by 13.01 and caps throughput at 97 % of the bandwidth.
  EXPECT_NEAR(d["san"].second, 13.01 * kSanLat + kBytes / (0.97 * kSanBw), 1e-6);
}
