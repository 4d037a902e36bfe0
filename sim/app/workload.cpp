#include "sim/app/workload.hpp"

#include "sim/app/kind.hpp"

namespace ckptsim {

std::unique_ptr<Workload> make_workload(const Application& app, const FederationLayout& layout) {
  return ApplicationKindRegistry::instance().choose(app.kind, Where(app.source) / "kind").make_workload(app, layout);
}

std::uint64_t message_digest(const AppMessage& m, std::uint64_t draw) {
  std::uint64_t h = mix_seed(static_cast<std::uint64_t>(m.src), m.seq, static_cast<std::uint64_t>(m.dst));
  return mix_seed(h, static_cast<std::uint64_t>(m.size), draw);
}

} // namespace ckptsim
