#pragma once
#include <algorithm>
#include <cstddef>
#include <deque>
#include <iterator>
#include <vector>

#include "core/workload/planner.h"

namespace plumbline::engine {

/// Adds `incoming` to `queue`, which is in planned order and stays so (equal instants keep
/// their arrival order). The coordinator's own feed comes in order and after everything queued:
/// appended, O(incoming). Sessions handed over from a dead worker fall among those queued: the
/// queue's tail from the first of them on is merged with them once, O(queue + incoming), not
/// once per session. `landedBefore(i)` is called, in increasing i, for each incoming session
/// that now sits at index i ahead of one queued before: a queue with entries aligned to its
/// front (the worker's prepared bodies) inserts one there to stay aligned.
template <typename LandedBefore>
void mergeInPlannedOrder(std::deque<workload::SessionPlan>& queue,
                         std::vector<workload::SessionPlan>&& incoming,
                         LandedBefore&& landedBefore) {
  if (incoming.empty()) return;
  const auto earlier = [](const workload::SessionPlan& a, const workload::SessionPlan& b) {
    return a.plannedNs < b.plannedNs;
  };
  if (!std::is_sorted(incoming.begin(), incoming.end(), earlier))
    std::stable_sort(incoming.begin(), incoming.end(), earlier);
  if (queue.empty() || queue.back().plannedNs <= incoming.front().plannedNs) {
    for (auto& s : incoming) queue.push_back(std::move(s));
    return;
  }
  const auto tailAt = std::upper_bound(queue.begin(), queue.end(), incoming.front(), earlier);
  std::vector<workload::SessionPlan> tail(std::make_move_iterator(tailAt),
                                          std::make_move_iterator(queue.end()));
  queue.erase(tailAt, queue.end());
  size_t t = 0;
  for (auto& s : incoming) {
    while (t < tail.size() && tail[t].plannedNs <= s.plannedNs)
      queue.push_back(std::move(tail[t++]));
    if (t < tail.size()) landedBefore(queue.size());
    queue.push_back(std::move(s));
  }
  for (; t < tail.size(); ++t) queue.push_back(std::move(tail[t]));
}

}  // namespace plumbline::engine
