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
/// 250 ms slices; worker CPU is over the samples of that second, reduced as a window reduces
/// its own. Requested and achieved rates are over the latest whole second every worker has
/// reported its sends for (LiveTick::ratesThroughNs): requests by the slice of their planned
/// instant, sends by the slice they went out in. Counted when reported instead, sends would
/// trail the plan by a report's delay and draw shortfalls that never happened (QA 23b D6).
/// Single-threaded (the coordinator's thread).
class LiveTickBuilder {
 public:
  void addRecords(const std::vector<metrics::RequestRecord>& records);
  void addStats(const StatsReport& stats);
  void removeWorker(uint32_t workerId);
  /// A session handed out at atNs, latenessNs after it was due.
  void addHandedLate(int64_t atNs, int64_t latenessNs);
  /// count requests planned at plannedNs (RunObserver::onPlanned).
  void addPlanned(int64_t plannedNs, uint64_t count);
  /// Every running worker's sends up to ns are in (RunObserver::onSendsReportedThrough).
  void setSendsReportedThrough(int64_t ns) { m_sendsReportedThroughNs = ns; }

  /// The tick due at nowNs (the first one at 250 ms), or nullopt before it is due. When
  /// several are due at once (a stalled loop) only the latest is built.
  std::optional<live::LiveTick> due(int64_t nowNs, const metrics::RunAggregator& aggregator);
  /// A tick at atNs now, whether or not one is due (e.g. the last one of a run).
  live::LiveTick build(int64_t atNs, const metrics::RunAggregator& aggregator);

  /// The tick's latencies: ttft, itl, e2e, both from planned, send lag, ttfa and tpot.
  static constexpr size_t kLatencyCount = 8;

 private:
  struct CpuSamples {
    double sum = 0;  ///< of the samples' shares of one core
    int count = 0;
  };
  /// Latencies, worst loop delay, latest hand-out and each worker's wait for a CPU of one 250 ms
  /// slice, by end (or sample) time.
  struct Slice {
    std::array<metrics::LatencyHistogram, kLatencyCount> latency;  ///< in kTickMember order
    int64_t loopDelayMaxNs = 0;
    int64_t handedLateMaxNs = 0;
    std::map<uint32_t, int64_t> cpuWaitNs;  ///< by worker, samples that knew it
    std::map<uint32_t, CpuSamples> cpu;     ///< by worker
  };
  struct Counters {
    int64_t atNs = 0;
    uint64_t outputTokens = 0;
  };
  /// Requests planned in one rate slice, sends made in it, and of those the harness_limit
  /// failures (due and counted as sent, but they never left this machine).
  struct RateSlice {
    uint64_t planned = 0, sent = 0, neverLeft = 0;
  };
  static constexpr int kSlicesPerSecond = 4;

  Slice& sliceAt(int64_t ns);
  void dropSlicesBefore(int64_t index);
  void fillRates(live::LiveTick& t);

  std::map<int64_t, Slice> m_slices;  ///< by index = ns / kTickIntervalNs
  std::map<uint32_t, metrics::WorkerSample> m_latestSample;
  std::map<uint32_t, uint64_t> m_connectionsOpen;
  std::deque<Counters> m_history;  ///< counters at earlier ticks, the last second of them
  std::map<int64_t, RateSlice> m_rateSlices;  ///< by index = ns / protocol::kRateSliceNs
  int64_t m_sendsReportedThroughNs = INT64_MIN;
  int64_t m_nextTickNs = 0;
};

}  // namespace plumbline::engine
