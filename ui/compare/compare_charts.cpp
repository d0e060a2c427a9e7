#include "ui/compare/compare_charts.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QValueAxis>

#include "core/compare/compare_report.h"
#include "ui/common/line_chart.h"

namespace plumbline::ui::compare {

namespace {

using plumbline::compare::Comparison;

QString runName(const Comparison& c, size_t i) {
  return QString::fromStdString(c.runs[i].label());
}

/// None where the point's requests did not measure it (no TTFT without streaming): no dot at 0.
std::optional<double> yOf(const plumbline::compare::LoadLatencyPoint& p, LoadLatencyY y) {
  switch (y) {
    case LoadLatencyY::TtftP99: return p.ttftP99Ms;
    case LoadLatencyY::TtftP50: return p.ttftP50Ms;
    case LoadLatencyY::ItlP99: return p.itlP99Ms;
    case LoadLatencyY::E2eP99: return p.e2eP99Ms;
  }
  return std::nullopt;
}

QString yTitle(LoadLatencyY y) {
  switch (y) {
    case LoadLatencyY::TtftP99: return QStringLiteral("TTFT p99 (ms)");
    case LoadLatencyY::TtftP50: return QStringLiteral("TTFT p50 (ms)");
    case LoadLatencyY::ItlP99: return QStringLiteral("inter-token p99 (ms)");
    case LoadLatencyY::E2eP99: return QStringLiteral("end-to-end p99 (ms)");
  }
  return {};
}

}  // namespace

QChart* overlaidSeriesChart(const Comparison& c, plumbline::compare::SeriesMetric metric) {
  const QString label = QString::fromUtf8(plumbline::compare::seriesMetricLabel(metric));
  QChart* chart = makeLineChart(label + QStringLiteral(" over time"),
                                QStringLiteral("s since each run's start"), label);
  for (size_t i = 0; i < c.runs.size(); ++i) {
    // A line per stretch of windows with a value: joined across windows without one, it
    // would show values nobody measured. The legend names the run once.
    std::vector<QVector<QPointF>> pieces(1);
    for (const auto& p : c.series[i][static_cast<size_t>(metric)]) {
      if (p.gapBefore && !pieces.back().isEmpty()) pieces.emplace_back();
      pieces.back().append(QPointF(p.tS, p.value));
    }
    for (size_t k = 0; k < pieces.size(); ++k) {
      addLine(chart, runName(c, i), pieces[k], runColor(static_cast<int>(i)),
              /*markers=*/pieces[k].size() == 1);
      if (k > 0)
        for (QLegendMarker* m : chart->legend()->markers(chart->series().back()))
          m->setVisible(false);
    }
  }
  fitAxes(chart);
  return chart;
}

QChart* cdfChart(const Comparison& c, const QString& metric) {
  QChart* chart = makeLineChart(metric + QStringLiteral(" latency CDF (whole run)"),
                                QStringLiteral("ms (log scale)"),
                                QStringLiteral("fraction of requests"), /*logX=*/true);
  for (size_t i = 0; i < c.runs.size(); ++i) {
    const auto* cdf = c.cdf(c.runs[i].row.id, metric.toStdString());
    if (!cdf) continue;
    addLine(chart, runName(c, i), cdfLine(cdf->points), runColor(static_cast<int>(i)));
  }
  fitCdfAxes(chart);
  return chart;
}

QChart* loadLatencyChart(const Comparison& c, LoadLatencyY y) {
  QChart* chart = makeLineChart(QStringLiteral("Latency vs throughput"),
                                QStringLiteral("throughput: completed (req/s)"), yTitle(y));
  for (size_t i = 0; i < c.runs.size(); ++i) {
    QVector<QPointF> points;
    for (const auto& p : c.loadLatency[i])
      if (const auto value = yOf(p, y)) points.append(QPointF(p.completedRps, *value));
    // Stage order, not x order: an overloaded stage that completed less bends the line back.
    addLine(chart, runName(c, i), points, runColor(static_cast<int>(i)), /*markers=*/true);
  }
  fitAxes(chart);
  // Throughput from 0: a lone run's point sat on the left edge of an axis spanning 18.2-19.4.
  for (QAbstractAxis* axis : chart->axes(Qt::Horizontal)) {
    if (auto* v = qobject_cast<QValueAxis*>(axis)) {
      v->setRange(0, v->max() * 1.05);
      v->applyNiceNumbers();
    }
  }
  return chart;
}

QChart* goodputChart(const Comparison& c) {
  auto* chart = new QChart();
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->legend()->setAlignment(Qt::AlignBottom);
  if (c.goodput.empty()) {
    chart->setTitle(
        QStringLiteral("Goodput: set a TTFT, TTFA, inter-token or end-to-end limit and compare "
                       "again"));
    return chart;
  }
  QStringList limits;
  if (c.slo.ttftMs) limits << QStringLiteral("TTFT ≤ %1 ms").arg(*c.slo.ttftMs);
  if (c.slo.ttfaMs) limits << QStringLiteral("TTFA ≤ %1 ms").arg(*c.slo.ttfaMs);
  if (c.slo.itlMs) limits << QStringLiteral("inter-token ≤ %1 ms").arg(*c.slo.itlMs);
  if (c.slo.e2eMs) limits << QStringLiteral("end-to-end ≤ %1 ms").arg(*c.slo.e2eMs);
  chart->setTitle(QStringLiteral("Goodput: requests/s meeting ") +
                  limits.join(QStringLiteral(" and ")) +
                  QStringLiteral(" (% of planned requests)"));
  auto* series = new QBarSeries();
  double top = 0;
  for (size_t i = 0; i < c.runs.size(); ++i) {
    const plumbline::compare::Goodput& g = c.goodput[i];
    // A run the limits cannot judge gets no bar: a bar at 0 would say none met them.
    auto* set = new QBarSet(runName(c, i) + QStringLiteral(": ") +
                            QString::fromStdString(plumbline::compare::goodputText(g)));
    set->setColor(runColor(static_cast<int>(i)));
    if (g.judged) *set << g.perSecond();
    top = std::max(top, g.judged ? g.perSecond() : 0.0);
    series->append(set);
  }
  chart->addSeries(series);
  auto* x = new QBarCategoryAxis();
  x->append(QStringLiteral("goodput"));
  auto* y = new QValueAxis();
  y->setTitleText(QStringLiteral("req/s meeting the SLO"));
  y->setRange(0, top > 0 ? top * 1.1 : 1);
  y->applyNiceNumbers();  // round ticks (QA: 4.3, 8.6, 12.9, 17.2)
  y->setLabelFormat(QStringLiteral("%g"));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  series->attachAxis(x);
  series->attachAxis(y);
  return chart;
}

}  // namespace plumbline::ui::compare
