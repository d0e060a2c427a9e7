#pragma once
// Counters behind GET /mock/stats: one cache-line-aligned set per event loop, summed on read.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "core/mock/fault_injector.h"
#include "core/mock/token_lateness.h"

namespace plumbline::mock {

/// Upper bounds (seconds) of the latency histogram buckets in /metrics (vLLM-like).
inline constexpr std::array<double, 14> kLatencyBucketsS = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                                            0.5,   1.0,   2.5,  5.0,   10.0, 30.0, 60.0};

/// A Prometheus histogram written by one loop: count per bucket (the last is +Inf) and sum.
struct LatencyBuckets {
  std::array<std::atomic<uint64_t>, kLatencyBucketsS.size() + 1> counts{};
  std::atomic<uint64_t> sumNs{0};

  void record(int64_t ns);
};

/// One event loop's counters; written only by that loop (relaxed), read by any.
struct alignas(64) MockStats {
  /// POSTs to a completion endpoint whose body was read, valid or not (a 400 counts).
  std::atomic<uint64_t> requestsReceived{0};
  /// Of those, the ones whose reply's last byte was handed to the connection; the
  /// difference is in flight or abandoned by the client.
  std::atomic<uint64_t> requestsCompleted{0};
  std::atomic<uint64_t> tokensSent{0};
  /// Completion requests timed from their kernel arrival stamp (RequestArrivals); the others
  /// (a connection's first request, or no stamp) from when they were read.
  std::atomic<uint64_t> requestsTimedFromArrival{0};
  /// Request bytes read at once by BulkReader (long bodies on kept-alive connections) instead
  /// of 4 KB per loop turn by libevent.
  std::atomic<uint64_t> requestBytesReadInBulk{0};
  /// Injected faults by FaultClass index.
  std::array<std::atomic<uint64_t>, kFaultClassCount> faults{};
  LatencyBuckets timeToFirstToken;  ///< request received to first token written
  LatencyBuckets e2eLatency;        ///< request received to last byte written
  TokenLateness tokenLateness;      ///< streamed tokens' write instants against their due ones

  static void bump(std::atomic<uint64_t>& counter, uint64_t by = 1) {
    counter.fetch_add(by, std::memory_order_relaxed);
  }
};

/// The per-loop counters of one server.
class MockStatsBoard {
 public:
  explicit MockStatsBoard(int loops);
  MockStats& forLoop(int index) { return m_stats[static_cast<size_t>(index)]; }
  /// `{"requests_received":n,"requests_completed":n,"tokens_sent":n,
  /// "requests_timed_from_arrival":n,"request_bytes_read_in_bulk":n,"faults":{class:n}}`, every
  /// fault class listed (0 when none was injected).
  std::string toJson() const;
  uint64_t received() const;
  uint64_t completed() const;
  uint64_t tokens() const;
  uint64_t timedFromArrival() const;
  uint64_t bytesReadInBulk() const;
  uint64_t faults(FaultClass cls) const;
  /// GET /mock/timing: every loop's token lateness merged (see tokenLatenessJson).
  std::string timingJson() const;
  /// GET /mock/timing/requests: every loop's first writes (see firstWritesText).
  std::string firstWritesText() const;
  int loops() const { return m_loops; }
  const MockStats& loop(int index) const { return m_stats[static_cast<size_t>(index)]; }

 private:
  int m_loops;
  std::unique_ptr<MockStats[]> m_stats;
};

}  // namespace plumbline::mock
