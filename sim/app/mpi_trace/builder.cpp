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

void RankBuilder::send(int dst, int tag, double bytes) {
  Op op;
  op.kind = Op::Kind::Send;
  op.peer = dst;
  op.amount = bytes;
  op.action = action_;
  sends_.push_back({dst, tag, static_cast<std::uint32_t>(p_.ops.size())});
  p_.ops.push_back(op);
  if (dst != rank_) p_.messages++;
}

std::uint32_t RankBuilder::post(int src, int tag, double bytes) {
  p_.recvs.push_back({src, tag, bytes, action_});
  return static_cast<std::uint32_t>(p_.recvs.size() - 1);
}

void RankBuilder::wait(const std::vector<std::uint32_t>& recvs) {
  if (recvs.empty()) return;
  Op op;
  op.kind = Op::Kind::Wait;
  op.first = static_cast<std::uint32_t>(p_.waits.size());
  op.count = static_cast<std::uint32_t>(recvs.size());
  op.action = action_;
  p_.waits.insert(p_.waits.end(), recvs.begin(), recvs.end());
  p_.ops.push_back(op);
}

void RankBuilder::wait_request(int src, int dst, int tag) {
  auto it = requests_.find({src, dst, tag});
  if (it == requests_.end()) return; // SMPI: caught by an earlier test, nothing to wait for
  std::uint32_t r = it->second.front();
  it->second.pop_front();
  if (it->second.empty()) requests_.erase(it);
  if (r != kSendRequest) wait({r}); // an eager send is complete as soon as it is posted
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
  std::vector<std::uint32_t> recvs;
  for (const auto& [key, list] : requests_)
    for (std::uint32_t r : list)
      if (r != kSendRequest) recvs.push_back(r);
  requests_.clear();
  std::sort(recvs.begin(), recvs.end());
  wait(recvs);
}

} // namespace ckptsim::mpi
