#include "core/compare/run_series.h"

#include <algorithm>

namespace plumbline::compare {

namespace {

struct MetricInfo {
  std::string_view name, label;
};
constexpr std::array<MetricInfo, kSeriesMetricCount> kInfo = {{
    {"requested_rps", "requested (req/s)"},
    {"achieved_rps", "achieved (req/s)"},  // sent, as the summary's achieved_rps and History
    {"completed_rps", "completed (req/s)"},
    {"ttft_p50_ms", "TTFT p50 (ms)"},
    {"ttft_p99_ms", "TTFT p99 (ms)"},
    {"itl_p99_ms", "inter-token p99 (ms)"},
    {"e2e_p99_ms", "end-to-end p99 (ms)"},
    {"output_tokens_per_s", "output tokens/s"},
    {"errors_per_s", "errors/s"},
    {"send_lag_p99_ms", "send lag p99 (ms)"},
    {"in_flight", "in flight"},
}};

double perSecond(double count, const store::WindowRow& w) {
  return w.lengthNs > 0 ? count * 1e9 / static_cast<double>(w.lengthNs) : 0;
}

/// nullopt when the window holds no value for the metric.
std::optional<double> valueOf(const store::WindowRow& w, SeriesMetric m) {
  const bool completions = w.completed > 0;
  switch (m) {
    case SeriesMetric::RequestedRps: return perSecond(static_cast<double>(w.planned), w);
    case SeriesMetric::AchievedRps:
      return perSecond(static_cast<double>(w.sent), w);
    case SeriesMetric::CompletedRps:
      return perSecond(static_cast<double>(w.completed), w);
    case SeriesMetric::TtftP50Ms: return completions ? std::optional(w.ttftP50Ms) : std::nullopt;
    case SeriesMetric::TtftP99Ms: return completions ? std::optional(w.ttftP99Ms) : std::nullopt;
    case SeriesMetric::ItlP99Ms: return completions ? std::optional(w.itlP99Ms) : std::nullopt;
    case SeriesMetric::E2eP99Ms: return completions ? std::optional(w.e2eP99Ms) : std::nullopt;
    case SeriesMetric::OutputTokensPerS: return perSecond(static_cast<double>(w.outputTokens), w);
    case SeriesMetric::ErrorsPerS: return perSecond(static_cast<double>(w.errors), w);
    case SeriesMetric::SendLagP99Ms:
      return w.sent > 0 ? std::optional(w.sendLagP99Ms) : std::nullopt;
    case SeriesMetric::InFlight: return static_cast<double>(w.inFlight);
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
                                      SeriesMetric metric) {
  std::vector<SeriesPoint> out;
  out.reserve(windows.size());
  for (const auto& w : windows)
    if (auto v = valueOf(w, metric)) out.push_back({static_cast<double>(w.startNs) / 1e9, *v});
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
  }
  return out;
}

}  // namespace plumbline::compare
