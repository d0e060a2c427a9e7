#include "ui/common/line_chart.h"

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <iterator>
#include <cmath>
#include <limits>

namespace plumbline::ui {

QColor runColor(int index) {
  static const QColor kColors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28),
                                   QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd),
                                   QColor(0xff, 0x7f, 0x0e), QColor(0x8c, 0x56, 0x4b)};
  return kColors[static_cast<size_t>(index) % std::size(kColors)];
}

QChart* makeLineChart(const QString& title, const QString& xTitle, const QString& yTitle,
                      bool logX) {
  auto* chart = new QChart();
  chart->setTitle(title);
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->setMargins(QMargins(4, 4, 4, 4));
  QAbstractAxis* x = nullptr;
  if (logX) {
    auto* lx = new QLogValueAxis();
    lx->setBase(10);
    lx->setLabelFormat(QStringLiteral("%g"));
    lx->setMinorTickCount(-1);
    x = lx;
  } else {
    auto* vx = new QValueAxis();
    vx->setLabelFormat(QStringLiteral("%g"));
    x = vx;
  }
  x->setTitleText(xTitle);
  auto* y = new QValueAxis();
  y->setTitleText(yTitle);
  y->setLabelFormat(QStringLiteral("%g"));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  return chart;
}

void addLine(QChart* chart, const QString& name, const QVector<QPointF>& points,
             const QColor& color, bool markers, Qt::PenStyle style) {
  auto* s = new QLineSeries();
  s->setName(name);
  s->replace(points);
  QPen pen(color);
  pen.setWidthF(1.6);
  pen.setStyle(style);
  s->setPen(pen);
  s->setPointsVisible(markers);
  chart->addSeries(s);
  for (QAbstractAxis* axis : chart->axes()) s->attachAxis(axis);
}

void fitAxes(QChart* chart) {
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  const bool logX = !chart->axes(Qt::Horizontal).isEmpty() &&
                    chart->axes(Qt::Horizontal).front()->type() == QAbstractAxis::AxisTypeLogValue;
  for (QAbstractSeries* series : chart->series()) {
    auto* line = qobject_cast<QXYSeries*>(series);
    if (!line) continue;
    for (const QPointF& p : line->points()) {
      if (logX && p.x() <= 0) continue;
      x0 = std::min(x0, p.x());
      x1 = std::max(x1, p.x());
      y0 = std::min(y0, p.y());
      y1 = std::max(y1, p.y());
    }
  }
  if (!std::isfinite(x0)) return;
  if (x1 <= x0) x1 = x0 + (logX ? x0 : 1);
  y0 = std::min(y0, 0.0);
  if (y1 <= y0) y1 = y0 + 1;
  for (QAbstractAxis* axis : chart->axes(Qt::Horizontal)) axis->setRange(x0, x1);
  for (QAbstractAxis* axis : chart->axes(Qt::Vertical)) {
    axis->setRange(y0, y1 * 1.05);
    if (auto* v = qobject_cast<QValueAxis*>(axis)) v->applyNiceNumbers();
  }
  if (!logX)
    for (QAbstractAxis* axis : chart->axes(Qt::Horizontal))
      if (auto* v = qobject_cast<QValueAxis*>(axis)) v->applyNiceNumbers();
}

QVector<QPointF> cdfLine(const std::vector<::plumbline::compare::CdfPoint>& cdf) {
  QVector<QPointF> points;
  points.reserve(static_cast<qsizetype>(cdf.size()) + 1);
  for (const ::plumbline::compare::CdfPoint& p : cdf) {
    const double x = std::max(p.valueMs, 1e-3);
    if (points.isEmpty()) points.append(QPointF(x, 0));
    points.append(QPointF(x, p.fraction));
  }
  return points;
}

void fitCdfAxes(QChart* chart) {
  fitAxes(chart);
  double x0 = std::numeric_limits<double>::infinity();
  for (QAbstractSeries* series : chart->series())
    if (auto* line = qobject_cast<QXYSeries*>(series))
      for (const QPointF& p : line->points())
        if (p.y() >= 0.001 && p.x() > 0) {
          x0 = std::min(x0, p.x());
          break;
        }
  // Whole decades: a log axis labels only powers of ten, and one ending inside the decade it
  // starts in (a CDF of 12–95 ms) had a single label.
  for (QAbstractAxis* axis : chart->axes(Qt::Horizontal)) {
    auto* log = qobject_cast<QLogValueAxis*>(axis);
    if (!log || !std::isfinite(x0)) continue;
    const double lo = std::pow(10.0, std::floor(std::log10(x0)));
    const double hi = std::max(lo * 10, std::pow(10.0, std::ceil(std::log10(log->max()) - 1e-9)));
    log->setRange(lo, hi);
  }
  for (QAbstractAxis* axis : chart->axes(Qt::Vertical)) {
    axis->setRange(0.0, 1.0);
    if (auto* v = qobject_cast<QValueAxis*>(axis)) v->setTickCount(5);
  }
}

QChartView* makeChartView(QChart* chart, QWidget* parent) {
  auto* view = new QChartView(chart, parent);
  view->setRenderHint(QPainter::Antialiasing);
  view->setMinimumSize(260, 200);
  return view;
}

}  // namespace plumbline::ui
