#include "core/workload/prefix_reuse.h"

#include "core/workload/prompt_blocks.h"

namespace plumbline::workload {

void PrefixReuseCounter::add(const SessionPlan& s, const std::vector<uint64_t>& inputs) {
  for (uint64_t in : inputs) m_total += static_cast<double>(in);
  if (!s.promptBlocks.empty() && !inputs.empty()) {
    // The blocks lead the first request's new text, after any shared system prompt.
    const uint64_t own = inputs.front() - s.prefixTokens;
    const PromptBlockLayout layout = promptBlockLayout(s.promptBlocks.size(), static_cast<uint32_t>(own));
    for (size_t i = 0; i < layout.blocks; ++i)
      if (!m_blocksSeen.insert(s.promptBlocks[i]).second) m_reused += layout.blockTokens(i);
  }
  if (s.prefixTokens > 0) {
    const bool groupSeen = !m_groupsSeen.insert(s.prefixGroup).second;
    const size_t requests = inputs.size();
    m_reused += static_cast<double>(s.prefixTokens) * static_cast<double>(groupSeen ? requests : requests - 1);
  }
  std::vector<bool> replySent(s.requests.size(), false);
  for (size_t i = 0; i < s.requests.size(); ++i) {
    const SessionRequest& r = s.requests[i];
    if (r.text == RequestText::Reduce || r.parents.empty()) continue;
    const uint32_t p = r.parents.front();
    m_reused += static_cast<double>(inputs[p] - s.prefixTokens);  // the prefix is counted above
    if (replySent[p]) m_reused += s.requests[p].outputTokens;
    replySent[p] = true;
  }
}

}  // namespace plumbline::workload
