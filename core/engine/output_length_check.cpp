#include "core/engine/output_length_check.h"

#include <algorithm>
#include <cstdio>

namespace plumbline::engine {

OutputLengthCheck::OutputLengthCheck(const workload::WorkloadSpec& spec)
    : m_on(spec.requests.sampling.ignoreEos.value_or(false)),
      m_maxTokens(spec.requests.sampling.maxTokens) {}

void OutputLengthCheck::planned(const workload::SessionPlan& s) {
  if (!m_on || !s.requests.empty() || s.id >= kMaxSessions) return;
  // What the request asked for: its drawn length, capped by max_tokens (RequestBodyBuilder).
  int64_t asked = s.outputTokens;
  if (m_maxTokens) asked = std::min(asked, *m_maxTokens);
  if (m_plannedById.size() <= s.id) m_plannedById.resize(s.id + 1, 0);
  m_plannedById[s.id] = static_cast<uint32_t>(std::clamp<int64_t>(asked, 0, UINT32_MAX));
}

void OutputLengthCheck::recorded(const metrics::RequestRecord& r) {
  if (!m_on || !r.ok() || r.turn != 0 || r.outputTokensServer < 0 ||
      r.sessionId >= m_plannedById.size())
    return;
  const uint32_t asked = m_plannedById[r.sessionId];
  if (asked == 0) return;
  ++m_requests;
  m_plannedTokens += asked;
  m_serverTokens += static_cast<uint64_t>(r.outputTokensServer);
}

std::optional<std::string> OutputLengthCheck::note() const {
  if (m_requests < kMinRequests || m_plannedTokens == 0) return std::nullopt;
  const double share = static_cast<double>(m_serverTokens) / static_cast<double>(m_plannedTokens);
  if (share >= kShortShare) return std::nullopt;
  char text[400];
  std::snprintf(text, sizeof text,
                "replies were %.0f%% of their planned length (%.1f output tokens on average where "
                "%.1f were asked for with ignore_eos, by the server's usage of %llu requests): the "
                "server did not honour ignore_eos or max_tokens, so latencies and token rates are "
                "of shorter replies than the workload planned",
                100.0 * share,
                static_cast<double>(m_serverTokens) / static_cast<double>(m_requests),
                static_cast<double>(m_plannedTokens) / static_cast<double>(m_requests),
                static_cast<unsigned long long>(m_requests));
  return std::string(text);
}

}  // namespace plumbline::engine
