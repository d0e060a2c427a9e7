#pragma once
// Builds the live Ticks (core/live/live_messages.h) from what the coordinator sees.
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <vector>

#include "core/engine/frame_codec.h"
#include "core/live/live_messages.h"
#include "core/metrics/latency_histogram.h"
#include "core/metrics/request_record.h"
#include "core/metrics/run_aggregator.h"

namespace plumbline::engine {

/// Turns records, worker samples and the aggregator's counters into one LiveTick every
/// kTickIntervalNs. Latencies cover requests that ended in the second before the tick, in
/// 250 ms slices; rates are differences of the cumulative counters over that second; worker
/// CPU is over the samples of that second, reduced as a window reduces its own.
/// Single-threaded (the coordinator's thread).
class LiveTickBuilder {
 public:
  void addRecords(const std::vector<metrics::RequestRecord>& records);
  void addStats(const StatsReport& stats);
  void removeWorker(uint32_t workerId);
  /// A session handed out at atNs, latenessNs after it was due.
  void addHandedLate(int64_t atNs, int64_t latenessNs);

  /// The tick due at nowNs (the first one at 250 ms), or nullopt before it is due. When
  /// several are due at once (a stalled loop) only the latest is built.
  std::optional<live::LiveTick> due(int64_t nowNs, const metrics::RunAggregator& aggregator);
  /// A tick at atNs now, whether or not one is due (e.g. the last one of a run).
  live::LiveTick build(int64_t atNs, const metrics::RunAggregator& aggregator);

 private:
  struct CpuSamples {
    double sum = 0;  ///< of the samples' shares of one core
    int count = 0;
  };
  /// Latencies, worst loop delay, latest hand-out and each worker's wait for a CPU of one 250 ms
  /// slice, by end (or sample) time.
  struct Slice {
    std::array<metrics::LatencyHistogram, 6> latency;  ///< in LivePercentiles order
    int64_t loopDelayMaxNs = 0;
    int64_t handedLateMaxNs = 0;
    std::map<uint32_t, int64_t> cpuWaitNs;  ///< by worker, samples that knew it
    std::map<uint32_t, CpuSamples> cpu;     ///< by worker
  };
  struct Counters {
    int64_t atNs = 0;
    uint64_t planned = 0, reached = 0, outputTokens = 0;  // reached: sent minus harness_limit failures
  };
  static constexpr int kSlicesPerSecond = 4;

  Slice& sliceAt(int64_t ns);
  void dropSlicesBefore(int64_t index);

  std::map<int64_t, Slice> m_slices;  ///< by index = ns / kTickIntervalNs
  std::map<uint32_t, metrics::WorkerSample> m_latestSample;
  std::map<uint32_t, uint64_t> m_connectionsOpen;
  std::deque<Counters> m_history;  ///< counters at earlier ticks, the last second of them
  int64_t m_nextTickNs = 0;
};

}  // namespace plumbline::engine
