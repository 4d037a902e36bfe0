/* A set of message numbers of one sender, as the prefix [0, next) plus the members above it.
 * The oracle's settled messages of a sender join it roughly in the order they were sent (a
 * message still in flight holds the ones after it above the prefix until it settles), so it stays
 * a few integers however long the run. */
#pragma once

#include <cstdint>
#include <set>

namespace ckptsim {

class SeqSet {
 public:
  bool contains(std::uint64_t i) const { return i < next_ || above_.count(i) != 0; }
  bool empty() const { return next_ == 0 && above_.empty(); }
  void insert(std::uint64_t i) {
    if (i < next_) return;
    if (i > next_) {
      above_.insert(i);
      return;
    }
    next_++;
    for (auto it = above_.begin(); it != above_.end() && *it == next_; it = above_.erase(it)) next_++;
  }
  /** @brief Members kept one by one (above the prefix). */
  std::size_t scattered() const { return above_.size(); }

 private:
  std::uint64_t next_ = 0;
  std::set<std::uint64_t> above_;
};

} // namespace ckptsim
