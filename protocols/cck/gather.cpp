#include "protocols/cck/gather.hpp"

#include <algorithm>

namespace ckptsim::cck {

void Gather::send(NodeContext& ctx, std::shared_ptr<const GatherBody> own, const std::vector<NodeId>& failed) {
  own_ = std::move(own);
  const auto is_failed = [&](NodeId q) { return std::binary_search(failed.begin(), failed.end(), q); };
  // A restarted process sends to all the others, the other victims included: they restarted at
  // the same date as it did, and it gathers only after its RECOVER round trip and its load.
  const bool self_failed = is_failed(ctx.self());
  for (NodeId q = 0; q < ctx.layout().num_nodes(); q++)
    if (q != ctx.self() && (self_failed || !is_failed(q))) send_to(ctx, q);
  if (self_failed) return;
  if (failed_back_)
    for (NodeId v : failed) send_to(ctx, v);
  else
    owed_to_failed_ = true; // their new incarnations are not all running yet
}

void Gather::failed_back(NodeContext& ctx, const std::vector<NodeId>& failed) {
  failed_back_ = true;
  if (owed_to_failed_) {
    owed_to_failed_ = false;
    for (NodeId v : failed) send_to(ctx, v);
  }
}

void Gather::send_to(NodeContext& ctx, NodeId to) const {
  ctx.send_control(to, make_control(Msg::Gather, own_, kControlBytes));
}

bool Gather::keep(NodeId from, std::shared_ptr<const GatherBody> body, FailureId epoch) {
  if (body->epoch < epoch) return false;
  gathered_[body->epoch][from] = std::move(body);
  return true;
}

const Gathered* Gather::complete(FailureId epoch, int others) const {
  const auto it = gathered_.find(epoch);
  if (it == gathered_.end() || static_cast<int>(it->second.size()) < others) return nullptr;
  return &it->second;
}

std::shared_ptr<GatherBody> survivor_gather(const TaskGraph& g, NodeId self, FailureId epoch,
                                            const std::vector<NodeId>& failed, const TaskStates& states,
                                            const std::vector<bool>& in_memory) {
  auto body = std::make_shared<GatherBody>();
  body->epoch = epoch;
  body->graph = restricted_graph(g, states, self, in_memory);
  for (TaskId t : g.tasks_of(self)) {
    const Task& task = g.task(t);
    if (states[t] != TaskState::SinceCheckpoint || !std::binary_search(failed.begin(), failed.end(), task.peer))
      continue;
    if (task.kind == TaskKind::Send) body->lost.push_back(task.tag);
    if (task.kind == TaskKind::Receive) body->received_from_failed.push_back(task.tag);
  }
  return body;
}

std::shared_ptr<GatherBody> restarted_gather(const TaskGraph& g, NodeId self, FailureId epoch,
                                             const TaskStates& states) {
  auto body = std::make_shared<GatherBody>();
  body->epoch = epoch;
  body->graph = restricted_graph(g, states, self);
  return body;
}

} // namespace ckptsim::cck
