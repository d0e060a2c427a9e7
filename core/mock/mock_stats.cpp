#include "core/mock/mock_stats.h"

namespace plumbline::mock {
namespace {
uint64_t sum(const MockStats* stats, int loops, std::atomic<uint64_t> MockStats::*counter) {
  uint64_t total = 0;
  for (int i = 0; i < loops; ++i) total += (stats[i].*counter).load(std::memory_order_relaxed);
  return total;
}
}  // namespace

void LatencyBuckets::record(int64_t ns) {
  const double s = static_cast<double>(ns) * 1e-9;
  size_t i = 0;
  while (i < kLatencyBucketsS.size() && s > kLatencyBucketsS[i]) ++i;
  counts[i].fetch_add(1, std::memory_order_relaxed);
  sumNs.fetch_add(static_cast<uint64_t>(ns > 0 ? ns : 0), std::memory_order_relaxed);
}

MockStatsBoard::MockStatsBoard(int loops) : m_loops(loops), m_stats(new MockStats[static_cast<size_t>(loops)]) {}

uint64_t MockStatsBoard::received() const { return sum(m_stats.get(), m_loops, &MockStats::requestsReceived); }
uint64_t MockStatsBoard::completed() const { return sum(m_stats.get(), m_loops, &MockStats::requestsCompleted); }
uint64_t MockStatsBoard::tokens() const { return sum(m_stats.get(), m_loops, &MockStats::tokensSent); }

uint64_t MockStatsBoard::faults(FaultClass cls) const {
  uint64_t total = 0;
  for (int i = 0; i < m_loops; ++i) {
    total += m_stats[static_cast<size_t>(i)].faults[static_cast<size_t>(cls)].load(std::memory_order_relaxed);
  }
  return total;
}

std::string MockStatsBoard::timingJson() const {
  metrics::LatencyHistogram first, later;
  uint64_t early = 0;
  for (int i = 0; i < m_loops; ++i) m_stats[static_cast<size_t>(i)].tokenLateness.mergeInto(first, later, early);
  return tokenLatenessJson(first, later, early);
}

std::string MockStatsBoard::firstWritesText() const {
  std::vector<std::pair<int64_t, int64_t>> writes;
  for (int i = 0; i < m_loops; ++i) m_stats[static_cast<size_t>(i)].tokenLateness.appendFirstWrites(writes);
  return mock::firstWritesText(std::move(writes));
}

uint64_t MockStatsBoard::timedFromArrival() const {
  return sum(m_stats.get(), m_loops, &MockStats::requestsTimedFromArrival);
}

uint64_t MockStatsBoard::bytesReadInBulk() const {
  return sum(m_stats.get(), m_loops, &MockStats::requestBytesReadInBulk);
}

std::string MockStatsBoard::toJson() const {
  std::string out = "{\"requests_received\":" + std::to_string(received()) +
                    ",\"requests_completed\":" + std::to_string(completed()) +
                    ",\"tokens_sent\":" + std::to_string(tokens()) +
                    ",\"requests_timed_from_arrival\":" + std::to_string(timedFromArrival()) +
                    ",\"request_bytes_read_in_bulk\":" + std::to_string(bytesReadInBulk()) +
                    ",\"faults\":{";
  for (size_t i = 0; i < kFaultClassCount; ++i) {
    if (i != 0) out += ',';
    out += '"';
    out += kFaultClassNames[i];
    out += "\":" + std::to_string(faults(static_cast<FaultClass>(i)));
  }
  return out + "}}";
}

}  // namespace plumbline::mock
