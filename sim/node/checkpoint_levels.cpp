/* Saves and loads under a multi-level storage model (StorageModelInfo::save_plan, load_plan): each
 * runs its steps in order, a time on the node (a write to its local device, an encoding, a
 * decoding: a deadline of the node's loop) then transfers to or from holders, started together.
 * A save is reported complete after the step the plan says (the rest, an asynchronous flush, goes
 * on while the application runs, and the run does not end before it); a load once its last step is
 * done. Counters per level: storage.level<j>.checkpoints, .bytes, .time, .flush_time, .recoveries. */
#include "sim/node/checkpoint_transfers.hpp"

#include "sim/node/app_executor.hpp"
#include "sim/node/ports.hpp"

#include <fmt/format.h>

#include <cmath>

namespace ckptsim {

namespace {
std::string level_key(int level, const char* what) { return fmt::format("storage.level{}.{}", level, what); }
} // namespace

void CheckpointTransfers::save_staged(std::uint64_t number, double bytes, SavePlan plan) {
  env_.observe.stats.add(level_key(plan.level, "checkpoints"));
  if (env_.observe.trace.enabled(1)) {
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (const StorageStep& step : plan.steps) {
      nlohmann::ordered_json to = nlohmann::ordered_json::array();
      for (const auto& [h, b] : step.sends) to.push_back(env_.storage.holder_name(h));
      steps.push_back({{"step", step.what}, {"seconds", step.delay}, {"to", to}});
    }
    node_.trace_event(1, "ckpt_save", {{"number", number}, {"bytes", bytes}, {"level", plan.level}, {"steps", steps}});
  }
  const std::uint64_t id = ++next_staged_;
  Staged& st = staged_[id];
  st.save = true;
  st.number = number;
  st.level = plan.level;
  st.steps = std::move(plan.steps);
  st.started = sg4::Engine::get_clock();
  advance(id);
}

void CheckpointTransfers::load_staged(std::uint64_t number) {
  const std::optional<LoadPlan> plan = env_.storage.load_plan(self_, number);
  if (!plan) {
    lost_load(number);
    return;
  }
  nlohmann::ordered_json from = nlohmann::ordered_json::array();
  for (const auto& [h, b] : plan->fetches) from.push_back(env_.storage.holder_name(h));
  node_.trace_event(1, "ckpt_load", {{"number", number}, {"level", plan->level}, {"from", from}});
  const std::uint64_t id = ++next_staged_;
  Staged& st = staged_[id];
  st.save = false;
  st.number = number;
  st.level = plan->level;
  st.steps = {StorageStep{.delay = plan->delay_before, .sends = plan->fetches, .what = "read"},
              StorageStep{.delay = plan->delay_after, .what = "decode"}};
  st.started = sg4::Engine::get_clock();
  advance(id);
}

void CheckpointTransfers::advance(std::uint64_t id) {
  auto it = staged_.find(id);
  while (it != staged_.end()) {
    Staged& st = it->second;
    if (st.step == st.steps.size()) {
      staged_finished(st);
      staged_.erase(it);
      return;
    }
    const StorageStep& step = st.steps[st.step];
    if (st.phase == 0) {
      st.phase = 1;
      if (step.delay > 0) {
        st.due = sg4::Engine::get_clock() + step.delay;
        return; // fire_due goes on
      }
    }
    if (st.phase == 1) {
      if (std::isfinite(st.due)) return;
      st.phase = 2;
      for (const auto& [holder, bytes] : step.sends) {
        if (!env_.storage.holder_up(holder)) { // a partner or a group member that is down
          st.failed++;
          if (st.save) env_.observe.stats.add("storage.copies_failed");
          continue;
        }
        sg4::Host* here = env_.wire.host_of(self_);
        sg4::Host* there = env_.storage.holder_host(holder);
        st.left++;
        launch({nullptr, st.save, st.number, holder, false, st.save ? here : there, st.save ? there : here, bytes, id});
      }
      if (!st.save && st.failed > 0) { // a source went down since the plan was made: plan again
        const std::uint64_t number = st.number;
        staged_.erase(it);
        load_staged(number);
        return;
      }
    }
    if (st.left > 0) return; // settle_staged goes on
    step_done(st);
  }
}

void CheckpointTransfers::step_done(Staged& st) {
  const StorageStep& step = st.steps[st.step];
  if (step.written > 0) {
    env_.observe.stats.add("storage.bytes_local", step.written);
    env_.observe.stats.add(level_key(st.level, "bytes"), step.written);
  }
  if (st.save && step.parity && st.failed == 0) env_.storage.store().encoded(self_, st.number);
  // The save is complete after the step its plan says, else after its last one.
  if (st.save && (step.reports || st.step + 1 == st.steps.size()) && !st.reported) {
    st.reported = true;
    completed_.push_back({true, st.number});
    env_.observe.stats.add(level_key(st.level, "time"), sg4::Engine::get_clock() - st.started);
    if (st.step + 1 < st.steps.size()) { // an asynchronous flush goes on: the run waits for it
      env_.storage.replica_started();
      st.flushing = true;
      st.started = sg4::Engine::get_clock();
    }
  }
  st.step++;
  st.phase = 0;
  st.failed = 0;
}

void CheckpointTransfers::staged_finished(Staged& st) {
  if (!st.save) {
    env_.storage.store().add_copy(self_, st.number, self_); // in this node's memory again
    // A rebuild from the group re-creates the node's share of the parity too (as SCR's does).
    env_.storage.store().reencoded(self_, st.number);
    env_.observe.stats.add(level_key(st.level, "recoveries"));
    completed_.push_back({false, st.number});
    return;
  }
  if (st.flushing) { // the flush after the report ended
    env_.observe.stats.add(level_key(st.level, "flush_time"), sg4::Engine::get_clock() - st.started);
    env_.storage.replica_finished();
  }
}

void CheckpointTransfers::settle_staged(const PendingIo& io, bool ok) {
  auto it = staged_.find(io.staged);
  const auto* entry = env_.storage.store().find(self_, io.number);
  if (io.save) {
    if (ok && entry) {
      env_.observe.stats.add("storage.bytes_written", io.bytes);
      if (it != staged_.end()) env_.observe.stats.add(level_key(it->second.level, "bytes"), io.bytes);
      if (is_server(io.holder))
        env_.observe.stats.add("storage.bytes_written." + env_.storage.holder_name(io.holder), io.bytes);
      const bool parity = it != staged_.end() && it->second.steps[it->second.step].parity;
      if (!parity) env_.storage.store().add_copy(self_, io.number, io.holder);
    } else {
      env_.observe.stats.add("storage.copies_failed");
    }
  } else if (ok) {
    env_.observe.stats.add("storage.bytes_read", io.bytes);
  }
  if (it == staged_.end()) return; // the operation was dropped meanwhile
  Staged& st = it->second;
  if (!ok) st.failed++;
  if (!io.save && !ok) { // a source died during the transfer: read from what is left
    const std::uint64_t number = st.number;
    staged_.erase(it);
    load_staged(number);
    return;
  }
  if (--st.left == 0) {
    step_done(st);
    advance(io.staged);
  }
}

void CheckpointTransfers::end_staged_saves(const std::function<bool(const Staged&)>& which) {
  for (auto it = staged_.begin(); it != staged_.end();) {
    if (it->second.save && which(it->second)) {
      if (it->second.flushing) env_.storage.replica_finished();
      it = staged_.erase(it);
    } else {
      ++it;
    }
  }
}

double CheckpointTransfers::next_deadline() const {
  double next = std::numeric_limits<double>::infinity();
  for (const auto& [id, st] : staged_) next = std::min(next, st.due);
  return next;
}

void CheckpointTransfers::fire_due(double now) {
  std::vector<std::uint64_t> due;
  for (auto& [id, st] : staged_)
    if (st.due <= now + AppExecutor::kDateEpsilon) {
      st.due = std::numeric_limits<double>::infinity();
      due.push_back(id);
    }
  for (std::uint64_t id : due) advance(id);
}

} // namespace ckptsim
