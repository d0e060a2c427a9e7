#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/compare/comparability.h"
#include "core/compare/compared_run.h"
#include "core/compare/goodput.h"
#include "core/compare/latency_cdf.h"
#include "core/compare/load_latency.h"
#include "core/compare/metric_table.h"
#include "core/compare/run_series.h"
#include "core/store/run_reader.h"

namespace plumbline::compare {

inline constexpr size_t kMinCompared = 2;
inline constexpr size_t kMaxCompared = 4;
/// The latency metrics drawn as CDFs, by their stored histogram names.
inline constexpr std::array<const char*, 4> kCdfMetrics = {"ttft", "itl", "e2e",
                                                           "ttft_from_planned"};
/// Drawn as a CDF too when a compared run thought before answering: its time to first answer
/// token then differs from its time to first token (for a run that did not, the two agree).
inline constexpr const char* kAnswerCdfMetric = "ttfa";

struct LatencyCdf {
  int64_t runId = 0;
  std::string metric;  ///< a kCdfMetrics name
  uint64_t count = 0;
  std::vector<CdfPoint> points;
};

/// Everything a comparison shows, for the CLI and the studio alike. Index i of every
/// per-run vector is runs[i]; runs[0] is the baseline.
struct Comparison {
  std::vector<ComparedRun> runs;
  std::vector<ComparabilityWarning> warnings;  ///< shown first
  Slo slo;
  std::vector<Goodput> goodput;                ///< empty when no SLO limit is set
  std::vector<MetricRow> metrics;
  std::vector<LatencyCdf> cdfs;                ///< run-major, kCdfMetrics order, stored ones only
  /// Per stage or window group for a sweep; one "whole run" point from the summary otherwise.
  std::vector<std::vector<LoadLatencyPoint>> loadLatency;
  std::vector<std::array<std::vector<SeriesPoint>, kSeriesMetricCount>> series;

  const LatencyCdf* cdf(int64_t runId, const std::string& metric) const;
  /// Whether the runs' kAnswerCdfMetric CDFs are drawn: some run thought before answering.
  bool hasAnswerCdfs() const;
};

/// Loads and computes a comparison of 2–4 distinct runs (the first is the baseline).
/// Reads every request of each run when the SLO sets a limit. Throws StoreError:
/// InvalidInput for a wrong count or a repeated id, NotFound for an unknown id.
Comparison buildComparison(const store::RunReader& reader, const std::vector<int64_t>& ids,
                           const Slo& slo);

/// Throws StoreError InvalidInput when the ids are not 2–4 distinct runs.
void checkComparedIds(const std::vector<int64_t>& ids, const std::string& dbPath);

}  // namespace plumbline::compare
