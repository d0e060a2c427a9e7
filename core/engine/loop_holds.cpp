#include "core/engine/loop_holds.h"

#include <algorithm>

namespace plumbline::engine {

void LoopHolds::add(int64_t startNs, int64_t endNs) {
  if (endNs - startNs < kFloorNs) return;
  if (!m_holds.empty()) startNs = std::max(startNs, m_holds.back().second);  // keep them apart
  m_holds.emplace_back(startNs, endNs);
}

int64_t LoopHolds::longestOverlapping(int64_t fromNs, int64_t toNs) const {
  // The first hold that ended at or after fromNs; then every one that began by toNs.
  auto it = std::lower_bound(
      m_holds.begin(), m_holds.end(), fromNs,
      [](const std::pair<int64_t, int64_t>& h, int64_t ns) { return h.second < ns; });
  int64_t longest = 0;
  for (; it != m_holds.end() && it->first <= toNs; ++it)
    longest = std::max(longest, it->second - it->first);
  return longest;
}

void LoopHolds::forgetBefore(int64_t ns) {
  while (!m_holds.empty() && m_holds.front().second < ns) m_holds.pop_front();
}

}  // namespace plumbline::engine
