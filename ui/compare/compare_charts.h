#pragma once
#include <QString>

#include "core/compare/comparison.h"

class QChart;

namespace plumbline::ui::compare {

/// Charts of a comparison, one line per run in runColor(i) (baseline first). Each returns a
/// new chart the caller owns.

/// One windowed figure over time since each run's start.
QChart* overlaidSeriesChart(const plumbline::compare::Comparison& c,
                            plumbline::compare::SeriesMetric metric);
/// One latency metric's CDF ("ttft", "itl", "e2e", "ttft_from_planned"), log time axis.
QChart* cdfChart(const plumbline::compare::Comparison& c, const QString& metric);
/// Which latency the load-latency plot shows.
enum class LoadLatencyY { TtftP99, TtftP50, ItlP99, E2eP99 };
/// Latency against throughput (completed requests per second): a line per sweep run (a point per
/// stage or group), a single point for a run at one rate.
QChart* loadLatencyChart(const plumbline::compare::Comparison& c, LoadLatencyY y);
/// Goodput per run as a bar chart (req/s meeting the SLO), or a chart saying no SLO is set.
QChart* goodputChart(const plumbline::compare::Comparison& c);

}  // namespace plumbline::ui::compare
