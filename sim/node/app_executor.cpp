#include "sim/node/app_executor.hpp"

#include <algorithm>
#include <limits>

namespace ckptsim {

AppExecutor::AppExecutor(const Workload& workload, NodeId self, AppStateValue initial, double full_speed, int share)
    : workload_(workload)
    , self_(self)
    , state_(std::move(initial))
    , full_speed_(full_speed)
    , speed_(full_speed / share) {}

double AppExecutor::compute_end() const {
  if (!computing_ || paused_) return std::numeric_limits<double>::infinity();
  return accounted_at_ + state_->step_remaining / speed_;
}

bool AppExecutor::step_due(double now) const { return computing_ && !paused_ && compute_end() <= now + kDateEpsilon; }

double AppExecutor::work_done(double now) const {
  if (!state_) return 0;
  double w = state_->work_done;
  if (computing_ && !paused_) w += std::min(state_->step_remaining, (now - accounted_at_) * speed_);
  return w;
}

void AppExecutor::progress(double now) {
  if (!computing_ || paused_) return;
  const double w = std::min(state_->step_remaining, (now - accounted_at_) * speed_);
  if (w > 0) {
    state_->step_remaining -= w;
    state_->work_done += w;
  }
  accounted_at_ = now;
}

void AppExecutor::pause(double now) {
  stop_asked_ = false;
  if (paused_) return;
  progress(now);
  paused_ = true;
}

void AppExecutor::resume(double now) {
  stop_asked_ = false;
  if (!paused_) return;
  paused_ = false;
  accounted_at_ = now;
}

bool AppExecutor::stop_between_steps(double now) {
  if (paused_) return true;
  if (!computing_) {
    pause(now);
    return true;
  }
  stop_asked_ = true;
  return false;
}

bool AppExecutor::stopped_at_step_end(double now) {
  if (!stop_asked_ || computing_) return false;
  pause(now);
  return true;
}

std::optional<AppPoint> AppExecutor::take_point() {
  auto point = workload_.next_point(*state_, self_);
  if (!point || point->number <= state_->points_announced) return std::nullopt;
  state_->points_announced = point->number;
  return point;
}

bool AppExecutor::start_step(double now, std::vector<AppMessage>& sends) {
  const auto work = workload_.advance(*state_, self_, sends);
  if (work) {
    state_->step_remaining = *work;
    computing_ = true;
    accounted_at_ = now;
  } else if (!state_->finished) {
    waiting_ = true; // until the next delivery
  }
  return work.has_value();
}

void AppExecutor::finish_step(double now) {
  progress(now);
  state_->work_done += state_->step_remaining; // what rounding left of the step
  state_->step_remaining = 0;
  computing_ = false;
  workload_.complete_step(*state_, self_);
}

void AppExecutor::deliver(const AppMessage& msg) {
  workload_.deliver(*state_, msg);
  waiting_ = false;
}

void AppExecutor::send_done(std::uint64_t seq) {
  if (!state_ || std::erase(state_->unfinished, seq) == 0) return; // not awaited, or from before a restore
  waiting_ = false;
}

void AppExecutor::set_share(int processes, double now) {
  progress(now);
  speed_ = full_speed_ / processes;
}

void AppExecutor::restarted(double work_at_death) {
  paused_ = true;
  fresh_after_failure_ = true;
  work_at_death_ = work_at_death;
}

double AppExecutor::restore(const AppStateValue& s, double now) {
  progress(now);
  const double before = fresh_after_failure_ ? work_at_death_ : state_->work_done;
  const double lost = std::max(0.0, before - s->work_done);
  state_ = s;
  std::erase_if(state_->unfinished, [&](std::uint64_t seq) { // see AppState::unfinished
    return std::none_of(state_->held.begin(), state_->held.end(), [seq](const AppMessage& m) { return m.seq == seq; });
  });
  computing_ = state_->step_remaining > 0;
  waiting_ = false;
  accounted_at_ = now;
  fresh_after_failure_ = false;
  return lost;
}

std::optional<bool> AppExecutor::finished_change() {
  if (!state_ || finished() == finished_reported_) return std::nullopt;
  finished_reported_ = finished();
  return finished_reported_;
}

} // namespace ckptsim
