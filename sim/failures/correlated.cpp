#include "sim/failures/correlated.hpp"

#include <algorithm>

namespace ckptsim {

CorrelatedFailures::CorrelatedFailures(std::vector<std::vector<NodeId>> domains, const FailureSpec::Correlated& spec,
                                       std::uint64_t seed)
    : domains_(std::move(domains))
    , spec_(spec)
    , rng_(seed) {}

std::optional<FailureArrival> CorrelatedFailures::next() {
  if (domains_.empty()) return std::nullopt;
  clock_ += rng_.exponential(spec_.mtbf);
  const auto& d = domains_[rng_.below(domains_.size())];
  std::optional<double> repair;
  if (spec_.downtime) repair = rng_.draw(*spec_.downtime);
  return FailureArrival{clock_, d, repair, spec_.scope};
}

std::size_t Origins::count(std::uint8_t source, std::size_t delivered) const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < std::min(delivered, origins_.size()); i++) n += origins_[i] == source ? 1 : 0;
  return n;
}

CascadingFailures::CascadingFailures(std::unique_ptr<FailureSource> inner,
                                     const std::vector<std::vector<NodeId>>& domains, int nodes,
                                     const FailureSpec::Cascade& spec, std::uint64_t seed)
    : inner_(std::move(inner))
    , domains_(domains)
    , domain_of_(static_cast<std::size_t>(nodes), -1)
    , spec_(spec)
    , rng_(seed) {
  for (std::size_t d = 0; d < domains_.size(); d++)
    for (NodeId n : domains_[d]) domain_of_[n] = static_cast<int>(d);
}

std::optional<FailureArrival> CascadingFailures::next() {
  if (!peeked_ && !inner_done_) {
    peeked_ = inner_->next();
    inner_done_ = !peeked_;
  }
  if (!pending_.empty() && (!peeked_ || pending_.top().date < peeked_->date)) {
    FailureArrival a = pending_.top();
    pending_.pop();
    origins_.push(1);
    return a;
  }
  if (!peeked_) return std::nullopt;
  FailureArrival a = std::move(*peeked_);
  peeked_.reset();
  // Each neighbour of each victim, once, in node order: the draws are part of the results.
  std::vector<NodeId> neighbours;
  for (NodeId v : a.victims)
    if (v >= 0 && static_cast<std::size_t>(v) < domain_of_.size() && domain_of_[v] >= 0)
      for (NodeId u : domains_[static_cast<std::size_t>(domain_of_[v])])
        if (std::find(a.victims.begin(), a.victims.end(), u) == a.victims.end()) neighbours.push_back(u);
  std::sort(neighbours.begin(), neighbours.end());
  neighbours.erase(std::unique(neighbours.begin(), neighbours.end()), neighbours.end());
  for (NodeId u : neighbours)
    if (rng_.bernoulli(spec_.probability))
      pending_.push(FailureArrival{a.date + rng_.uniform(0, spec_.window), {u}, std::nullopt, "cascade"});
  origins_.push(0);
  return a;
}

std::optional<nlohmann::ordered_json> CascadingFailures::account(std::size_t delivered) const {
  return inner_->account(origins_.count(0, delivered));
}

MergedFailures::MergedFailures(std::vector<std::unique_ptr<FailureSource>> sources)
    : sources_(std::move(sources))
    , heads_(sources_.size()) {
  for (std::size_t i = 0; i < sources_.size(); i++) heads_[i] = sources_[i]->next();
}

std::optional<FailureArrival> MergedFailures::next() {
  std::size_t best = heads_.size();
  for (std::size_t i = 0; i < heads_.size(); i++)
    if (heads_[i] && (best == heads_.size() || heads_[i]->date < heads_[best]->date)) best = i;
  if (best == heads_.size()) return std::nullopt;
  FailureArrival a = std::move(*heads_[best]);
  heads_[best] = sources_[best]->next();
  origins_.push(static_cast<std::uint8_t>(best));
  return a;
}

std::optional<nlohmann::ordered_json> MergedFailures::account(std::size_t delivered) const {
  return sources_.front()->account(origins_.count(0, delivered));
}

} // namespace ckptsim
