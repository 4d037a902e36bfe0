/* A set of indices, kept as the prefix [0, next) plus the members above it: the messages of one
 * channel a receiver has delivered, or a sender has sent (protocols); the numbers of a sender's
 * messages the consistency oracle has settled (sim/observe/oracle.hpp), which join it in about
 * the order they were sent. With eager sends a channel is delivered in order and the set is a
 * prefix (nothing above: one integer, as a plain counter). With rendezvous sends a message
 * leaves when its receive is posted, so a later message of another tag may leave, and be
 * delivered, before an earlier one: the members above the prefix are those, until the gap
 * fills. */
#pragma once

#include <cstdint>
#include <set>
#include <vector>

namespace ckptsim {

class IndexSet {
 public:
  IndexSet() = default;
  /** @brief The set [0, next) plus @p above (members below next are ignored). */
  IndexSet(std::uint64_t next, const std::vector<std::uint64_t>& above)
      : next_(next) {
    for (auto i : above) insert(i);
  }

  bool contains(std::uint64_t i) const { return i < next_ || above_.count(i) != 0; }

  void insert(std::uint64_t i) {
    if (i < next_) return;
    if (i > next_) {
      above_.insert(i);
      return;
    }
    next_++;
    for (auto it = above_.begin(); it != above_.end() && *it == next_; it = above_.erase(it)) next_++;
  }

  /** @brief Removes @p i (an undone delivery): the prefix ends at it. */
  void erase(std::uint64_t i) {
    if (i >= next_) {
      above_.erase(i);
      return;
    }
    for (auto j = i + 1; j < next_; j++) above_.insert(j);
    next_ = i;
  }

  /** @brief The first index not in the set: every index below it is in. */
  std::uint64_t next() const { return next_; }
  /** @brief The members above next(), in increasing order. */
  std::vector<std::uint64_t> above() const { return {above_.begin(), above_.end()}; }
  bool prefix() const { return above_.empty(); }

  /** @brief Whether every member of @p o is in this set. */
  bool covers(const IndexSet& o) const {
    if (o.next_ > next_)
      for (auto i = next_; i < o.next_; i++)
        if (above_.count(i) == 0) return false;
    for (auto i : o.above_)
      if (!contains(i)) return false;
    return true;
  }

  /** @brief The members of both sets. */
  IndexSet intersection(const IndexSet& o) const {
    const IndexSet& lo = next_ <= o.next_ ? *this : o;
    const IndexSet& hi = next_ <= o.next_ ? o : *this;
    IndexSet r;
    r.next_ = lo.next_;
    for (auto i : lo.above_)
      if (hi.contains(i)) r.above_.insert(i);
    return r;
  }

  /** @brief Whether every index below @p i is in the set or in @p except: a message of index i
   *  sent after the others below it, apart from @p except (those still held by its sender
   *  when it left), comes after them on the channel. */
  bool all_below(std::uint64_t i, const std::vector<std::uint64_t>& except) const {
    if (i <= next_) return true;
    for (auto j = next_; j < i; j++)
      if (above_.count(j) == 0 && !held(except, j)) return false;
    return true;
  }

  bool operator==(const IndexSet&) const = default;

 private:
  static bool held(const std::vector<std::uint64_t>& v, std::uint64_t j) {
    for (auto x : v)
      if (x == j) return true;
    return false;
  }

  std::uint64_t next_ = 0;
  std::set<std::uint64_t> above_;
};

} // namespace ckptsim
