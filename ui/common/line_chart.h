#pragma once
#include <QColor>
#include <QPointF>
#include <QString>
#include <QVector>

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
/// A view that antialiases and owns the chart.
QChartView* makeChartView(QChart* chart, QWidget* parent = nullptr);

}  // namespace plumbline::ui
