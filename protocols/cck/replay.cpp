#include "protocols/cck/replay.hpp"

#include <algorithm>

namespace ckptsim::cck {

void Replay::send(NodeContext& ctx, const AppMessage& msg, PayloadPtr pb) {
  const Tag tag = static_cast<Tag>(msg.seq);
  if (withheld_.erase(tag)) // the receiver kept it: the re-executed send keeps the promise only
    ctx.record_send(msg);
  else if (resend_.erase(tag))
    ctx.resend_app(msg, std::move(pb));
  else
    ctx.send_app(msg, std::move(pb));
  promised_.erase(tag);
}

void Replay::deliver(NodeContext& ctx, const AppMessage& msg, const PayloadPtr& pb) {
  if (redeliver_.erase(static_cast<Tag>(msg.seq)))
    ctx.redeliver(msg);
  else
    ctx.deliver(msg, pb);
}

void Replay::repeat(const TaskGraph& g, const std::vector<TaskId>& redo) {
  for (TaskId t : redo) {
    const Task& task = g.task(t);
    if (task.kind == TaskKind::Send) resend_.insert(task.tag);
    if (task.kind == TaskKind::Receive) redeliver_.insert(task.tag);
  }
}

void Replay::promise(NodeContext& ctx, const TaskGraph& g, const std::vector<Tag>& received,
                     const std::vector<Tag>& total) {
  for (Tag t : received) {
    ctx.promise_send(g.communication(t).to, t);
    promised_.insert(t);
    if (!std::binary_search(total.begin(), total.end(), t)) withheld_.insert(t);
  }
}

} // namespace ckptsim::cck
