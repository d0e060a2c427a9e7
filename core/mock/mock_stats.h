#pragma once
// Counters behind GET /mock/stats: one cache-line-aligned set per event loop, summed on read.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace plumbline::mock {

/// One event loop's counters; written only by that loop (relaxed), read by any.
struct alignas(64) MockStats {
  /// POSTs to a completion endpoint whose body was read, valid or not (a 400 counts).
  std::atomic<uint64_t> requestsReceived{0};
  /// Of those, the ones whose reply's last byte was handed to the connection; the
  /// difference is in flight or abandoned by the client.
  std::atomic<uint64_t> requestsCompleted{0};
  std::atomic<uint64_t> tokensSent{0};

  static void bump(std::atomic<uint64_t>& counter, uint64_t by = 1) {
    counter.fetch_add(by, std::memory_order_relaxed);
  }
};

/// The per-loop counters of one server.
class MockStatsBoard {
 public:
  explicit MockStatsBoard(int loops);
  MockStats& forLoop(int index) { return m_stats[static_cast<size_t>(index)]; }
  /// `{"requests_received":n,"requests_completed":n,"tokens_sent":n,"faults":{}}`
  std::string toJson() const;

 private:
  int m_loops;
  std::unique_ptr<MockStats[]> m_stats;
};

}  // namespace plumbline::mock
