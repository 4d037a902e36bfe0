/* The smallest application kind, the example of docs/ARCHITECTURE.md ("Add an application
 * kind"): every process computes "work" seconds in one step, exchanges no message and finishes.
 * Registered by the tests only, as "test-tiny": usable in an application file's "kind", never
 * listed (names "test-..." are the tests'). */
#include "sim/app/kind.hpp"

namespace ckptsim::examples {
namespace {

struct TinySpec {
  double work = 1;
};

class TinyWorkload : public Workload {
 public:
  explicit TinyWorkload(const Application& app)
      : work_(app.spec_as<TinySpec>().work) {}
  AppStateValue initial_state(NodeId, std::uint64_t) const override {
    return AppStateValue(std::make_unique<TinyState>());
  }
  // One step of all the work, then finished.
  std::optional<double> advance(AppState& s, NodeId, std::vector<AppMessage>&) const override {
    if (s.work_done >= work_) {
      s.finished = true;
      return std::nullopt;
    }
    return work_;
  }
  double failure_free_work(NodeId) const override { return work_; }

 private:
  class TinyState : public AppState {
   public:
    std::unique_ptr<AppState> clone() const override { return std::make_unique<TinyState>(*this); }
  };
  double work_;
};

const ApplicationKindRegistration tiny_kind{{
    .name = "test-tiny",
    .description = "tests only",
    .rank = -1, // first in the registry, yet never listed
    .fields = {{"work", "seconds of each process"}},
    .parse =
        [](ObjectReader& r, Application& app, const Topology&) {
          TinySpec& spec = app.spec.emplace<TinySpec>();
          if (auto* v = r.optional("work"))
            spec.work = as_positive_quantity(*v, r.where("work"), units::Kind::Duration);
        },
    .make_workload = [](const Application& app,
                        const FederationLayout&) { return std::make_unique<TinyWorkload>(app); },
}};

} // namespace
} // namespace ckptsim::examples
