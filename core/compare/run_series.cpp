#include "core/compare/run_series.h"

#include <algorithm>

namespace plumbline::compare {

namespace {

struct MetricInfo {
  std::string_view name, label;
};
constexpr std::array<MetricInfo, kSeriesMetricCount> kInfo = {{
    {"requested_rps", "requested (req/s)"},
    {"achieved_rps", "achieved (req/s)"},  // sends made in the window, as History draws them
    {"completed_rps", "completed (req/s)"},
    {"ttft_p50_ms", "TTFT p50 (ms)"},
    {"ttft_p99_ms", "TTFT p99 (ms)"},
    {"itl_p99_ms", "inter-token p99 (ms)"},
    {"e2e_p99_ms", "end-to-end p99 (ms)"},
    {"output_tokens_per_s", "output tokens/s"},
    {"errors_per_s", "errors/s"},
    {"send_lag_p99_ms", "send lag p99 (ms)"},
    {"in_flight", "in flight"},
    {"ttft_from_planned_p99_ms", "TTFT from planned p99 (ms)"},
    {"e2e_from_planned_p99_ms", "e2e from planned p99 (ms)"},
    {"tpot_p99_ms", "TPOT p99 (ms)"},  // per output token, where inter-token is per event
    {"ttfa_p99_ms", "TTFA p99 (ms)"},
}};

double perSecond(double count, const store::WindowRow& w) {
  return w.lengthNs > 0 ? count * 1e9 / static_cast<double>(w.lengthNs) : 0;
}

/// `count` over the part of the window the run was sending in; none in the drain after its end.
std::optional<double> perSendingSecond(double count, const store::WindowRow& w,
                                       std::optional<double> runEndS) {
  if (!runEndS) return perSecond(count, w);
  const auto sendingS = w.sendingSeconds(runEndS);
  if (!sendingS) return std::nullopt;
  return count / *sendingS;
}

/// nullopt when the window holds no value for the metric: a latency none of its requests
/// measured (no TTFT without streaming, no send lag where nothing was sent) has none, not 0 ms.
std::optional<double> valueOf(const store::WindowRow& w, SeriesMetric m,
                              std::optional<double> runEndS) {
  switch (m) {
    case SeriesMetric::RequestedRps:
      return perSendingSecond(static_cast<double>(w.planned), w, runEndS);
    case SeriesMetric::AchievedRps:
      return perSendingSecond(static_cast<double>(w.achievedSends()), w, runEndS);
    case SeriesMetric::CompletedRps:
      return perSecond(static_cast<double>(w.completed), w);
    // Inter-token gaps arrive while streams run, in windows where nothing completes.
    case SeriesMetric::TtftP50Ms:
      return w.ttftP50Ms;
    case SeriesMetric::TtftP99Ms:
      return w.ttftP99Ms;
    case SeriesMetric::ItlP99Ms:
      return w.itlP99Ms;
    case SeriesMetric::E2eP99Ms:
      return w.e2eP99Ms;
    case SeriesMetric::OutputTokensPerS: return perSecond(static_cast<double>(w.outputTokens), w);
    case SeriesMetric::ErrorsPerS: return perSecond(static_cast<double>(w.errors), w);
    case SeriesMetric::SendLagP99Ms:
      return w.sendLagP99Ms;
    case SeriesMetric::InFlight: return static_cast<double>(w.inFlight);
    case SeriesMetric::TtftFromPlannedP99Ms:
      return w.ttftFromPlannedP99Ms;
    case SeriesMetric::E2eFromPlannedP99Ms:
      return w.e2eFromPlannedP99Ms;
    case SeriesMetric::TpotP99Ms:
      return w.tpotP99Ms;
    case SeriesMetric::TtfaP99Ms:
      return w.ttfaP99Ms;
    case SeriesMetric::Count: break;
  }
  return std::nullopt;
}

}  // namespace

std::string_view seriesMetricName(SeriesMetric m) { return kInfo[static_cast<size_t>(m)].name; }
std::string_view seriesMetricLabel(SeriesMetric m) { return kInfo[static_cast<size_t>(m)].label; }

std::optional<SeriesMetric> seriesMetricFromName(std::string_view name) {
  for (size_t i = 0; i < kSeriesMetricCount; ++i)
    if (kInfo[i].name == name) return static_cast<SeriesMetric>(i);
  return std::nullopt;
}

std::vector<SeriesPoint> windowSeries(const std::vector<store::WindowRow>& windows,
                                      SeriesMetric metric, std::optional<double> runEndS) {
  std::vector<SeriesPoint> out;
  out.reserve(windows.size());
  bool skipped = false;
  for (const auto& w : windows) {
    const auto v = valueOf(w, metric, runEndS);
    if (!v) {
      skipped = !out.empty();
      continue;
    }
    out.push_back({static_cast<double>(w.startNs) / 1e9, *v, skipped});
    skipped = false;
  }
  return out;
}

std::vector<SeriesPoint> decimateMinMax(const std::vector<SeriesPoint>& points,
                                        size_t maxPoints) {
  if (points.size() <= maxPoints || maxPoints < 2) return points;
  const size_t bins = maxPoints / 2;
  std::vector<SeriesPoint> out;
  out.reserve(bins * 2);
  for (size_t b = 0; b < bins; ++b) {
    size_t from = b * points.size() / bins, to = (b + 1) * points.size() / bins;
    if (from == to) continue;
    const size_t before = out.size();
    auto [lo, hi] = std::minmax_element(points.begin() + static_cast<ptrdiff_t>(from),
                                        points.begin() + static_cast<ptrdiff_t>(to),
                                        [](const SeriesPoint& a, const SeriesPoint& c) {
                                          return a.value < c.value;
                                        });
    if (lo == hi) {
      out.push_back(*lo);
    } else if (lo < hi) {
      out.push_back(*lo);
      out.push_back(*hi);
    } else {
      out.push_back(*hi);
      out.push_back(*lo);
    }
    // A gap inside the bin breaks the line before it: joined straight it would claim values
    // where the windows had none.
    const bool gap = std::any_of(points.begin() + static_cast<ptrdiff_t>(from),
                                 points.begin() + static_cast<ptrdiff_t>(to),
                                 [](const SeriesPoint& p) { return p.gapBefore; });
    out[before].gapBefore = gap;
    for (size_t k = before + 1; k < out.size(); ++k) out[k].gapBefore = false;
  }
  return out;
}

}  // namespace plumbline::compare
