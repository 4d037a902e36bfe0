/* Validation of the "stencil" application file (SPEC 2.2, docs/INPUTS.md): every mistake is an
 * InputError naming the file, the JSON path and the problem, including a domain too small for the
 * federation's processes, found by the loader when the topology counts its nodes and by the
 * workload otherwise (a platform XML). */
#include "sim/app/stencil/workload.hpp"
#include "sim/config/application.hpp"
#include "sim/scenario/readers.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace ckptsim {
namespace {

// c0 (4 nodes) and c1 (2 nodes): 6 processes.
Topology stencil_topology() {
  return parse_topology(json::parse(R"({
    "clusters": [
      {"name": "c0", "nodes": 4, "san": {"latency": "10us", "bandwidth": "80MBps"}},
      {"name": "c1", "nodes": 2, "san": {"latency": "10us", "bandwidth": "80MBps"}}],
    "wan": [[{"latency": "150us", "bandwidth": "100MBps"}]]})"),
                        "topo.json", "");
}

json stencil_2d() {
  return json::parse(R"({"kind": "stencil", "dims": 2, "width": 12, "height": 8, "iterations": 10,
                         "task_cost": "10ms"})");
}

testing::AssertionResult fails_with(const std::function<void()>& f, const std::string& path, const std::string& part) {
  try {
    f();
  } catch (const InputError& e) {
    if (e.file() != "app.json" || e.path() != path || e.problem().find(part) == std::string::npos)
      return testing::AssertionFailure() << "got \"" << e.what() << "\", expected \"app.json: " << path << ": ..."
                                         << part << "...\"";
    return testing::AssertionSuccess();
  }
  return testing::AssertionFailure() << "no InputError";
}

testing::AssertionResult app_fails(const json& doc, const std::string& path, const std::string& part) {
  return fails_with([&] { parse_application(doc, "app.json", stencil_topology()); }, path, part);
}

json with(json doc, const std::string& key, const json& value) {
  doc[key] = value;
  return doc;
}
json without(json doc, const std::string& key) {
  doc.erase(key);
  return doc;
}

TEST(ConfigStencil, Valid2dFileWithItsDefaults) {
  const Application app = parse_application(stencil_2d(), "app.json", stencil_topology());
  EXPECT_EQ(app.kind, "stencil");
  const auto& s = app.spec_as<StencilSpec>();
  EXPECT_EQ(s.dims, 2);
  EXPECT_EQ(s.width, 12);
  EXPECT_EQ(s.height, 8);
  EXPECT_EQ(s.iterations, 10);
  EXPECT_DOUBLE_EQ(s.task_cost, 0.01);
  EXPECT_EQ(s.cell_bytes, 4096u);
  EXPECT_EQ(s.grid_columns, 0);
  EXPECT_FALSE(s.reorder);
  EXPECT_DOUBLE_EQ(s.task_descriptor_bytes, 1024);
  EXPECT_TRUE(app.deterministic);

  auto w = make_workload(app, FederationLayout(stencil_topology()));
  auto* stencil = dynamic_cast<StencilWorkload*>(w.get());
  ASSERT_NE(stencil, nullptr);
  EXPECT_EQ(stencil->graph().processes(), 6);
  EXPECT_EQ(stencil->jacobi().grid_columns(), 3);
}

TEST(ConfigStencil, Valid1dFileWithEveryField) {
  const Application app = parse_application(json::parse(R"({"kind": "stencil", "dims": 1, "width": 60, "iterations": 3,
        "task_cost": 2, "cell_size": "1KiB", "schedule": "reorder", "task_descriptor_size": 0,
        "deterministic": false, "comment": "x"})"),
                                            "app.json", stencil_topology());
  const auto& s = app.spec_as<StencilSpec>();
  EXPECT_EQ(s.dims, 1);
  EXPECT_EQ(s.width, 60);
  EXPECT_EQ(s.height, 1);
  EXPECT_EQ(s.cell_bytes, 1024u);
  EXPECT_TRUE(s.reorder);
  EXPECT_DOUBLE_EQ(s.task_descriptor_bytes, 0);
  EXPECT_FALSE(app.deterministic);
  const Application columns = parse_application(with(stencil_2d(), "grid_columns", 2), "app.json", stencil_topology());
  EXPECT_EQ(columns.spec_as<StencilSpec>().grid_columns, 2);
  auto w = make_workload(columns, FederationLayout(stencil_topology()));
  EXPECT_EQ(static_cast<StencilWorkload&>(*w).jacobi().grid_rows(), 3);
}

TEST(ConfigStencil, UnknownKeyKindAndMissingField) {
  EXPECT_TRUE(app_fails(with(stencil_2d(), "cells", 3), "/cells",
                        "unknown field \"cells\" (known fields here: cell_size, deterministic, dims, grid_columns, "
                        "height, iterations, kind, schedule, task_cost, task_descriptor_size, width)"));
  EXPECT_TRUE(app_fails(with(stencil_2d(), "kind", "jacobi"), "/kind",
                        "\"jacobi\" is not one of: stochastic, scripted, stencil"));
  for (const char* field : {"dims", "width", "iterations", "task_cost"})
    EXPECT_TRUE(app_fails(without(stencil_2d(), field), "", std::string("missing required field \"") + field + "\""));
  EXPECT_TRUE(app_fails(without(stencil_2d(), "height"), "", "missing required field \"height\" (required with"));
}

TEST(ConfigStencil, WrongTypesAndValues) {
  EXPECT_TRUE(app_fails(with(stencil_2d(), "dims", 3), "/dims", "must be an integer within [1, 2], found 3"));
  EXPECT_TRUE(app_fails(with(stencil_2d(), "dims", "2"), "/dims", "expected an integer, found string"));
  EXPECT_TRUE(app_fails(with(stencil_2d(), "width", 0), "/width", "must be an integer within [1, 1000000]"));
  EXPECT_TRUE(app_fails(with(stencil_2d(), "width", 12.5), "/width", "expected an integer, found 12.5"));
  EXPECT_TRUE(app_fails(with(stencil_2d(), "height", -1), "/height", "must be an integer within"));
  EXPECT_TRUE(app_fails(with(stencil_2d(), "iterations", 0), "/iterations", "must be an integer within"));
  EXPECT_TRUE(app_fails(with(stencil_2d(), "task_cost", 0), "/task_cost", "greater than zero"));
  EXPECT_TRUE(app_fails(with(stencil_2d(), "task_cost", "10MB"), "/task_cost", ""));
  EXPECT_TRUE(app_fails(with(stencil_2d(), "cell_size", "0KiB"), "/cell_size", "greater than zero"));
  EXPECT_TRUE(app_fails(with(stencil_2d(), "cell_size", "4s"), "/cell_size", ""));
  EXPECT_TRUE(app_fails(with(stencil_2d(), "task_descriptor_size", -1), "/task_descriptor_size", ">= 0"));
  EXPECT_TRUE(
      app_fails(with(stencil_2d(), "schedule", "random"), "/schedule", "\"random\" is not one of: in-order, reorder"));
  EXPECT_TRUE(app_fails(with(stencil_2d(), "grid_columns", 0), "/grid_columns", "must be an integer within"));
  EXPECT_TRUE(app_fails(with(stencil_2d(), "deterministic", "yes"), "/deterministic", "expected true or false"));
  json big = with(with(with(stencil_2d(), "width", 1000), "height", 1000), "iterations", 11);
  EXPECT_TRUE(app_fails(big, "/iterations", "1000 x 1000 cells x 11 iterations make 11000000 tasks; at most 10000000"));
  EXPECT_NO_THROW(parse_application(with(big, "iterations", 10), "app.json", stencil_topology())); // the limit itself
}

TEST(ConfigStencil, HeightAndGridColumnsAreFor2dOnly) {
  json one = json::parse(R"({"kind": "stencil", "dims": 1, "width": 12, "iterations": 1, "task_cost": 1})");
  EXPECT_TRUE(app_fails(with(one, "height", 1), "/height", "\"height\" is for \"dims\": 2 only"));
  EXPECT_TRUE(app_fails(with(one, "grid_columns", 2), "/grid_columns", "\"grid_columns\" is for \"dims\": 2 only"));
}

TEST(ConfigStencil, DomainTooSmallForTheProcesses) {
  json one = json::parse(R"({"kind": "stencil", "dims": 1, "width": 5, "iterations": 1, "task_cost": 1})");
  EXPECT_TRUE(app_fails(one, "/width",
                        "6 processes (every node of the federation) need at least one cell each: \"width\" is 5"));
  EXPECT_NO_THROW(parse_application(with(one, "width", 6), "app.json", stencil_topology()));
  EXPECT_TRUE(app_fails(with(with(stencil_2d(), "width", 2), "height", 2), "/width",
                        "no grid of 6 processes (every node of the federation) fits 2 x 2 cells"));
  EXPECT_TRUE(app_fails(with(stencil_2d(), "grid_columns", 4), "/grid_columns",
                        "6 processes (every node of the federation) do not form rows of 4"));
  EXPECT_TRUE(app_fails(with(with(stencil_2d(), "grid_columns", 6), "width", 5), "/grid_columns",
                        "6 columns of processes leave empty blocks on a width of 5 cells"));
  EXPECT_TRUE(app_fails(with(with(stencil_2d(), "grid_columns", 1), "height", 5), "/height",
                        "6 rows of 1 processes leave empty blocks on a height of 5 cells"));
}

TEST(ConfigStencil, WithAPlatformXmlTheWorkloadChecksTheDomain) {
  // With a platform XML the topology does not count the nodes: the loader cannot check, the
  // workload does once the federation is known.
  Topology t;
  t.source = "topo.json";
  ClusterSpec c;
  c.name = "c0";
  t.clusters.push_back(c);
  t.platform_xml = "p.xml";
  json one = json::parse(R"({"kind": "stencil", "dims": 1, "width": 2, "iterations": 1, "task_cost": 1})");
  const Application app = parse_application(one, "app.json", t);
  const FederationLayout three(t, {{"h0", "h1", "h2"}}, {{1e9, 1e9, 1e9}});
  EXPECT_TRUE(fails_with([&] { make_workload(app, three); }, "/width",
                         "3 processes (every node of the federation) need at least one cell each"));
  const FederationLayout two(t, {{"h0", "h1"}}, {{1e9, 1e9}});
  EXPECT_NO_THROW(make_workload(app, two));
}

} // namespace
} // namespace ckptsim
