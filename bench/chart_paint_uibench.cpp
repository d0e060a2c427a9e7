// What one live tick costs the studio to draw, with and without MetricChart's cache of Qt
// Charts' part of the picture (axes, labels, legend), measured in one run so the two compare
// as a ratio: the run grid (nine charts, 1400x700) filled with 150 s of ticks, then per
// iteration one more tick, flush, and a paint of the whole grid into an image. Process CPU time
// (Qt's raster engine may hand fills to its pool threads).
//   build/release/bench/chart_paint_uibench   (offscreen unless QT_QPA_PLATFORM says otherwise)
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <memory>

#include "core/live/live_messages.h"
#include "ui/charts/metric_chart.h"
#include "ui/charts/run_charts.h"

namespace {

using plumbline::ui::charts::MetricChart;
using plumbline::ui::charts::RunCharts;

plumbline::live::LiveTick tickAt(int i) {
  plumbline::live::LiveTick t;
  t.atNs = int64_t{i} * 250'000'000;
  t.requestedRps = 5000;
  t.achievedRps = 4990 + (i * 7) % 21;
  t.inFlight = 3 + i % 5;
  t.sent = static_cast<uint64_t>(i) * 1250;
  t.ttft = {0.4 + (i % 13) * 0.05, 1.5 + (i % 17) * 0.2, 1250};
  t.e2eFromPlanned = {0.6 + (i % 11) * 0.05, 2.0 + (i % 19) * 0.2, 1250};
  return t;
}

void paintTicks(benchmark::State& state) {
  const bool cached = state.range(0) != 0;
  RunCharts charts;
  charts.resize(1400, 700);
  for (MetricChart* c : charts.findChildren<MetricChart*>()) c->setCachesQtChartsPicture(cached);
  int i = 1;
  for (; i <= 600; ++i) charts.appendTick(tickAt(i));
  charts.flush();
  QImage image(charts.size(), QImage::Format_ARGB32_Premultiplied);
  charts.render(&image);  // lays the charts out once
  QCoreApplication::processEvents();
  for (auto _ : state) {
    charts.appendTick(tickAt(i++));
    charts.flush();
    QCoreApplication::processEvents();  // the scene's change notifications, as on screen
    charts.render(&image);
    benchmark::DoNotOptimize(image.constBits());
  }
  state.SetLabel(cached ? "cached Qt Charts picture" : "Qt Charts paints every tick");
}
BENCHMARK(paintTicks)->Arg(1)->Arg(0)->ArgName("cached")->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
