#include "protocols/taskgraph/points.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace ckptsim::taskgraph {

bool checkpoint_point(std::uint64_t point, std::uint64_t interval) {
  if (interval == 0) throw std::invalid_argument("taskgraph: a checkpoint interval of 0 iterations");
  return point >= 2 && (point - 1) % interval == 0;
}

Points::Points(const dataflow::TaskGraph& g)
    : g_(g) {
  const auto processes = static_cast<std::size_t>(g.processes());
  in_.resize(processes);
  out_.resize(processes);
  version_.reserve(g.communications().size());
  int last = 0;
  for (const dataflow::Communication& c : g.communications()) {
    const int v = g.datum(c.source).version;
    // The suffix searches below need versions in tag order: true of the Jacobi graph, whose
    // construction adds the communications of version k before those of k + 1.
    if (v < 0 || v < last) throw std::invalid_argument("taskgraph: communications are not in version order");
    last = v;
    version_.push_back(v);
    in_[static_cast<std::size_t>(c.to)].push_back(c.tag);
    out_[static_cast<std::size_t>(c.from)].push_back(c.tag);
  }
}

std::size_t Points::first_uncovered(const std::vector<Tag>& tags, std::uint64_t point) const {
  auto it = std::partition_point(tags.begin(), tags.end(), [&](Tag t) { return covered(t, point); });
  return static_cast<std::size_t>(it - tags.begin());
}

std::vector<int> Points::peers_after(int p, std::uint64_t point) const {
  std::set<int> peers;
  const auto& in = incoming(p);
  for (std::size_t i = first_uncovered(in, point); i < in.size(); i++) peers.insert(g_.communication(in[i]).from);
  const auto& out = outgoing(p);
  for (std::size_t i = first_uncovered(out, point); i < out.size(); i++) peers.insert(g_.communication(out[i]).to);
  return {peers.begin(), peers.end()};
}

} // namespace ckptsim::taskgraph
