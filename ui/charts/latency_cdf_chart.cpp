#include "ui/charts/latency_cdf_chart.h"

#include <QChart>
#include <QLegend>
#include <QLineSeries>

#include <iterator>
#include <string_view>

#include "core/compare/latency_cdf.h"
#include "core/compare/stored_histograms.h"
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
  // Each curve keeps its colour whether or not the run has a ttfa curve: a reasoning model's
  // answer comes after its thinking, so only then is time to first answer token a curve of its
  // own (otherwise it is the TTFT curve again).
  static constexpr const char* kMetrics[][2] = {{"ttft", "time to first token"},
                                                {"itl", "inter-token"},
                                                {"e2e", "end-to-end"},
                                                {"ttfa", "time to first answer token"}};
  const bool answerApart = ::plumbline::compare::answerDiffersFromFirstToken(reader, runId);
  for (size_t i = 0; i < std::size(kMetrics); ++i) {
    const auto& [metric, label] = kMetrics[i];
    if (std::string_view(metric) == "ttfa" && !answerApart) continue;
    const auto histogram = ::plumbline::compare::storedHistogram(reader, runId, metric);
    if (!histogram) continue;
    addLine(chart(), QString::fromLatin1(label),
            cdfLine(::plumbline::compare::latencyCdf(*histogram)), runColor(static_cast<int>(i)));
    ++drawn;
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
