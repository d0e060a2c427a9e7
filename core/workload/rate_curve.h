#pragma once
#include <vector>

#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// A rate over time for the designer's load preview, in session arrivals per second.
struct RatePoint {
  double timeS = 0;
  double rate = 0;
};

/// The planned (expected) rate: a polyline through each stage's start and end rate, so a
/// ramp is a sloped segment and a step between stages is a vertical one.
std::vector<RatePoint> plannedRateCurve(const LoadSpec& load);

/// Arrivals per second in bins of `binS` seconds over [0, durationS): one point per bin at
/// its start. Any source of arrival instants plugs in here (the planner, a trace file).
std::vector<RatePoint> arrivalHistogram(const std::vector<double>& arrivalsS, double durationS,
                                        double binS);

/// Arrival instants of the spec's schedule as the planner places them, at most `limit`.
std::vector<double> plannedArrivals(const WorkloadSpec& spec, size_t limit = 2'000'000);

/// A bin width giving about `targetBins` bins over `durationS`, rounded to 1, 2 or 5 × 10^k.
double niceBinWidth(double durationS, int targetBins = 120);

}  // namespace plumbline::workload
