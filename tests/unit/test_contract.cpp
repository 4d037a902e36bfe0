/* What the contract offers a protocol besides its agents: the data-flow application interface
 * (sim/protocol/dataflow.hpp), which any application kind may implement and a protocol reaches
 * without naming the kind, and the storage questions (sim/protocol/storage.hpp), answered from
 * the storage models' registry. The protocols that need a graph (cck, taskgraph) refuse an
 * application without one in the words the users know, and accept any kind that has one. */
#include "sim/app/stencil/workload.hpp"
#include "sim/protocol/dataflow.hpp"
#include "sim/protocol/errors.hpp"
#include "sim/protocol/storage.hpp"
#include "sim/scenario/readers.hpp"
#include "tests/support/app_inputs.hpp"
#include "tests/support/fake_node.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace ckptsim {
namespace {

using namespace dataflow;

/** An application kind without a graph: one step of one second. */
class PlainWorkload : public Workload {
 public:
  AppStateValue initial_state(NodeId /*process*/, std::uint64_t /*seed*/) const override { return {}; }
  std::optional<double> advance(AppState& /*state*/, NodeId /*self*/,
                                std::vector<AppMessage>& /*sends*/) const override {
    return 1.0;
  }
  double failure_free_work(NodeId /*process*/) const override { return 1; }
};

/** A data-flow kind that is not the stencil: process 0 sends its datum (version 0) to process 1,
 *  which computes version 1 from it. Its state questions are never asked here. */
class PairWorkload : public PlainWorkload, public DataflowApplication {
 public:
  PairWorkload()
      : graph_(2) {
    const DataId source = graph_.add_data(0, 8, 0, 0);
    const Tag tag = graph_.add_communication(source, 1);
    graph_.add_compute(1, {graph_.communication(tag).target}, {graph_.add_data(1, 8, 0, 1)}, 0, 1);
  }
  const DataflowApplication* dataflow() const override { return this; }
  const TaskGraph& graph() const override { return graph_; }
  bool executed(const AppState& /*s*/, TaskId /*t*/) const override { return false; }
  bool received(const AppState& /*s*/, Tag /*tag*/) const override { return false; }
  void reset_tasks(AppState& /*s*/, const std::vector<TaskId>& /*tasks*/,
                   const AppState& /*checkpoint*/) const override {}

 private:
  TaskGraph graph_;
};

// Two clusters: c0 of 4 nodes (0-3) and c1 of 1 node (4), with @p storage as the topology's.
Topology contract_two_clusters(const json& storage = nullptr) {
  json t = json::parse(R"({
    "clusters": [{"name": "c0", "nodes": 4, "san": {"latency": 0, "bandwidth": 1e9}},
                 {"name": "c1", "nodes": 1, "san": {"latency": 0, "bandwidth": 1e9}}],
    "wan": [[{"latency": 0, "bandwidth": 1e9}]]})");
  if (!storage.is_null()) t["storage"] = storage;
  return parse_topology(t, "topo.json", "");
}

/** The message of the InputError @p make throws, "" when it throws none. */
template <class F>
std::string input_error_of(F make) {
  try {
    make();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(DataflowApplication, AKindWithoutAGraphHasNone) {
  const PlainWorkload plain;
  EXPECT_EQ(plain.dataflow(), nullptr);
  ProtocolSetup setup;
  EXPECT_EQ(dataflow_application(setup), nullptr); // no application at all
  setup.workload = &plain;
  EXPECT_EQ(dataflow_application(setup), nullptr);
}

TEST(DataflowApplication, TheStencilIsOneWithItsOwnGraphAndState) {
  // Jacobi 1D, 6 cells, 1 iteration, 3 processes of 2 cells: 4 border values cross (0->1, 1->0,
  // 1->2, 2->1), so 6 computes, 4 sends and 4 receives.
  const StencilWorkload stencil(test_support::stencil_app(1, 6, 1, 1), test_support::layout_of(3));
  const Workload& workload = stencil;
  ProtocolSetup setup;
  setup.workload = &workload;
  const DataflowApplication* app = dataflow_application(setup);
  ASSERT_EQ(app, workload.dataflow());
  ASSERT_NE(app, nullptr);
  EXPECT_EQ(&app->graph(), &stencil.jacobi().graph());
  EXPECT_EQ(app->graph().tasks().size(), 14u);
  EXPECT_EQ(app->graph().communications().size(), 4u);

  // Process 0 sends its border value to 1 at its first advance; process 1 has it once delivered.
  AppStateValue p0 = stencil.initial_state(0, 1);
  AppStateValue p1 = stencil.initial_state(1, 1);
  std::vector<AppMessage> sends;
  stencil.advance(*p0, 0, sends);
  ASSERT_EQ(sends.size(), 1u);
  const auto tag = static_cast<Tag>(sends[0].seq);
  const Communication& c = app->graph().communication(tag);
  EXPECT_EQ(std::make_pair(c.from, c.to), std::make_pair(0, 1));
  EXPECT_TRUE(app->executed(*p0, c.send));
  EXPECT_FALSE(app->received(*p1, tag));
  EXPECT_FALSE(app->executed(*p1, c.receive));
  stencil.deliver(*p1, sends[0]);
  EXPECT_TRUE(app->received(*p1, tag));
  EXPECT_TRUE(app->executed(*p1, c.receive));
}

TEST(DataflowApplication, ProtocolsThatNeedAGraphRefuseAKindWithoutOne) {
  const Topology topology = test_support::one_cluster(3);
  const FederationLayout layout(topology);
  const PlainWorkload plain;
  EXPECT_EQ(input_error_of([&] { test_support::make_module("cck", layout, topology, {}, &plain); }),
            "application.json: /kind: protocol \"cck\" needs a data-flow application whose task graph is known: kind "
            "\"stencil\"");
  EXPECT_EQ(input_error_of([&] { test_support::make_module("taskgraph", layout, topology, {}, &plain); }),
            "application.json: /kind: protocol \"taskgraph\" needs a data-flow application whose task graph and "
            "program-order points are known: kind \"stencil\"");
}

TEST(DataflowApplication, ProtocolsThatNeedAGraphTakeAnyKindWithOne) {
  const Topology topology = test_support::one_cluster(2);
  const FederationLayout layout(topology);
  const PairWorkload pair;
  for (const std::string protocol : {"cck", "taskgraph"}) {
    auto module = test_support::make_module(protocol, layout, topology, {}, &pair);
    ASSERT_NE(module, nullptr) << protocol;
    EXPECT_NE(module->make_agent(1, false), nullptr) << protocol;
  }
}

TEST(ContractStorage, HolderNodesAreTheNamedModelsNodes) {
  const Topology topology = contract_two_clusters();
  const FederationLayout layout(topology);
  ProtocolSetup setup;
  setup.layout = &layout;
  setup.topology = &topology;
  // buddy: the next node of the cluster, cyclically; none in a one-node cluster.
  EXPECT_EQ(storage_holder_nodes(setup, "buddy", 1, 1), std::vector<NodeId>{2});
  EXPECT_EQ(storage_holder_nodes(setup, "buddy", 3, 7), std::vector<NodeId>{0});
  EXPECT_EQ(storage_holder_nodes(setup, "buddy", 4, 1), std::vector<NodeId>{});
  // servers: copies on checkpoint servers, never on a node.
  EXPECT_EQ(storage_holder_nodes(setup, "servers", 1, 1), std::vector<NodeId>{});
  EXPECT_THROW(storage_holder_nodes(setup, "no-such-model", 1, 1), std::invalid_argument);
}

TEST(ContractStorage, DepthIsTheLargestAmongTheModelsUsed) {
  const Topology plain = contract_two_clusters();
  const Topology replicated = contract_two_clusters(json{{"model", "replicated"}, {"copies", 1}, {"depth", 3}});
  ProtocolSetup setup;
  setup.topology = &plain;
  EXPECT_EQ(storage_depth(setup, "servers"), 1);
  setup.topology = &replicated;
  EXPECT_EQ(storage_depth(setup, "servers"), 3);
}

} // namespace
} // namespace ckptsim
