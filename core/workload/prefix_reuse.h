#pragma once
#include <cstdint>
#include <unordered_set>
#include <vector>

#include "core/workload/planner.h"

namespace plumbline::workload {

/// How much of what a plan sends repeats the start of a prompt sent earlier, which a server's
/// prefix cache can reuse. Counted, per request, as input tokens that are:
/// - the group's shared system prompt, once that group has sent a request;
/// - for a request that extends its parent's conversation: the parent's whole prompt, and the
///   parent's reply too once a sibling has sent it (tree);
/// - for a replayed Mooncake row: its 512-token blocks whose hash id was sent before.
/// A lower bound: text that happens to repeat by chance is not counted.
class PrefixReuseCounter {
 public:
  /// Sessions in planned order; `inputs` = requestInputTokens(session).
  void add(const SessionPlan& session, const std::vector<uint64_t>& inputs);
  double share() const { return m_total > 0 ? m_reused / m_total : 0; }
  double reusedTokens() const { return m_reused; }

 private:
  std::unordered_set<uint32_t> m_groupsSeen;
  std::unordered_set<uint32_t> m_blocksSeen;
  double m_total = 0;
  double m_reused = 0;
};

}  // namespace plumbline::workload
