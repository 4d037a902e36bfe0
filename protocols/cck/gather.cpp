#include "protocols/cck/gather.hpp"

namespace ckptsim::cck {

void Gather::send(NodeContext& ctx, std::shared_ptr<const GatherBody> own, NodeId failed) {
  own_ = std::move(own);
  for (NodeId q = 0; q < ctx.layout().num_nodes(); q++)
    if (q != ctx.self() && q != failed) send_to(ctx, q);
  if (failed == ctx.self()) return;
  if (failed_back_)
    send_to(ctx, failed);
  else
    owed_to_failed_ = true; // its new incarnation is not running yet
}

void Gather::failed_back(NodeContext& ctx, NodeId failed) {
  failed_back_ = true;
  if (owed_to_failed_) {
    owed_to_failed_ = false;
    send_to(ctx, failed);
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

std::shared_ptr<GatherBody> survivor_gather(const TaskGraph& g, NodeId self, FailureId epoch, NodeId failed,
                                            const TaskStates& states, const std::vector<bool>& in_memory) {
  auto body = std::make_shared<GatherBody>();
  body->epoch = epoch;
  body->graph = restricted_graph(g, states, self, in_memory);
  for (TaskId t : g.tasks_of(self)) {
    const Task& task = g.task(t);
    if (states[t] != TaskState::SinceCheckpoint || task.peer != failed) continue;
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
