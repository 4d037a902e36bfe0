/* The "none" failure source: a failure-free run, whatever the topology's "mtbf". */
#include "sim/failures/source.hpp"

namespace ckptsim {
namespace {

class NoFailures : public FailureSource {
 public:
  std::optional<FailureArrival> next() override { return std::nullopt; }
};

const FailureSourceRegistration none_source{{
    .name = "none",
    .description = "no failure at all, whatever the topology's \"mtbf\"",
    .rank = 9,
    .make = [](const FailureSourceContext&) { return std::make_unique<NoFailures>(); },
}};

} // namespace
} // namespace ckptsim
