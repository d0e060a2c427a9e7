#pragma once
#include <QChartView>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <map>
#include <memory>

#include "core/metrics/series_decimator.h"

class QLineSeries;
class QValueAxis;

namespace plumbline::ui::charts {

/// One chart of the run grid: named line series over time (seconds since t0). Points are
/// kept in core's SeriesDecimator (bounded); the Qt series are only touched by flush(), so
/// appends cost nothing on screen until the owner's coalescing timer fires.
class MetricChart : public QChartView {
  Q_OBJECT
 public:
  /// Bins per series: at most twice as many points, about two per pixel of a chart in the
  /// grid. Qt Charts keeps each drawn point several times over (the series, its geometry,
  /// the line path and its stroked outline, rebuilt on every redraw), so the memory and the
  /// redraw work of a live run grow with this number until it is reached.
  static constexpr size_t kMaxBins = 250;

  MetricChart(const QString& title, const QString& yUnit, QWidget* parent = nullptr);

  /// Adds a point to the named series (created on first use, in a stable colour order;
  /// series created later are drawn on top).
  void append(const QString& series, double xSeconds, double y);
  /// Draws the named series (now and after clear()) with this pen style, 2 px wide, so a
  /// line drawn on top of an equal one leaves it visible.
  void setLineStyle(const QString& series, Qt::PenStyle style);
  void clear();
  /// Pushes changed series to the chart and rescales the axes; false when nothing changed.
  bool flush();

  /// What the chart currently draws for a series (empty when unknown), for tests and export.
  QList<QPointF> drawnPoints(const QString& series) const;
  QStringList seriesNames() const;
  QString title() const { return m_title; }

 private:
  struct Line {
    QLineSeries* series = nullptr;
    metrics::SeriesDecimator data{kMaxBins};
    bool dirty = false;
  };
  Line& line(const QString& name);
  void rescale();
  static void setNiceRange(QValueAxis* axis, double max);

  QString m_title;
  QValueAxis* m_x = nullptr;
  QValueAxis* m_y = nullptr;
  void applyStyle(const QString& name, QLineSeries* series) const;

  std::map<QString, std::unique_ptr<Line>> m_lines;
  std::map<QString, Qt::PenStyle> m_styles;
  double m_xMax = 0, m_yMax = 0;
};

}  // namespace plumbline::ui::charts
