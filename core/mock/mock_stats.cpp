#include "core/mock/mock_stats.h"

namespace plumbline::mock {

MockStatsBoard::MockStatsBoard(int loops) : m_loops(loops), m_stats(new MockStats[static_cast<size_t>(loops)]) {}

std::string MockStatsBoard::toJson() const {
  uint64_t received = 0;
  uint64_t completed = 0;
  uint64_t tokens = 0;
  for (int i = 0; i < m_loops; ++i) {
    const MockStats& s = m_stats[static_cast<size_t>(i)];
    received += s.requestsReceived.load(std::memory_order_relaxed);
    completed += s.requestsCompleted.load(std::memory_order_relaxed);
    tokens += s.tokensSent.load(std::memory_order_relaxed);
  }
  return "{\"requests_received\":" + std::to_string(received) + ",\"requests_completed\":" +
         std::to_string(completed) + ",\"tokens_sent\":" + std::to_string(tokens) + ",\"faults\":{}}";
}

}  // namespace plumbline::mock
