#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/compare/compared_run.h"
#include "core/compare/goodput.h"
#include "core/compare/percentile_interval.h"
#include "core/metrics/latency_histogram.h"

namespace plumbline::compare {

/// How a run's figure stands against the baseline's. Names are stable (JSON output, tests).
enum class Judgement {
  Baseline,         ///< the run compared against
  Unknown,          ///< a figure missing, or with a note
  Asked,            ///< what the workload asked for: neither better nor worse
  Same,             ///< no change
  BelowResolution,  ///< smaller than the histogram resolves (1/128)
  WithinNoise,      ///< smaller than the two runs' sampling margins at 95%
  TooFewSamples,    ///< a run's samples cannot bound the percentile: a change is not judged
  Better,
  Worse,
};
std::string_view judgementName(Judgement j);
/// Whether a change is one the runs' figures can vouch for: better or worse.
inline bool isBeyondNoise(Judgement j) { return j == Judgement::Better || j == Judgement::Worse; }

/// One figure across the compared runs; deltas are against the first (baseline) run.
struct MetricRow {
  std::string key;    ///< "ttft_p99_ms"
  std::string label;  ///< "TTFT p99 (ms)"
  bool lowerIsBetter = true;
  std::vector<std::optional<double>> values;  ///< one per run, nullopt when unknown
  /// What was asked, not how it went (requested rate, input tokens): no better or worse.
  bool neutral = false;
  /// A share in percent (errors, goodput): its delta is in percentage points, and a relative
  /// change of a percentage ("33 → 100: +203 %") would read as something it is not.
  bool percentage = false;
  /// One per run or empty: said with the value, or in place of an unknown one ("n/a (no TTFT
  /// without streaming)"). A figure with a note was not measured like its neighbours (goodput
  /// judged on fewer limits): it has no delta, and no delta is taken against it.
  std::vector<std::string> notes{};
  /// One per run or empty: what better or worse is judged on in place of the value, where the
  /// value follows what was asked (achieved ÷ requested, completed ÷ planned: a run asked for
  /// half the rate achieves half, and is not worse for it).
  std::vector<std::optional<double>> judgedOn{};
  /// Changes smaller than this share of the baseline are within what the figure can resolve
  /// (latency histograms hold a value to 1/128): no better or worse.
  double resolution = 0;
  /// One per run or empty: the 95% interval of a sampled figure (a latency percentile, from the
  /// run's histogram). A change within the two runs' margins is noise (QA 24 D3: two runs of one
  /// workload showed ITL p99 −11 % in green); one that a run's samples cannot bound is not
  /// judged. A run without one (its histogram not stored) is judged on the resolution alone.
  std::vector<std::optional<PercentileInterval>> intervals{};
  /// One per run or empty: the requests a judged-on figure is a mean over (output tokens per
  /// request asked). A change within 1.96·√(1/n₀ + 1/n₁) of it is noise: the requests' own
  /// spread is not stored, so they are taken to vary as much as their mean (CV 1).
  std::vector<uint64_t> meanOver{};
  /// One per run or empty: {hits, trials} of a share (errors of sent), tested for noise alike.
  std::vector<std::optional<std::pair<uint64_t, uint64_t>>> shares{};

  /// The note of a run's value, empty when it has none.
  const std::string& note(size_t run) const;

  /// value − baseline; nullopt when either is unknown or has a note.
  std::optional<double> absoluteDelta(size_t run) const;
  /// (value − baseline) / |baseline|; nullopt when either is unknown, the baseline is 0 or
  /// the row is a percentage.
  std::optional<double> relativeDelta(size_t run) const;
  /// How run `run` stands against the baseline.
  Judgement judgement(size_t run) const;
  /// +1 better than baseline, -1 worse, 0 for every other judgement.
  int direction(size_t run) const;
};

/// A run's whole-run latency histograms by stored name ("ttft", "itl", ...).
using RunHistograms = std::map<std::string, metrics::LatencyHistogram>;

/// The summary figures of every run; goodput rows are added when goodput is given (one per
/// run, in order): per second, and as a share of the planned requests. With `histograms` (one
/// per run, in order) the latency percentiles carry their intervals.
std::vector<MetricRow> metricTable(const std::vector<ComparedRun>& runs,
                                   const std::vector<Goodput>& goodput = {},
                                   const std::vector<RunHistograms>& histograms = {});

}  // namespace plumbline::compare
