/* Who a msglog process is and how it logs: its endpoint, the number of processes, the event
 * logger's endpoint, the variant and how many checkpoints it keeps. Fixed for the whole run:
 * every part of the process reads it (process.hpp). */
#pragma once

#include "sim/protocol/layout.hpp"

#include <cstddef>
#include <cstdint>

namespace ckptsim::msglog {

enum class Variant { Pessimistic, Causal, Optimistic };

struct Options {
  Variant variant = Variant::Pessimistic;
  std::size_t keep = 3; // optimistic: checkpoints kept per process (the initial state counts as one)
};

/** @brief optimistic: epochs of one incarnation (each orphan rollback starts a new one). */
constexpr std::uint64_t kEpochStride = std::uint64_t{1} << 20;
/** @brief optimistic: the epoch of a delivery record whose sender is not known (never an orphan). */
constexpr std::uint64_t kUnknownEpoch = ~std::uint64_t{0};

// Timer ids.
constexpr int kCkptTimer = 1;
constexpr int kRestartTimer = 2;

/** @brief A process' identity and options. */
class Identity {
 public:
  Identity(const FederationLayout& layout, NodeId self, Options options)
      : self_(self)
      , nodes_(layout.num_nodes())
      , logger_(layout.num_nodes())
      , options_(options) {}

  NodeId self() const { return self_; }
  /** @brief The computing processes: endpoints 0 to nodes() - 1. */
  int nodes() const { return nodes_; }
  /** @brief The event logger service: endpoint nodes(). */
  NodeId logger() const { return logger_; }
  std::size_t keep() const { return options_.keep; }
  bool pessimistic() const { return options_.variant == Variant::Pessimistic; }
  bool causal() const { return options_.variant == Variant::Causal; }
  bool optimistic() const { return options_.variant == Variant::Optimistic; }

 private:
  const NodeId self_;
  const int nodes_;
  const NodeId logger_;
  const Options options_;
};

} // namespace ckptsim::msglog
