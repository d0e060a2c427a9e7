#include "ui/charts/latency_cdf_chart.h"

#include <QChart>
#include <QLegend>
#include <QLineSeries>

#include <algorithm>
#include <stdexcept>

#include "core/compare/latency_cdf.h"
#include "core/metrics/latency_histogram.h"
#include "core/store/run_reader.h"
#include "ui/common/line_chart.h"

namespace plumbline::ui::charts {

namespace {

QChart* emptyCdfChart() {
  QChart* chart = makeLineChart(QStringLiteral("Latency CDF (whole run)"), QStringLiteral("ms"),
                                QStringLiteral("fraction"), /*logX=*/true);
  // Beside the curves: in the grid the chart shares the headline's cell, one row high.
  chart->legend()->setAlignment(Qt::AlignRight);
  return chart;
}

}  // namespace

LatencyCdfChart::LatencyCdfChart(QWidget* parent) : QChartView(emptyCdfChart(), parent) {
  setRenderHint(QPainter::Antialiasing);
  setMinimumSize(220, 150);  // a row of the grid, as high as the charts beside it
}

void LatencyCdfChart::clear() {
  QChart* old = chart();
  setChart(emptyCdfChart());  // the view releases the old chart without deleting it
  delete old;
}

int LatencyCdfChart::loadRun(const store::RunReader& reader, int64_t runId) {
  clear();
  int drawn = 0;
  static constexpr const char* kMetrics[][2] = {
      {"ttft", "time to first token"}, {"itl", "inter-token"}, {"e2e", "end-to-end"}};
  for (const auto& [metric, label] : kMetrics) {
    const std::optional<std::string> blob = reader.histogram(runId, metric, -1);
    if (!blob) continue;
    std::vector<compare::CdfPoint> cdf;
    try {
      cdf = compare::latencyCdf(metrics::LatencyHistogram::deserialize(*blob));
    } catch (const std::invalid_argument&) {
      continue;
    }
    addLine(chart(), QString::fromLatin1(label), cdfLine(cdf), runColor(drawn++));
  }
  fitCdfAxes(chart());
  return drawn;
}

QList<QPointF> LatencyCdfChart::drawnPoints(const QString& series) const {
  for (QAbstractSeries* s : chart()->series())
    if (s->name() == series)
      if (auto* line = qobject_cast<QXYSeries*>(s)) return line->points();
  return {};
}

QStringList LatencyCdfChart::seriesNames() const {
  QStringList names;
  for (QAbstractSeries* s : chart()->series()) names << s->name();
  return names;
}

}  // namespace plumbline::ui::charts
