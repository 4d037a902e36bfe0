/* The smallest failure source, the example of docs/ARCHITECTURE.md ("Add a failure source"):
 * nodes 0 and 1 fail together every "every" seconds (one event, two victims), "count" times
 * (0: no end). Registered by the
 * tests only, as "test-pairs": chosen by a topology's "failures": {"model": "test-pairs"}, never
 * listed. Its field is read only when chosen, so that the fields of the "failures" object every
 * other test sees stay the shipped sources' (a shipped source reads its fields in any case, to
 * refuse them where they mean nothing). */
#include "sim/failures/source.hpp"

namespace ckptsim::examples {
namespace {

struct PairsSettings {
  double every = 1;
  int count = 0;
};

class PairFailures : public FailureSource {
 public:
  explicit PairFailures(const PairsSettings& s)
      : settings_(s) {}
  std::optional<FailureArrival> next() override {
    if (settings_.count > 0 && given_ == settings_.count) return std::nullopt;
    given_++;
    return FailureArrival{settings_.every * given_, {0, 1}, std::nullopt};
  }

 private:
  PairsSettings settings_;
  int given_ = 0;
};

const FailureSourceRegistration pairs_source{{
    .name = "test-pairs",
    .description = "tests only",
    .rank = -1, // first in the registry, yet never listed
    .fields = {{"every", "seconds between two events"}, {"count", "events in all (0: no end)"}},
    .read = [](ObjectReader& r, bool chosen, const std::string&) -> std::any {
      PairsSettings s;
      if (auto* v = chosen ? r.optional("every") : nullptr)
        s.every = as_positive_quantity(*v, r.where("every"), units::Kind::Duration);
      if (auto* v = chosen ? r.optional("count") : nullptr)
        s.count = static_cast<int>(as_integer(*v, r.where("count"), 0, 1000000));
      return s;
    },
    .make =
        [](const FailureSourceContext& context) {
          return std::make_unique<PairFailures>(context.topology.failures.settings_as<PairsSettings>());
        },
}};

} // namespace
} // namespace ckptsim::examples
