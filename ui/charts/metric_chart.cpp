#include "ui/charts/metric_chart.h"

#include <QChart>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLineSeries>
#include <QPaintEngine>
#include <QPaintEvent>
#include <QPainter>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace plumbline::ui::charts {

namespace {

/// A round axis maximum at or above v (1, 2 or 5 times a power of ten).
double niceCeiling(double v) {
  if (v <= 0) return 1;
  const double p = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * p >= v) return m * p;
  }
  return 10 * p;
}

/// Calls piece(first, last) for each run of points (indices, last excluded) no break splits:
/// points a and b are apart when a break lies after a and before b.
template <typename Piece>
void forEachPiece(const std::vector<metrics::SeriesPoint>& points,
                  const std::vector<double>& breaks, Piece&& piece) {
  size_t first = 0;
  auto b = breaks.begin();
  for (size_t i = 1; i < points.size(); ++i) {
    while (b != breaks.end() && *b <= points[i - 1].x) ++b;
    if (b != breaks.end() && *b < points[i].x) {
      piece(first, i);
      first = i;
    }
  }
  if (first < points.size()) piece(first, points.size());
}

}  // namespace

MetricChart::MetricChart(const QString& title, const QString& yUnit, QWidget* parent)
    // The chart goes to the constructor: QChartView(parent) would make a default chart that a
    // later setChart() releases without ever deleting it (one orphaned QChart per view).
    : QChartView(new QChart, parent), m_title(title) {
  QChart* chart = this->chart();
  chart->setTitle(title);
  QFont titleFont = chart->titleFont();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 0.95);
  titleFont.setBold(true);
  chart->setTitleFont(titleFont);
  chart->setMargins(QMargins(2, 2, 2, 2));
  chart->layout()->setContentsMargins(0, 0, 0, 0);
  chart->setBackgroundRoundness(0);
  chart->legend()->setAlignment(Qt::AlignBottom);
  QFont small = chart->legend()->font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  chart->legend()->setFont(small);
  m_x = new QValueAxis;
  m_x->setTitleText(QStringLiteral("time since start (s)"));
  m_x->setLabelFormat(QStringLiteral("%g"));
  m_y = new QValueAxis;
  m_y->setTitleText(yUnit);
  m_y->setLabelFormat(QStringLiteral("%g"));
  for (QValueAxis* axis : {m_x, m_y}) {
    axis->setLabelsFont(small);
    QFont axisTitle = small;
    axisTitle.setBold(false);
    axis->setTitleFont(axisTitle);
  }
  rescale();
  chart->addAxis(m_x, Qt::AlignBottom);
  chart->addAxis(m_y, Qt::AlignLeft);
  setRenderHint(QPainter::Antialiasing, false);
  // paintEvent covers every pixel (the cached picture, then the lines): the widgets under the
  // chart (tab pane, backgrounds) need not be painted first on every tick.
  viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
  setMinimumSize(220, 150);  // four across a 1000 px window
  m_polyline.reserve(static_cast<qsizetype>(kMaxPoints));
  // Any change Qt Charts makes to what it draws (axes, labels, layout, legend, hover) passes
  // through the scene; the lines do not (the series are empty).
  connect(scene(), &QGraphicsScene::changed, this, [this] { m_staticDirty = true; });
}

MetricChart::Line& MetricChart::line(const QString& name) {
  auto it = m_lines.find(name);
  if (it != m_lines.end()) return *it->second;
  auto l = std::make_unique<Line>();
  l->series = new QLineSeries;
  l->series->setName(name);
  l->series->setUseOpenGL(false);
  chart()->addSeries(l->series);
  l->series->attachAxis(m_x);
  l->series->attachAxis(m_y);
  applyStyle(name, l->series);
  // The line is ours to paint: hiding or showing the series must repaint the plot.
  connect(l->series, &QLineSeries::visibleChanged, viewport(), qOverload<>(&QWidget::update));
  l->drawn.reserve(kMaxPoints);
  m_paintOrder.push_back(l.get());
  return *m_lines.emplace(name, std::move(l)).first->second;
}

void MetricChart::setLegendBeside(bool beside) {
  chart()->legend()->setAlignment(beside ? Qt::AlignRight : Qt::AlignBottom);
}

void MetricChart::setLineStyle(const QString& series, Qt::PenStyle style) {
  m_styles[series] = style;
  if (auto it = m_lines.find(series); it != m_lines.end()) applyStyle(series, it->second->series);
}

void MetricChart::setLineColor(const QString& series, const QColor& color) {
  m_colors[series] = color;
  if (auto it = m_lines.find(series); it != m_lines.end()) applyStyle(series, it->second->series);
}

void MetricChart::applyStyle(const QString& name, QLineSeries* series) const {
  const auto style = m_styles.find(name);
  const auto color = m_colors.find(name);
  if (style == m_styles.end() && color == m_colors.end()) return;
  QPen pen = series->pen();  // the theme's colour, given when the series was added
  if (style != m_styles.end()) {
    pen.setStyle(style->second);
    pen.setWidthF(2);
  }
  if (color != m_colors.end()) pen.setColor(color->second);
  series->setPen(pen);
}

void MetricChart::append(const QString& series, double xSeconds, double y) {
  if (!std::isfinite(y) || !std::isfinite(xSeconds)) return;
  Line& l = line(series);
  l.data.append(xSeconds, y);
  l.dirty = true;
}

void MetricChart::breakLine(const QString& series, double xSeconds) {
  auto it = m_lines.find(series);
  if (it == m_lines.end() || !std::isfinite(xSeconds)) return;
  Line& l = *it->second;
  if (l.data.empty() || xSeconds <= l.data.last().x) return;
  if (!l.breaks.empty() && l.breaks.back() > l.data.last().x) return;  // this gap has one
  l.breaks.push_back(xSeconds);
  l.dirty = true;
  if (l.breaks.size() <= kMaxPoints) return;
  // Bounded like the points: once bins are wider than one point, one break per bin's width.
  const double width = l.data.binWidth();
  size_t kept = 0;
  for (double x : l.breaks)
    if (kept == 0 || x - l.breaks[kept - 1] >= width) l.breaks[kept++] = x;
  l.breaks.resize(kept);
}

void MetricChart::clear() {
  for (auto& [name, l] : m_lines) {
    chart()->removeSeries(l->series);
    delete l->series;
  }
  m_lines.clear();
  m_paintOrder.clear();
  m_xMax = m_yMax = 0;
  m_sharedXMax = 0;
  m_drawnUntil.reset();
  rescale();
  viewport()->update();
}

void MetricChart::setMinimumXSpan(double seconds) {
  if (!(seconds > 0) || seconds == m_minXSpan) return;
  m_minXSpan = seconds;
  rescale();
  viewport()->update();
}

void MetricChart::setSharedXMax(double seconds) {
  if (seconds == m_sharedXMax) return;
  m_sharedXMax = seconds;
  rescale();
  viewport()->update();
}

void MetricChart::setDrawnUntil(double xSeconds) {
  if (m_drawnUntil == xSeconds) return;
  m_drawnUntil = xSeconds;
  for (auto& [name, l] : m_lines) l->dirty = true;
}

bool MetricChart::flush() {
  bool changed = false;
  for (auto& [name, l] : m_lines) {
    if (!l->dirty) continue;
    l->data.pointsInto(l->drawn);
    if (m_drawnUntil)
      while (!l->drawn.empty() && l->drawn.back().x > *m_drawnUntil + 1e-9) l->drawn.pop_back();
    for (const auto& p : l->drawn) m_yMax = std::max(m_yMax, p.y);
    if (!l->drawn.empty()) m_xMax = std::max(m_xMax, l->drawn.back().x);
    l->dirty = false;
    changed = true;
  }
  if (changed) {
    rescale();
    // The lines are ours: Qt Charts does not know they changed. Only the plot area (and the
    // pen's width beyond it) needs painting; new axes repaint their own part via the scene.
    const QRect plot = mapFromScene(chart()->mapRectToScene(chart()->plotArea())).boundingRect();
    viewport()->update(plot.adjusted(-2, -2, 3, 3));
  }
  return changed;
}

void MetricChart::drawForeground(QPainter* painter, const QRectF& rect) {
  QChartView::drawForeground(painter, rect);
  if (m_renderingStatic) return;
  paintLines(painter, chart()->mapRectToScene(chart()->plotArea()), rect);
}

void MetricChart::paintEvent(QPaintEvent* event) {
  QPainter painter(viewport());
  if (!m_cacheStatic || painter.paintEngine()->type() != QPaintEngine::Raster) {
    painter.end();  // e.g. an SVG export: Qt Charts paints itself, in vectors
    QChartView::paintEvent(event);
    return;
  }
  const qreal dpr = viewport()->devicePixelRatioF();
  if (m_staticDirty || m_static.deviceIndependentSize().toSize() != viewport()->size() ||
      m_static.devicePixelRatio() != dpr)
    renderStaticLayer();
  const QRectF exposed = event->rect();
  painter.drawPixmap(exposed, m_static, QRectF(exposed.topLeft() * dpr, exposed.size() * dpr));
  const QRectF plot = mapFromScene(chart()->mapRectToScene(chart()->plotArea())).boundingRect();
  paintLines(&painter, plot, exposed);
}

void MetricChart::renderStaticLayer() {
  const qreal dpr = viewport()->devicePixelRatioF();
  if (m_static.size() != viewport()->size() * dpr) m_static = QPixmap(viewport()->size() * dpr);
  m_static.setDevicePixelRatio(dpr);
  m_static.fill(viewport()->palette().color(viewport()->backgroundRole()));
  QPainter painter(&m_static);
  painter.setRenderHints(renderHints());
  m_renderingStatic = true;
  render(&painter, QRectF(QPointF(0, 0), QSizeF(viewport()->size())), viewport()->rect());
  m_renderingStatic = false;
  m_staticDirty = false;
  ++m_staticRenders;
}

void MetricChart::changeEvent(QEvent* event) {
  m_staticDirty = true;  // palette, font, style: redraw Qt Charts' part
  QChartView::changeEvent(event);
}

void MetricChart::paintLines(QPainter* painter, const QRectF& plot, const QRectF& clip) {
  const double xSpan = m_x->max() - m_x->min(), ySpan = m_y->max() - m_y->min();
  if (plot.isEmpty() || xSpan <= 0 || ySpan <= 0) return;
  painter->save();
  painter->setClipRect(plot.intersected(clip));
  painter->setRenderHint(QPainter::Antialiasing, false);
  const double sx = plot.width() / xSpan, sy = plot.height() / ySpan;
  for (const Line* l : m_paintOrder) {
    if (l->drawn.empty() || !l->series->isVisible() || l->series->pen().style() == Qt::NoPen)
      continue;
    // The series' 2 px pen as three 1 px passes a pixel apart: Qt strokes a wide pen with a
    // join at every point (an atan2 each, most of a tick's paint), a 1 px pen with Bresenham.
    const QPen wide = l->series->pen();
    QPen thin(wide.color(), 1);
    thin.setCosmetic(true);
    if (wide.style() != Qt::SolidLine) {
      QList<qreal> pattern = wide.dashPattern();  // in pen widths: keep the dashes' length
      for (qreal& v : pattern) v *= std::max<qreal>(1, wide.widthF());
      thin.setDashPattern(pattern);
    }
    painter->setPen(thin);
    const int passes = wide.widthF() > 1.5 ? 3 : 1;
    forEachPiece(l->drawn, l->breaks, [&](size_t first, size_t last) {
      m_polyline.clear();
      for (size_t i = first; i < last; ++i)
        m_polyline.append(QPointF(plot.left() + (l->drawn[i].x - m_x->min()) * sx,
                                  plot.bottom() - (l->drawn[i].y - m_y->min()) * sy));
      if (m_polyline.size() == 1) {  // a point between two gaps: a dot, not a pixel
        painter->fillRect(QRectF(m_polyline.first() - QPointF(1, 1), QSizeF(3, 3)), wide.color());
        return;
      }
      for (int pass = 0; pass < passes; ++pass) {
        const QPointF shift(pass == 1 ? 1 : 0, pass == 2 ? 1 : 0);
        painter->translate(shift);
        painter->drawPolyline(m_polyline);
        painter->translate(-shift);
      }
    });
  }
  painter->restore();
}

/// Range 0..a nice ceiling of max, with ticks at a round step (about `ticks` of them).
void MetricChart::setNiceRange(QValueAxis* axis, double max, int ticks) {
  const double top = niceCeiling(max);
  const double step = niceCeiling(top / ticks);
  const double end = step * std::ceil(max / step - 1e-9);
  const double rangeEnd = end > 0 ? end : step;
  // Unchanged axes are left alone: setting them re-lays out their labels on every redraw.
  if (axis->tickType() == QValueAxis::TicksDynamic && axis->tickInterval() == step && axis->min() == 0 &&
      axis->max() == rangeEnd)
    return;
  // Interval before type and range: dynamic ticks with a stale interval lay out thousands.
  axis->setTickInterval(step);
  axis->setTickAnchor(0);
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setRange(0, rangeEnd);
}

void MetricChart::rescale() {
  // About 5 ticks, fewer on a short chart: Qt Charts elides tick labels it has no room for
  // ("…"), which left a short chart's y axis unreadable.
  // (From the widget's height, not the plot area's, which is only known once laid out.)
  const int yTicks = std::clamp((height() - 120) / 20, 2, 5);
  setNiceRange(m_x, std::max({m_minXSpan, m_xMax, m_sharedXMax}), 5);
  setNiceRange(m_y, m_yMax > 0 ? m_yMax * 1.05 : 1.0, yTicks);
}

void MetricChart::resizeEvent(QResizeEvent* event) {
  QChartView::resizeEvent(event);
  rescale();
}

QList<QPointF> MetricChart::drawnPoints(const QString& series) const {
  QList<QPointF> out;
  auto it = m_lines.find(series);
  if (it == m_lines.end()) return out;
  out.reserve(static_cast<qsizetype>(it->second->drawn.size()));
  for (const auto& p : it->second->drawn) out.append(QPointF(p.x, p.y));
  return out;
}

QList<QList<QPointF>> MetricChart::drawnPieces(const QString& series) const {
  QList<QList<QPointF>> out;
  auto it = m_lines.find(series);
  if (it == m_lines.end()) return out;
  const Line& l = *it->second;
  forEachPiece(l.drawn, l.breaks, [&](size_t first, size_t last) {
    QList<QPointF>& piece = out.emplace_back();
    for (size_t i = first; i < last; ++i) piece.append(QPointF(l.drawn[i].x, l.drawn[i].y));
  });
  return out;
}

QStringList MetricChart::seriesNames() const {
  QStringList names;
  for (const auto& [name, l] : m_lines) names.append(name);
  return names;
}

}  // namespace plumbline::ui::charts
