#include "sim/app/mpi_trace/builder.hpp"

#include <algorithm>

namespace ckptsim::mpi {

void RankBuilder::local(Op::Kind kind, double amount, double& total) {
  if (amount <= 0) return; // nothing to simulate
  Op op;
  op.kind = kind;
  op.amount = amount;
  op.action = action_;
  p_.ops.push_back(op);
  total += amount;
}

std::uint32_t RankBuilder::send(int dst, int tag, double bytes) {
  std::uint32_t request = kComplete;
  if (dst != rank_ && bytes >= kDetachedBelow) request = kSendEntry | static_cast<std::uint32_t>(p_.messages);
  Op op;
  op.kind = Op::Kind::Send;
  op.peer = dst;
  op.amount = bytes;
  op.action = action_;
  sends_.push_back({dst, tag, static_cast<std::uint32_t>(p_.ops.size())});
  p_.ops.push_back(op);
  if (dst != rank_) p_.messages++;
  return request;
}

std::uint32_t RankBuilder::post(int src, int tag, double bytes) {
  p_.recvs.push_back({src, tag, bytes, action_, static_cast<std::uint32_t>(p_.ops.size())});
  return static_cast<std::uint32_t>(p_.recvs.size() - 1);
}

void RankBuilder::wait(const std::vector<std::uint32_t>& requests) {
  Op op;
  op.kind = Op::Kind::Wait;
  op.first = static_cast<std::uint32_t>(p_.waits.size());
  for (std::uint32_t r : requests)
    if (r != kComplete) p_.waits.push_back(r);
  op.count = static_cast<std::uint32_t>(p_.waits.size()) - op.first;
  if (op.count == 0) return;
  op.action = action_;
  p_.ops.push_back(op);
}

void RankBuilder::wait_request(int src, int dst, int tag) {
  auto it = requests_.find({src, dst, tag});
  if (it == requests_.end()) return; // SMPI: caught by an earlier test, nothing to wait for
  std::uint32_t r = it->second.front();
  it->second.pop_front();
  if (it->second.empty()) requests_.erase(it);
  wait({r});
}

void RankBuilder::test_request(int src, int dst, int tag) {
  auto it = requests_.find({src, dst, tag});
  if (it == requests_.end()) return;
  // SMPI pops the request and pushes it back, completed or not: a completed request waits for
  // nothing later, so keeping it is the same replay whatever the test's outcome was.
  std::uint32_t r = it->second.front();
  it->second.pop_front();
  it->second.push_back(r);
}

void RankBuilder::wait_all_requests() {
  std::vector<std::uint32_t> pending;
  for (const auto& [key, list] : requests_) pending.insert(pending.end(), list.begin(), list.end());
  requests_.clear();
  std::sort(pending.begin(), pending.end()); // receives in posting order, then sends in sending order
  wait(pending);
}

} // namespace ckptsim::mpi
