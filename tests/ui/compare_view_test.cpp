// The Compare tab on fixture databases recorded with the real RunWriter: the right deltas,
// the right warnings, charts and their export.
#include <QAbstractItemModelTester>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLegend>
#include <QLegendMarker>
#include <QLogValueAxis>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QXYSeries>
#include <QtTest>
#include <cmath>

#include "tests/fixtures/run_fixture.h"
#include "ui/compare/compare_charts.h"
#include "ui/compare/compare_view.h"
#include "ui/compare/metric_table_model.h"

using namespace plumbline;
using ui::compare::CompareView;
using ui::compare::MetricTableModel;

class CompareViewTest : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir m_dir;
  QString m_db;

  std::unique_ptr<CompareView> compared(const QList<qint64>& ids) {
    ui::StudioContext c;
    c.dbPath = m_db;
    auto view = std::make_unique<CompareView>(c);
    QSignalSpy shown(view.get(), &CompareView::comparisonShown);
    view->compareRuns(ids);
    if (!shown.wait(60000)) qWarning() << "status:" << view->statusText();
    return view;
  }
  double cellRaw(const MetricTableModel* m, const QString& key, int column) {
    return m->index(m->rowOf(key), column).data(MetricTableModel::RawRole).toDouble();
  }

 private slots:
  void init() {
    m_db = m_dir.filePath(QStringLiteral("runs-%1.db").arg(QString::fromLatin1(QTest::currentTestFunction())));
    fixtures::FixtureRun base;
    base.name = "sampled";
    fixtures::FixtureRun greedy;  // the temperature trap, and a slower TTFT
    greedy.name = "greedy";
    greedy.temperature = 0.0;
    greedy.ttftMs = 100;
    fixtures::FixtureRun limited;
    limited.name = "limited";
    limited.harnessLimited = true;
    limited.serverCounts = false;
    fixtures::FixtureRun sweep;
    sweep.name = "sweep";
    sweep.stages = {{10, 5}, {20, 5}};
    sweep.ramp = true;
    for (const auto& f : {base, greedy, limited, sweep}) fixtures::writeFixtureRun(m_db.toStdString(), f);
  }

  void computesTheDeltasAgainstTheBaseline() {
    auto view = compared({1, 2});
    QVERIFY(view->comparison());
    MetricTableModel* m = view->metricModel();
    QAbstractItemModelTester tester(m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(m->columnCount(), 5);  // metric, #1, #2, Δ #2, Δ% #2
    const double base = cellRaw(m, QStringLiteral("ttft_p50_ms"), MetricTableModel::valueColumn(0));
    const double other = cellRaw(m, QStringLiteral("ttft_p50_ms"), MetricTableModel::valueColumn(1));
    QVERIFY(qAbs(base - 50) < 0.5);
    QVERIFY(qAbs(other - 100) < 1.0);
    QCOMPARE(cellRaw(m, QStringLiteral("ttft_p50_ms"), MetricTableModel::absoluteDeltaColumn(1)), other - base);
    QVERIFY(qAbs(cellRaw(m, QStringLiteral("ttft_p50_ms"), MetricTableModel::relativeDeltaColumn(1)) - 1.0) < 0.03);
    const QModelIndex delta = m->index(m->rowOf(QStringLiteral("ttft_p50_ms")), MetricTableModel::relativeDeltaColumn(1));
    QVERIFY(delta.data().toString().startsWith(QStringLiteral("+")));
    QCOMPARE(delta.data(Qt::ForegroundRole).value<QBrush>().color(), QColor(0xb9, 0x1c, 0x1c));  // worse
    QCOMPARE(m->headerData(1, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("#1 (baseline)"));
  }

  // QA 24 D3: two runs of one workload showed "inter-token p99 −11.4 %" in green.
  void aChangeWithinSamplingNoiseIsGreyAndTheStatusSaysNothingChanged() {
    fixtures::FixtureRun first, second;
    first.stages = second.stages = {{20, 40}};  // 800 requests: their p99s are bounded
    first.ttftSpreadSeed = 1;
    second.ttftSpreadSeed = 2;
    fixtures::writeFixtureRun(m_db.toStdString(), first);
    fixtures::writeFixtureRun(m_db.toStdString(), second);
    auto view = compared({5, 6});
    QVERIFY(view->comparison());
    MetricTableModel* m = view->metricModel();
    const QModelIndex delta =
        m->index(m->rowOf(QStringLiteral("ttft_p99_ms")), MetricTableModel::relativeDeltaColumn(1));
    QVERIFY(delta.data().toString() != QStringLiteral("+0.0%"));
    QCOMPARE(delta.data(Qt::ForegroundRole).value<QBrush>().color(), QColor(0x6b, 0x72, 0x80));
    QVERIFY(
        delta.data(Qt::ToolTipRole).toString().contains(QStringLiteral("within sampling noise")));
    const QModelIndex value =
        m->index(m->rowOf(QStringLiteral("ttft_p99_ms")), MetricTableModel::valueColumn(0));
    QVERIFY(value.data(Qt::ToolTipRole).toString().contains(QStringLiteral("from 800 samples")));
    QVERIFY2(view->statusText().contains(QStringLiteral("No figure changed beyond sampling noise")),
             qPrintable(view->statusText()));
  }

  void raisesTheTemperatureTrapFirst() {
    auto view = compared({1, 2});
    const auto& w = view->comparison()->warnings;
    QCOMPARE(w.size(), size_t(1));
    QCOMPARE(w.front().kind, compare::WarningKind::Sampling);
    QVERIFY(view->warningsText().contains(QStringLiteral("temperature: 0.7 (#1) vs 0.0 (#2)")));
  }

  void raisesHarnessLimitedAndTokenSource() {
    auto view = compared({1, 3});
    QVERIFY(view->warningsText().contains(QStringLiteral("#3 limited is harness_limited")));
    QVERIFY(view->warningsText().contains(QStringLiteral("server (#1) vs client (#3)")));
    QCOMPARE(view->comparison()->warnings.size(), size_t(2));
  }

  void noWarningsForLikeRuns() {
    fixtures::FixtureRun again;
    fixtures::writeFixtureRun(m_db.toStdString(), again);
    auto view = compared({1, 5});
    QVERIFY(view->comparison()->warnings.empty());
  }

  void fourRunsWithASweepDrawEveryChart() {
    auto view = compared({1, 2, 3, 4});
    QCOMPARE(view->metricModel()->columnCount(), 2 + 3 * 3);
    QCOMPARE(view->comparison()->loadLatency[3].size(), size_t(4));  // 2 stages + ramp in 2 parts
    for (int tab = 0; tab < view->chartTabs()->count(); ++tab) {
      view->chartTabs()->setCurrentIndex(tab);
      QChart* chart = view->currentChartView()->chart();
      QCOMPARE(chart->series().size(), tab == 3 ? 1 : 4);  // goodput: one bar series
    }
    view->chartTabs()->setCurrentIndex(1);
    for (QAbstractSeries* s : view->currentChartView()->chart()->series()) {
      auto* cdf = qobject_cast<QXYSeries*>(s);  // every fixture TTFT is one value: one step
      QVERIFY(cdf && cdf->count() >= 1);
      QCOMPARE(cdf->points().back().y(), 1.0);
      QVERIFY(cdf->points().back().x() > 49.5);  // 50 ms, or 100 ms for the greedy run
    }
  }

  // QA: the latency CDF's log axis had one label ("10"), the goodput axis ticks at 4.3, 8.6,
  // 12.9, 17.2.
  void axesAreLabelledAtRoundValues() {
    auto view = compared({1, 2});
    view->chartTabs()->setCurrentIndex(1);
    auto* log = qobject_cast<QLogValueAxis*>(
        view->currentChartView()->chart()->axes(Qt::Horizontal).value(0));
    QVERIFY(log);
    auto isPowerOf10 = [](double v) {
      return qAbs(std::log10(v) - std::round(std::log10(v))) < 1e-9;
    };
    QVERIFY2(isPowerOf10(log->min()) && isPowerOf10(log->max()) && log->max() >= 10 * log->min(),
             qPrintable(QStringLiteral("%1 – %2").arg(log->min()).arg(log->max())));
    view->chartTabs()->setCurrentIndex(3);
    auto* y =
        qobject_cast<QValueAxis*>(view->currentChartView()->chart()->axes(Qt::Vertical).value(0));
    QVERIFY(y);
    const double step = (y->max() - y->min()) / (y->tickCount() - 1);
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
    QVERIFY2(QList<double>({1, 2, 2.5, 5}).contains(std::round(mantissa * 100) / 100),
             qPrintable(QString::number(step)));
  }

  // QA: "output tokens/s" deltas were coloured, "input tokens/s" ones not, with no reason given.
  void deltasOfWhatWasAskedForAreGreyAndSaySo() {
    auto view = compared({1, 2});
    const MetricTableModel* m = view->metricModel();
    const QModelIndex input = m->index(m->rowOf(QStringLiteral("input_tokens_per_s")),
                                       MetricTableModel::absoluteDeltaColumn(1));
    QVERIFY(input.data(Qt::ForegroundRole).isValid());
    QVERIFY(input.data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("neither better nor worse")));
  }

  void goodputFollowsTheSlo() {
    auto view = compared({1, 2});
    // Default SLO 500 ms TTFT and 50 ms gap: everything meets it.
    QCOMPARE(view->comparison()->goodput.at(1).met, uint64_t(50));
    view->setSlo(75, 0);  // the greedy run's 100 ms TTFT fails it
    QSignalSpy shown(view.get(), &CompareView::comparisonShown);
    view->compareRuns({1, 2});
    QVERIFY(shown.wait(60000));
    QCOMPARE(view->comparison()->goodput.at(0).met, uint64_t(50));
    QCOMPARE(view->comparison()->goodput.at(1).met, uint64_t(0));
    const MetricTableModel* m = view->metricModel();
    QCOMPARE(cellRaw(m, QStringLiteral("goodput_pct"), MetricTableModel::absoluteDeltaColumn(1)), -100.0);
  }

  // A reasoning model's users wait for its answer, not its first (thinking) token: the SLO row
  // has a TTFA limit, off by default, that judges each request's first answer token.
  void aTtfaLimitJudgesWhenTheAnswerCame() {
    fixtures::FixtureRun thinker;  // run 5: first token at 50 ms, the answer 40 ms later
    thinker.name = "thinker";
    thinker.thinkMs = 40;
    fixtures::writeFixtureRun(m_db.toStdString(), thinker);
    auto view = compared({1, 5});
    QDoubleSpinBox* ttfa = nullptr;
    for (QDoubleSpinBox* box : view->findChildren<QDoubleSpinBox*>())
      if (box->prefix() == QStringLiteral("TTFA ≤ ")) ttfa = box;
    QVERIFY(ttfa);
    QCOMPARE(ttfa->value(), 0.0);  // off: the default 500 ms TTFT limit passes both runs
    QVERIFY(!view->comparison()->slo.ttfaMs);
    QCOMPARE(view->comparison()->goodput.at(1).met, uint64_t(50));
    ttfa->setValue(70);
    QSignalSpy shown(view.get(), &CompareView::comparisonShown);
    view->compareRuns({1, 5});
    QVERIFY(shown.wait(60000));
    QCOMPARE(view->comparison()->slo.ttfaMs.value_or(0), 70.0);
    QCOMPARE(view->comparison()->goodput.at(0).met, uint64_t(50));
    QCOMPARE(view->comparison()->goodput.at(1).met, uint64_t(0));
    view->chartTabs()->setCurrentIndex(3);
    const QString title = view->currentChartView()->chart()->title();
    QVERIFY2(title.contains(QStringLiteral("TTFA ≤ 70 ms")), qPrintable(title));
    view->setSlo(500, 50, 0, 0);  // 0: no TTFA limit again
    view->compareRuns({1, 5});
    QVERIFY(shown.wait(60000));
    QVERIFY(!view->comparison()->slo.ttfaMs);
    // The CDF picker offers the answer's curve, one per run (the plain run's is its TTFT's).
    view->chartTabs()->setCurrentIndex(1);
    QComboBox* cdfPicker = nullptr;
    for (QComboBox* box : view->findChildren<QComboBox*>())
      if (box->findText(QStringLiteral("ttft_from_planned")) >= 0) cdfPicker = box;
    QVERIFY(cdfPicker);
    QVERIFY(cdfPicker->findText(QStringLiteral("ttfa")) >= 0);
    cdfPicker->setCurrentIndex(cdfPicker->findText(QStringLiteral("ttfa")));
    QCOMPARE(view->currentChartView()->chart()->series().size(), 2);
    // And the time-series picker its p99 over time.
    view->chartTabs()->setCurrentIndex(0);
    QComboBox* seriesPicker = nullptr;
    for (QComboBox* box : view->findChildren<QComboBox*>())
      if (box->findText(QStringLiteral("TTFT p99 (ms)")) >= 0) seriesPicker = box;
    QVERIFY(seriesPicker);
    const QString ttfaSeries = QStringLiteral("TTFA p99 (ms)");
    QVERIFY(seriesPicker->findText(ttfaSeries) >= 0);
    seriesPicker->setCurrentIndex(seriesPicker->findText(ttfaSeries));
    QCOMPARE(view->currentChartView()->chart()->title(), QStringLiteral("TTFA p99 (ms) over time"));
    QCOMPARE(view->currentChartView()->chart()->series().size(), 2);
    view->compareRuns({1, 2});  // nobody thought first: no answer curve to pick
    QVERIFY(shown.wait(60000));
    QCOMPARE(cdfPicker->findText(QStringLiteral("ttfa")), -1);
    QCOMPARE(cdfPicker->currentText(), QStringLiteral("ttft"));
    QCOMPARE(seriesPicker->findText(ttfaSeries), -1);
    QCOMPARE(seriesPicker->currentText(), QStringLiteral("TTFT p99 (ms)"));
  }

  void aNonStreamingRunsGoodputIsNotApplicableAndAStoppedRunSaysSo() {
    fixtures::FixtureRun whole;  // run 5: one reply body, stopped before its end
    whole.name = "whole replies";
    whole.stream = false;
    whole.complete = false;
    fixtures::writeFixtureRun(m_db.toStdString(), whole);
    auto view = compared({1, 5});  // the default SLO: TTFT and inter-token limits
    QVERIFY(!view->comparison()->goodput.at(1).judged);
    const MetricTableModel* m = view->metricModel();
    const QModelIndex share =
        m->index(m->rowOf(QStringLiteral("goodput_pct")), MetricTableModel::valueColumn(1));
    QCOMPARE(share.data().toString(), QStringLiteral("n/a (no TTFT without streaming)"));
    QCOMPARE(m->index(share.row(), MetricTableModel::absoluteDeltaColumn(1)).data().toString(),
             QStringLiteral("–"));
    view->chartTabs()->setCurrentIndex(3);
    auto* bars = qobject_cast<QBarSeries*>(view->currentChartView()->chart()->series().value(0));
    QVERIFY(bars && bars->count() == 2);
    QVERIFY2(bars->barSets().at(1)->label().endsWith(
                 QStringLiteral(": n/a (no TTFT without streaming)")),
             qPrintable(bars->barSets().at(1)->label()));
    QCOMPARE(bars->barSets().at(1)->count(), 0);  // no bar at 0
    QVERIFY2(bars->barSets().at(0)->label().contains(QStringLiteral("50 of 50 planned (100.0%)")),
             qPrintable(bars->barSets().at(0)->label()));
    bool pickerSaysStopped = false;
    for (QComboBox* picker : view->findChildren<QComboBox*>())
      for (int i = 0; i < picker->count(); ++i)
        pickerSaysStopped |=
            picker->itemText(i) ==
            QStringLiteral("#5 whole replies · incomplete · kept_up until stopped");
    QVERIFY(pickerSaysStopped);

    view->setSlo(500, 50, 300);  // an end-to-end limit judges it (every reply ends by ~241 ms)
    QSignalSpy shown(view.get(), &CompareView::comparisonShown);
    view->compareRuns({1, 5});
    QVERIFY(shown.wait(60000));
    QVERIFY(view->comparison()->goodput.at(1).partial());
    QCOMPARE(m->index(share.row(), MetricTableModel::valueColumn(1)).data().toString(),
             QStringLiteral("100 (judged on e2e only)"));
  }

  void exportsPngAndSvg() {
    auto view = compared({1, 2});
    view->resize(1200, 800);
    view->chartTabs()->setCurrentIndex(1);
    const QString png = m_dir.filePath(QStringLiteral("cdf.png"));
    const QString svg = m_dir.filePath(QStringLiteral("cdf.svg"));
    QCOMPARE(view->exportCurrentChart(png), QString());
    QCOMPARE(view->exportCurrentChart(svg), QString());
    QVERIFY(QImage(png).width() > 100);
    QFile f(svg);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().contains("<svg"));
    QVERIFY(view->exportCurrentChart(m_dir.filePath(QStringLiteral("x.gif"))).contains(QStringLiteral("use .png or .svg")));
  }

  // QA: lines were joined straight across windows with no value (inter-token p50 ramping
  // 8 → 250 ms over 13 s whose windows all said 250 ms or nothing).
  void aLineOverTimeBreaksWhereWindowsHadNoValue() {
    compare::Comparison c;
    c.runs.resize(2);
    c.runs[0].row.id = 1;
    c.runs[1].row.id = 2;
    c.series.resize(2);
    const auto itl = static_cast<size_t>(compare::SeriesMetric::ItlP99Ms);
    c.series[0][itl] = {
        {0, 8, false}, {1, 9, false}, {9, 250, true}, {10, 250, false}, {14, 7, true}};
    c.series[1][itl] = {{0, 5, false}, {1, 6, false}};
    QChartView shown(ui::compare::overlaidSeriesChart(c, compare::SeriesMetric::ItlP99Ms));
    shown.show();  // legend markers are visible only on a shown chart
    QChart* chart = shown.chart();
    QList<QList<QPointF>> lines;
    for (QAbstractSeries* s : chart->series()) lines.append(qobject_cast<QXYSeries*>(s)->points());
    QCOMPARE(lines.size(), 4);  // run 1 in three pieces, run 2 in one
    QCOMPARE(lines[0], (QList<QPointF>{{0, 8}, {1, 9}}));
    QCOMPARE(lines[1], (QList<QPointF>{{9, 250}, {10, 250}}));
    QCOMPARE(lines[2], (QList<QPointF>{{14, 7}}));  // alone: drawn as a point
    QVERIFY(qobject_cast<QXYSeries*>(chart->series()[2])->pointsVisible());
    int named = 0;  // the legend names each run once
    for (QLegendMarker* m : chart->legend()->markers()) named += m->isVisible() ? 1 : 0;
    QCOMPARE(named, 2);
  }

  void badSelectionsSayWhy() {
    ui::StudioContext c;
    c.dbPath = m_db;
    CompareView view(c);
    view.compareRuns({1});
    QVERIFY(view.statusText().contains(QStringLiteral("give 2 to 4 run ids (got 1)")));
    QVERIFY(!view.comparison());
  }
};

QTEST_MAIN(CompareViewTest)
#include "compare_view_test.moc"
