/* Correlated failures (the topology's "failures": "correlated" and "cascade"): sources of
 * failures that strike a whole domain at once, the cascade that follows a node's failure with
 * failures of its neighbours, and the merge of several sources into one stream in date order. */
#pragma once

#include "sim/app/rng.hpp"
#include "sim/failures/source.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <vector>

namespace ckptsim {

/** @brief Events of one scope: exponential gaps of mean @p mtbf, each striking every node of one
 *  of @p domains drawn uniformly, down for a draw of @p downtime (none: the topology's). */
class CorrelatedFailures : public FailureSource {
 public:
  CorrelatedFailures(std::vector<std::vector<NodeId>> domains, const FailureSpec::Correlated& spec, std::uint64_t seed);
  std::optional<FailureArrival> next() override;

 private:
  std::vector<std::vector<NodeId>> domains_;
  FailureSpec::Correlated spec_;
  Rng rng_;
  double clock_ = 0;
};

/** @brief Which events a merged stream took from which source, to account for a log's. */
class Origins {
 public:
  void push(std::uint8_t source) { origins_.push_back(source); }
  /** @brief How many of the first @p delivered events came from @p source. */
  std::size_t count(std::uint8_t source, std::size_t delivered) const;

 private:
  std::vector<std::uint8_t> origins_;
};

/** @brief @p inner's events, each followed, for every other node of its victims' domains (of the
 *  cascade's scope), by a failure of that node within the window with the cascade's probability
 *  (scope "cascade"; a cascade's failures start none of their own). */
class CascadingFailures : public FailureSource {
 public:
  CascadingFailures(std::unique_ptr<FailureSource> inner, const std::vector<std::vector<NodeId>>& domains, int nodes,
                    const FailureSpec::Cascade& spec, std::uint64_t seed);
  std::optional<FailureArrival> next() override;
  std::optional<nlohmann::ordered_json> account(std::size_t delivered) const override;

 private:
  struct Later {
    bool operator()(const FailureArrival& a, const FailureArrival& b) const { return a.date > b.date; }
  };
  std::unique_ptr<FailureSource> inner_;
  std::optional<FailureArrival> peeked_;
  bool inner_done_ = false;
  std::vector<std::vector<NodeId>> domains_;
  std::vector<int> domain_of_; // per node, -1: in none
  FailureSpec::Cascade spec_;
  Rng rng_;
  std::priority_queue<FailureArrival, std::vector<FailureArrival>, Later> pending_;
  Origins origins_;
};

/** @brief Several sources as one stream in date order (at equal dates, the first source first). */
class MergedFailures : public FailureSource {
 public:
  explicit MergedFailures(std::vector<std::unique_ptr<FailureSource>> sources);
  std::optional<FailureArrival> next() override;
  /** @brief The first source's account (the log's, when it replays one). */
  std::optional<nlohmann::ordered_json> account(std::size_t delivered) const override;

 private:
  std::vector<std::unique_ptr<FailureSource>> sources_;
  std::vector<std::optional<FailureArrival>> heads_;
  Origins origins_;
};

} // namespace ckptsim
