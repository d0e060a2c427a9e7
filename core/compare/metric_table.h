#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/compare/compared_run.h"
#include "core/compare/goodput.h"

namespace plumbline::compare {

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

  /// The note of a run's value, empty when it has none.
  const std::string& note(size_t run) const;

  /// value − baseline; nullopt when either is unknown or has a note.
  std::optional<double> absoluteDelta(size_t run) const;
  /// (value − baseline) / |baseline|; nullopt when either is unknown, the baseline is 0 or
  /// the row is a percentage.
  std::optional<double> relativeDelta(size_t run) const;
  /// +1 better than baseline, -1 worse, 0 equal, unknown, neutral or within the resolution.
  int direction(size_t run) const;
};

/// The summary figures of every run; goodput rows are added when goodput is given (one per
/// run, in order): per second, and as a share of the planned requests.
std::vector<MetricRow> metricTable(const std::vector<ComparedRun>& runs,
                                   const std::vector<Goodput>& goodput = {});

}  // namespace plumbline::compare
