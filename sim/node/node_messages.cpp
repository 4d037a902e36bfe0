/* NodeRuntime's messages: what it sends (application messages, replays, control messages) and
 * what it receives, with what each counts in the statistics, shows in the trace and records in
 * the consistency oracle; the envelopes themselves travel through the Outbox and the engine's wire (WirePort). */
#include "sim/node/node_runtime.hpp"
#include "sim/node/ports.hpp"

namespace ckptsim {

nlohmann::ordered_json message_fields(const AppMessage& m, const PayloadPtr& piggyback) {
  nlohmann::ordered_json j{
      {"msg", std::to_string(m.src) + "#" + std::to_string(m.seq)}, {"src", m.src}, {"dst", m.dst}, {"size", m.size}};
  if (!m.label.empty()) j["label"] = m.label;
  if (piggyback) j["piggyback"] = piggyback->to_json();
  return j;
}

void NodeRuntime::send_app(const AppMessage& msg, PayloadPtr piggyback) {
  env_.observe.oracle.on_send(id_, msg.seq, msg.dst, msg.digest);
  const std::uint64_t awaited = msg.awaited ? msg.seq : Outbox::kNotAwaited;
  // Lost at once (an end of the sender or receiver): the application waits for nothing more.
  if (!post_app(msg, std::move(piggyback), "app.sent", "app.messages", 1, "app_send", awaited) &&
      awaited != Outbox::kNotAwaited)
    send_done(awaited);
}

void NodeRuntime::resend_app(const AppMessage& msg, PayloadPtr piggyback) {
  // A replay re-sends a message whose send is already in the kept history: no oracle record.
  post_app(msg, std::move(piggyback), "app.resent", "app.replays", 0, "replay");
}

bool NodeRuntime::post_app(const AppMessage& msg, PayloadPtr piggyback, const char* counter, const char* matrix,
                           int trace_level, const char* event, std::uint64_t awaited) {
  Stats& st = env_.observe.stats;
  st.add(counter);
  st.add_matrix(matrix, cluster_, env_.inputs.layout.cluster_of(msg.dst));
  if (env_.observe.trace.enabled(trace_level)) trace_event(trace_level, event, message_fields(msg, piggyback));
  auto env = std::make_unique<Envelope>();
  env->kind = Envelope::Kind::App;
  env->dst = msg.dst;
  env->bytes = msg.size + (piggyback ? piggyback->bytes() : 0);
  env->app = msg;
  env->piggyback = std::move(piggyback);
  return outbox_.post(std::move(env), awaited);
}

void NodeRuntime::record_send(const AppMessage& msg) {
  env_.observe.oracle.on_send(id_, msg.seq, msg.dst, msg.digest);
  env_.observe.stats.add("app.send_withheld");
  if (env_.observe.trace.enabled(1)) trace_event(1, "app_send_withheld", message_fields(msg));
}

void NodeRuntime::promise_send(NodeId dst, std::uint64_t seq) { env_.observe.oracle.promise(id_, seq, dst); }

void NodeRuntime::send_control(NodeId to, ControlMessage msg) {
  Stats& st = env_.observe.stats;
  st.add("ctrl.total");
  st.add("ctrl." + msg.type);
  const bool wan = !service_ && to < env_.inputs.layout.num_nodes() && env_.inputs.layout.cluster_of(to) != cluster_;
  if (wan) st.add("ctrl.wan");
  if (env_.observe.trace.enabled(2)) {
    nlohmann::ordered_json j{{"type", msg.type}, {"to", to}};
    if (msg.body) j["body"] = msg.body->to_json();
    trace_event(2, "ctrl_send", j);
  }
  auto env = std::make_unique<Envelope>();
  env->kind = Envelope::Kind::Control;
  env->dst = to;
  env->bytes = msg.bytes + (msg.body ? msg.body->bytes() : 0);
  env->control = std::move(msg);
  outbox_.post(std::move(env));
}

void NodeRuntime::handle(std::unique_ptr<Envelope> env) {
  if (!env) return;
  if (env->kind == Envelope::Kind::Signal) {
    handle_signal(*env);
    return;
  }
  for (auto& e : env_.wire.channel_accept(id_, inc_, std::move(env))) {
    if (e->kind == Envelope::Kind::App) {
      if (env_.observe.trace.enabled(2)) trace_event(2, "app_receive", message_fields(e->app, e->piggyback));
      agent_->on_app_receive(*this, e->app, e->piggyback);
    } else {
      if (env_.observe.trace.enabled(2)) {
        nlohmann::ordered_json j{{"type", e->control.type}, {"from", e->src}};
        if (e->control.body) j["body"] = e->control.body->to_json();
        trace_event(2, "ctrl_receive", j);
      }
      agent_->on_control(*this, e->src, e->control);
    }
  }
}

void NodeRuntime::deliver(const AppMessage& msg, const PayloadPtr& piggyback) {
  env_.observe.oracle.on_deliver(id_, msg.src, msg.seq, msg.digest);
  app_.deliver(msg);
  env_.observe.stats.add("app.delivered");
  env_.lifecycle.note_progress(id_, app_.state()->work_done, app_.state()->delivered);
  if (env_.observe.trace.enabled(1)) trace_event(1, "app_deliver", message_fields(msg, piggyback));
}

void NodeRuntime::redeliver(const AppMessage& msg) {
  env_.observe.oracle.on_redeliver(id_, msg.src, msg.seq, msg.digest);
  app_.deliver(msg);
  env_.observe.stats.add("app.redelivered");
  if (env_.observe.trace.enabled(1)) trace_event(1, "app_redeliver", message_fields(msg));
}

} // namespace ckptsim
