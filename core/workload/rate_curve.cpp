#include "core/workload/rate_curve.h"

#include <cmath>

#include "core/workload/planner.h"

namespace plumbline::workload {

std::vector<RatePoint> plannedRateCurve(const LoadSpec& load) {
  std::vector<RatePoint> points;
  double t = 0;
  for (const Stage& stage : load.stages) {
    points.push_back({t, stage.startRate});
    t += stage.durationS;
    points.push_back({t, stage.endRate});
  }
  return points;
}

std::vector<RatePoint> arrivalHistogram(const std::vector<double>& arrivalsS, double durationS,
                                        double binS) {
  std::vector<RatePoint> points;
  if (!(binS > 0) || !(durationS > 0)) return points;
  const auto bins = static_cast<size_t>(std::ceil(durationS / binS));
  std::vector<double> counts(bins, 0.0);
  for (double t : arrivalsS) {
    if (t < 0 || t > durationS) continue;
    counts[std::min(static_cast<size_t>(t / binS), bins - 1)] += 1;
  }
  points.reserve(bins);
  for (size_t i = 0; i < bins; ++i) {
    const double start = static_cast<double>(i) * binS;
    const double width = std::min(binS, durationS - start);  // the last bin may be short
    points.push_back({start, width > 0 ? counts[i] / width : 0.0});
  }
  return points;
}

std::vector<double> plannedArrivals(const WorkloadSpec& spec, size_t limit) {
  std::vector<double> out;
  Planner planner(spec);
  SessionPlan session;
  while (out.size() < limit && planner.next(session))
    out.push_back(static_cast<double>(session.plannedNs) * 1e-9);
  return out;
}

double niceBinWidth(double durationS, int targetBins) {
  if (!(durationS > 0) || targetBins <= 0) return 1;
  const double raw = durationS / targetBins;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (double step : {1.0, 2.0, 5.0}) {
    if (raw <= step * decade) return step * decade;
  }
  return 10 * decade;
}

}  // namespace plumbline::workload
