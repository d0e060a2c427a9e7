#pragma once
// What a coordinator tells an observer beyond its results (RunSink): the live state of the
// harness, for telemetry. Called on the coordinator's thread; must not block.
#include <cstdint>
#include <string>

#include "core/engine/frame_codec.h"
#include "core/metrics/run_aggregator.h"

namespace plumbline::engine {

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  /// Every coordinator tick (~20 ms), with the run's counters so far; nowNs since t0.
  virtual void onProgress(int64_t nowNs, const metrics::RunAggregator& aggregator) = 0;
  /// A worker's periodic report (every ~250 ms per worker).
  virtual void onWorkerStats(const StatsReport& stats) = 0;
  /// Something the user should know as it happens; level "info" | "warning" | "error".
  virtual void onNotice(int64_t atNs, const std::string& level, const std::string& text) = 0;
  /// The run is over and every window closed: the aggregator holds the final histograms and
  /// `summary` the final counts (for session graphs, planned counts requests never due).
  virtual void onRunOver(int64_t nowNs, const metrics::RunAggregator& aggregator, const metrics::RunSummary& summary) = 0;
  /// A worker is gone: its last sample no longer describes anything running.
  virtual void onWorkerGone(uint32_t workerId) = 0;
  /// At atNs the coordinator handed out a session latenessNs after it was due (it hands them
  /// out a second ahead, so it was held up).
  virtual void onHandedLate(int64_t /*atNs*/, int64_t /*latenessNs*/) {}
  /// count requests were planned at plannedNs: a session's first ones once their instant has
  /// passed, dependent ones (at their slice's start, protocol::kRateSliceNs) once a worker says
  /// they came due.
  virtual void onPlanned(int64_t /*plannedNs*/, uint64_t /*count*/) {}
  /// Before each onProgress: every running worker has reported its sends up to this instant
  /// (INT64_MIN before they all reported once, INT64_MAX when none is running).
  virtual void onSendsReportedThrough(int64_t /*ns*/) {}
};

}  // namespace plumbline::engine
