#include "ui/history/stored_run_charts.h"

#include <QChartView>
#include <QGridLayout>

#include <algorithm>

#include "core/compare/run_series.h"
#include "ui/common/line_chart.h"

namespace plumbline::ui::history {

namespace {

using plumbline::compare::SeriesMetric;

QVector<QPointF> seriesPoints(const std::vector<store::WindowRow>& windows, SeriesMetric m) {
  QVector<QPointF> out;
  for (const auto& p : plumbline::compare::decimateMinMax(plumbline::compare::windowSeries(windows, m)))
    out.append(QPointF(p.tS, p.value));
  return out;
}

QChart* timeChart(const QString& title, const QString& unit,
                  const std::vector<store::WindowRow>& windows,
                  const std::vector<std::pair<SeriesMetric, QColor>>& lines) {
  QChart* chart = makeLineChart(title, QStringLiteral("s since start"), unit);
  for (const auto& [metric, color] : lines)
    addLine(chart, QString::fromUtf8(plumbline::compare::seriesMetricLabel(metric)), seriesPoints(windows, metric),
            color);
  fitAxes(chart);
  return chart;
}

}  // namespace

StoredRunCharts::StoredRunCharts(QWidget* parent) : QWidget(parent) {
  m_grid = new QGridLayout(this);
  m_grid->setContentsMargins(0, 0, 0, 0);
  m_grid->setSpacing(4);
}

void StoredRunCharts::clear() {
  while (QLayoutItem* item = m_grid->takeAt(0)) {
    delete item->widget();
    delete item;
  }
}

int StoredRunCharts::chartCount() const { return m_grid->count(); }

void StoredRunCharts::setRun(const std::vector<store::WindowRow>& windows,
                             const std::vector<Cdf>& cdfs) {
  clear();
  const QColor blue = runColor(0), red = runColor(1), green = runColor(2), purple = runColor(3);
  QList<QChart*> charts = {
      timeChart(QStringLiteral("Requested vs achieved"), QStringLiteral("req/s"), windows,
                {{SeriesMetric::RequestedRps, Qt::gray}, {SeriesMetric::AchievedRps, blue}}),
      timeChart(QStringLiteral("Time to first token"), QStringLiteral("ms"), windows,
                {{SeriesMetric::TtftP50Ms, blue}, {SeriesMetric::TtftP99Ms, red}}),
      timeChart(QStringLiteral("Inter-token and end-to-end p99"), QStringLiteral("ms"), windows,
                {{SeriesMetric::ItlP99Ms, green}, {SeriesMetric::E2eP99Ms, purple}}),
      timeChart(QStringLiteral("Output tokens/s"), QStringLiteral("tokens/s"), windows,
                {{SeriesMetric::OutputTokensPerS, blue}}),
      timeChart(QStringLiteral("Send lag p99 and errors"), QStringLiteral("ms · errors/s"), windows,
                {{SeriesMetric::SendLagP99Ms, purple}, {SeriesMetric::ErrorsPerS, red}}),
  };
  QChart* cdfChart = makeLineChart(QStringLiteral("Latency CDF (whole run)"), QStringLiteral("ms"),
                                   QStringLiteral("fraction"), /*logX=*/true);
  int i = 0;
  for (const Cdf& cdf : cdfs) {
    QVector<QPointF> points;
    for (const auto& p : cdf.points) points.append(QPointF(std::max(p.valueMs, 1e-3), p.fraction));
    addLine(cdfChart, cdf.name, points, runColor(i++));
  }
  fitAxes(cdfChart);
  charts.append(cdfChart);
  for (int k = 0; k < charts.size(); ++k) m_grid->addWidget(makeChartView(charts[k], this), k / 3, k % 3);
}

}  // namespace plumbline::ui::history
