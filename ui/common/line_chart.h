#pragma once
#include <QColor>
#include <QPointF>
#include <QString>
#include <QVector>
#include <vector>

#include "core/compare/latency_cdf.h"

class QChart;
class QChartView;
class QWidget;

namespace plumbline::ui {

/// The colour of the i-th run wherever runs are drawn side by side (baseline first).
QColor runColor(int index);

/// A chart with titled value axes (x optionally logarithmic), a legend at the bottom and no
/// animation; series added with addLine share its axes, which fit their data.
QChart* makeLineChart(const QString& title, const QString& xTitle, const QString& yTitle,
                      bool logX = false);
/// Adds a line (or, with markers, a line with points) to a chart made by makeLineChart.
void addLine(QChart* chart, const QString& name, const QVector<QPointF>& points,
             const QColor& color, bool markers = false, Qt::PenStyle style = Qt::SolidLine);
/// Refits the chart's axes to every series (after the last addLine).
void fitAxes(QChart* chart);
/// A CDF's axes: fractions 0..1, and the log time axis from the 0.1% point (values below it,
/// often single sub-microsecond gaps, would stretch the axis over decades of nothing).
void fitCdfAxes(QChart* chart);
/// A CDF as a line for a log time axis: rising from 0 at its first value (the points start at
/// the first bucket's share, and a line starting there hangs in mid-air), values kept above 0.
QVector<QPointF> cdfLine(const std::vector<::plumbline::compare::CdfPoint>& cdf);
/// A view that antialiases and owns the chart.
QChartView* makeChartView(QChart* chart, QWidget* parent = nullptr);

}  // namespace plumbline::ui
