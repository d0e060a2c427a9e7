#pragma once
#include <QChartView>
#include <QColor>
#include <QList>
#include <QPixmap>
#include <QPointF>
#include <QPolygonF>
#include <QString>
#include <QStringList>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "core/metrics/series_decimator.h"

class QLineSeries;
class QValueAxis;

namespace plumbline::ui::charts {

/// One chart of the run grid: named line series over time (seconds since t0). Points are
/// kept in core's SeriesDecimator (bounded); flush() copies them into a per-line buffer sized
/// for the bound when the line is created, and the chart paints those buffers itself over
/// Qt Charts' axes, grid and legend. Qt Charts' own line items keep several growing copies of
/// every point (the series, its geometry, the line path and a stroked hit-test outline, all
/// rebuilt on every redraw): drawing the lines here keeps a live run's memory at its final
/// size from the first tick and its redraws cheap. The QLineSeries stay, empty, for the
/// legend and the colours.
///
/// Painting on screen, everything Qt Charts draws (background, grid, axes and their labels,
/// title, legend) is rendered once into a pixmap and redrawn only when the scene changes (an
/// axis range, the size, a hover); a tick that only adds points blits it and draws the lines.
/// Re-laying out and rasterising the labels on every tick was most of the studio's CPU while
/// it watched a run, CPU taken from the run on the same cores. Painting elsewhere (SVG export)
/// goes through Qt Charts as usual.
class MetricChart : public QChartView {
  Q_OBJECT
 public:
  /// Bins per series: at most twice as many points (plus the newest), about two per pixel of
  /// a chart in the grid.
  static constexpr size_t kMaxBins = 250;
  static constexpr size_t kMaxPoints = 2 * kMaxBins + 1;

  MetricChart(const QString& title, const QString& yUnit, QWidget* parent = nullptr);

  /// Adds a point to the named series (created on first use, in a stable colour order;
  /// series created later are drawn on top).
  void append(const QString& series, double xSeconds, double y);
  /// No line is drawn across x in the named series: the points before and after it stay apart
  /// (a window or tick without a sample of that metric). Nothing to break before the series'
  /// first point; one break per gap.
  void breakLine(const QString& series, double xSeconds);
  /// Draws the named series (now and after clear()) with this pen style, 2 px wide, so a
  /// line drawn on top of an equal one leaves it visible.
  void setLineStyle(const QString& series, Qt::PenStyle style);
  /// Draws the named series (now and after clear()) in this colour instead of the next one of
  /// the theme's order: a series that means the same in every run keeps its colour.
  void setLineColor(const QString& series, const QColor& color);
  void clear();
  /// The legend beside the plot, one series a row, instead of one row under it: a row of six
  /// series in a chart of the grid elides their names ("p50 fr…", "p50 t…").
  void setLegendBeside(bool beside);
  /// The x axis spans at least this many seconds (kLiveXSpanS unless set): a live run's
  /// axis starts at 10 s and grows with it; a stored run's spans the run, however short.
  void setMinimumXSpan(double seconds);
  static constexpr double kLiveXSpanS = 10;
  /// The x axis reaches at least this far (0: no such need): charts of one grid share the
  /// time range of the one whose data reaches furthest.
  void setSharedXMax(double seconds);
  /// How far this chart's own points reach.
  double dataXMax() const { return m_xMax; }
  /// Points after x are not drawn, in any series (kept: a later call can move it).
  void setDrawnUntil(double xSeconds);
  /// Pushes changed series to the chart and rescales the axes; false when nothing changed.
  bool flush();

  /// What the chart currently draws for a series (empty when unknown), for tests and export.
  QList<QPointF> drawnPoints(const QString& series) const;
  /// The pieces a series is drawn in: its points split where the line is broken.
  QList<QList<QPointF>> drawnPieces(const QString& series) const;
  QStringList seriesNames() const;
  QString title() const { return m_title; }
  /// How often Qt Charts' part of the picture was rendered (not blitted), for tests.
  int staticLayerRenders() const { return m_staticRenders; }
  /// Off: every paint goes through Qt Charts as before the cache (bench/chart_paint_uibench).
  void setCachesQtChartsPicture(bool on) { m_cacheStatic = on; }

 protected:
  void drawForeground(QPainter* painter, const QRectF& rect) override;
  void paintEvent(QPaintEvent* event) override;
  void changeEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  struct Line {
    QLineSeries* series = nullptr;  ///< empty: the legend entry and the pen
    metrics::SeriesDecimator data{kMaxBins};
    std::vector<metrics::SeriesPoint> drawn;  ///< what is painted, capacity kMaxPoints
    /// x of each break, increasing; thinned to one per bin as the data's bins widen
    std::vector<double> breaks;
    bool dirty = false;
  };
  Line& line(const QString& name);
  void rescale();
  /// Paints the lines into plot (in painter coordinates), clipped to clip.
  void paintLines(QPainter* painter, const QRectF& plot, const QRectF& clip);
  void renderStaticLayer();
  static void setNiceRange(QValueAxis* axis, double max, int ticks);

  QString m_title;
  QValueAxis* m_x = nullptr;
  QValueAxis* m_y = nullptr;
  void applyStyle(const QString& name, QLineSeries* series) const;

  std::map<QString, std::unique_ptr<Line>> m_lines;
  std::vector<Line*> m_paintOrder;  ///< creation order: later lines are painted on top
  QPolygonF m_polyline;             ///< scratch for painting, capacity kMaxPoints
  std::map<QString, Qt::PenStyle> m_styles;
  std::map<QString, QColor> m_colors;
  double m_xMax = 0, m_yMax = 0;
  double m_minXSpan = kLiveXSpanS;
  double m_sharedXMax = 0;
  std::optional<double> m_drawnUntil;
  QPixmap m_static;            ///< Qt Charts' part of the picture, as last rendered
  bool m_staticDirty = true;   ///< the scene changed since m_static was rendered
  bool m_renderingStatic = false;
  bool m_cacheStatic = true;
  int m_staticRenders = 0;
};

}  // namespace plumbline::ui::charts
