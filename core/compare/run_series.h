#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "core/store/window_row.h"

namespace plumbline::compare {

/// The per-window figures a comparison overlays, one value per stored window.
enum class SeriesMetric {
  RequestedRps,
  AchievedRps,
  CompletedRps,
  TtftP50Ms,
  TtftP99Ms,
  ItlP99Ms,
  E2eP99Ms,
  OutputTokensPerS,
  ErrorsPerS,
  SendLagP99Ms,
  InFlight,
  // Since schema v11 in the windows' rows; filled from their histograms for runs stored before.
  TtftFromPlannedP99Ms,
  E2eFromPlannedP99Ms,
  // Since schema v12 in the rows; from the windows' tpot histograms for runs stored before.
  TpotP99Ms,
  TtfaP99Ms,  // the last: Compare offers it only when a compared run thought first
  Count
};
inline constexpr size_t kSeriesMetricCount = static_cast<size_t>(SeriesMetric::Count);
std::string_view seriesMetricName(SeriesMetric m);   ///< "ttft_p99_ms"
std::string_view seriesMetricLabel(SeriesMetric m);  ///< "TTFT p99 (ms)"
std::optional<SeriesMetric> seriesMetricFromName(std::string_view name);

struct SeriesPoint {
  double tS = 0;  ///< window start, seconds since the run's t0
  double value = 0;
  /// Windows before this point (after the previous one) had no value: a line is not drawn
  /// across them.
  bool gapBefore = false;
  bool operator==(const SeriesPoint&) const = default;
};

/// One value per window; windows without a sample of a latency are skipped (no value, not 0)
/// and the point after them marked gapBefore. With the run's end (runs.duration_s), the
/// requested and achieved rates stop there, as History draws them: the window the end falls in
/// is over the part of it the run lasted, and the drain after it has none.
std::vector<SeriesPoint> windowSeries(const std::vector<store::WindowRow>& windows,
                                      SeriesMetric metric,
                                      std::optional<double> runEndS = std::nullopt);

/// At most maxPoints points: consecutive points binned, each bin reduced to its minimum and
/// maximum in time order, so spikes survive; a bin with a gap starts with one. Returned
/// unchanged when already small enough.
std::vector<SeriesPoint> decimateMinMax(const std::vector<SeriesPoint>& points,
                                        size_t maxPoints = 500);

}  // namespace plumbline::compare
