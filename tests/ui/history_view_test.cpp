// The History tab on fixture databases recorded with the real RunWriter.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "core/store/database.h"
#include "core/store/run_reader.h"
#include "tests/fixtures/run_fixture.h"
#include "ui/charts/latency_cdf_chart.h"
#include "ui/charts/metric_chart.h"
#include "ui/charts/run_charts.h"
#include "ui/history/history_view.h"
#include "ui/history/run_detail_pane.h"
#include "ui/history/run_filter_proxy.h"
#include "ui/history/run_table_model.h"

using namespace plumbline;
using ui::history::HistoryView;
using ui::history::RunFilterProxy;
using ui::history::RunTableModel;

/// The first 429 of run 4, as a run stores it in its summary.
constexpr const char* kSetFailureSampleSql =
    "UPDATE runs SET summary_json = json_set(summary_json, '$.failure_samples', "
    "json_object('rate_limited', json_object('status', 429, 'sent_at_s', 0.2, 'body', "
    "'{\"error\":\"slow down\"}'))) WHERE id = 4";

class HistoryViewTest : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir m_dir;
  QString m_db;
  ui::StudioContext context() const {
    ui::StudioContext c;
    c.dbPath = m_db;
    return c;
  }
  QList<qint64> visibleIds(const HistoryView& view) const {
    QList<qint64> ids;
    for (int r = 0; r < view.proxy()->rowCount(); ++r)
      ids << view.proxy()->index(r, 0).data(RunTableModel::IdRole).toLongLong();
    return ids;
  }

 private slots:
  void init() {
    m_db = m_dir.filePath(QStringLiteral("runs-%1.db").arg(QString::fromLatin1(QTest::currentTestFunction())));
    fixtures::FixtureRun a;
    a.name = "alpha baseline";
    a.stages = {{10, 5}};
    fixtures::FixtureRun b;
    b.name = "beta greedy";
    b.temperature = 0.0;
    b.stages = {{30, 5}};
    b.ttftMs = 80;
    fixtures::FixtureRun c;
    c.name = "gamma limited";
    c.harnessLimited = true;
    c.stages = {{20, 5}};
    for (const auto& f : {a, b, c}) fixtures::writeFixtureRun(m_db.toStdString(), f);
  }

  void modelsPassTheTester() {
    HistoryView view(context());
    QAbstractItemModelTester modelTester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(view.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(view.model()->rowCount(), 3);
    view.refresh();  // a reset under the testers
    view.filterEdit()->setText(QStringLiteral("beta"));
    view.proxy()->sort(RunTableModel::TtftP99, Qt::AscendingOrder);
    QCOMPARE(view.proxy()->rowCount(), 1);
  }

  void showsTheColumnsOfEachRun() {
    HistoryView view(context());
    const RunTableModel* m = view.model();
    int row = m->rowOf(2);
    QVERIFY(row >= 0);
    auto text = [&](int column) { return m->index(row, column).data().toString(); };
    QCOMPARE(text(RunTableModel::Name), QStringLiteral("beta greedy"));
    QCOMPARE(text(RunTableModel::Verdict), QStringLiteral("kept_up"));
    QCOMPARE(text(RunTableModel::RequestedRps), QStringLiteral("30.0"));
    QCOMPARE(text(RunTableModel::Workload), QStringLiteral("fixture workload"));
    QVERIFY(text(RunTableModel::Target).contains(QStringLiteral("mock")));
    QCOMPARE(m->index(m->rowOf(3), RunTableModel::Verdict).data().toString(),
             QStringLiteral("harness_limited"));
  }

  void sortsByRawNumbers() {
    HistoryView view(context());
    view.table()->sortByColumn(RunTableModel::RequestedRps, Qt::AscendingOrder);
    QCOMPARE(visibleIds(view), (QList<qint64>{1, 3, 2}));  // 10, 20, 30 rps
    view.table()->sortByColumn(RunTableModel::TtftP99, Qt::DescendingOrder);
    QCOMPARE(visibleIds(view).front(), qint64(2));  // 80 ms TTFT
    view.table()->sortByColumn(RunTableModel::Id, Qt::DescendingOrder);
    QCOMPARE(visibleIds(view), (QList<qint64>{3, 2, 1}));
  }

  void aStoppedRunSaysSoWhereItsVerdictIsShown() {
    fixtures::FixtureRun stopped;
    stopped.name = "delta stopped";
    stopped.complete = false;  // kept up until a stop: `runs list` says status incomplete
    const qint64 id = fixtures::writeFixtureRun(m_db.toStdString(), stopped);
    HistoryView view(context());
    const QModelIndex verdict =
        view.model()->index(view.model()->rowOf(id), RunTableModel::Verdict);
    QCOMPARE(verdict.data().toString(), QStringLiteral("incomplete · kept_up until stopped"));
    QVERIFY(verdict.data(Qt::ForegroundRole).value<QBrush>().color() != QColor(0x1b, 0x7a, 0x2e));
    view.verdictFilter()->setCurrentIndex(3);  // unfinished
    QCOMPARE(visibleIds(view), QList<qint64>{id});
    view.detail()->showRun(m_db, id);
    QVERIFY2(view.detail()->bannerText().startsWith(
                 QStringLiteral("Verdict: incomplete · kept_up until stopped (judged on what was "
                                "planned before the stop)")),
             qPrintable(view.detail()->bannerText()));
  }

  void filtersByTextTagsAndVerdict() {
    HistoryView view(context());
    view.filterEdit()->setText(QStringLiteral("GAMMA"));
    QCOMPARE(visibleIds(view), QList<qint64>{3});
    QVERIFY2(view.statusText().startsWith(QStringLiteral("1 of 3 runs shown (filtered) in ")),
             qPrintable(view.statusText()));
    view.filterEdit()->setText(QStringLiteral("fixture alpha"));  // every word must match
    QCOMPARE(visibleIds(view), QList<qint64>{1});
    view.filterEdit()->clear();
    view.verdictFilter()->setCurrentIndex(2);  // harness_limited
    QCOMPARE(visibleIds(view), QList<qint64>{3});
    view.verdictFilter()->setCurrentIndex(1);  // kept_up
    QCOMPARE(visibleIds(view).size(), 2);
    view.verdictFilter()->setCurrentIndex(0);
    // Tags are searchable once saved from the detail pane.
    QVERIFY2(view.statusText().startsWith(QStringLiteral("3 runs in ")),
             qPrintable(view.statusText()));
    view.selectRuns({2});
    // Repeats, whatever their case, and blanks are dropped; the field shows what was saved.
    view.detail()->tagsEdit()->setText(QStringLiteral("h100, nightly, nightly,  , H100"));
    QVERIFY(view.detail()->saveTags());
    QCOMPARE(view.detail()->tagsEdit()->text(), QStringLiteral("h100, nightly"));
    QCOMPARE(view.detail()->statusText(), QStringLiteral("Tags saved."));
    view.filterEdit()->setText(QStringLiteral("nightly"));
    QCOMPARE(visibleIds(view), QList<qint64>{2});
    QCOMPARE(store::RunReader(m_db.toStdString()).tags(2),
             (std::vector<std::string>{"h100", "nightly"}));
  }

  void detailSaysWhatRetryAfterAskedFor() {
    fixtures::FixtureRun limited;
    limited.name = "delta rate limited";
    limited.stages = {{20, 5}};
    limited.errorEvery = 5;  // every 5th request a 429 asking for 7 s
    limited.retryAfterS = 7;
    fixtures::writeFixtureRun(m_db.toStdString(), limited);  // run 4
    HistoryView view(context());
    view.selectRuns({4});
    QVERIFY2(view.detail()->metaText().endsWith(
                 QStringLiteral(" · 20 replies asked to retry after 7 s (not obeyed)")),
             qPrintable(view.detail()->metaText()));
    QVERIFY2(view.statusText().startsWith(QStringLiteral("4 runs in ")),
             qPrintable(view.statusText()));
    // What failed is beside the verdict, and in the table's Failed column.
    QVERIFY2(view.detail()->bannerText().contains(
                 QStringLiteral(" · 20 of 100 sent failed (rate_limited 20)")),
             qPrintable(view.detail()->bannerText()));
    const QAbstractItemModel* m = view.model();
    QCOMPARE(m->index(view.model()->rowOf(4), RunTableModel::Failed).data().toString(),
             QStringLiteral("20 (20%)"));
    QCOMPARE(m->headerData(RunTableModel::Failed, Qt::Horizontal).toString(),
             QStringLiteral("Failed"));
    view.selectRuns({1});  // no Retry-After in that run: nothing said
    QVERIFY2(!view.detail()->metaText().contains(QStringLiteral("retry")),
             qPrintable(view.detail()->metaText()));
    QVERIFY2(!view.detail()->bannerText().contains(QStringLiteral("failed")),
             qPrintable(view.detail()->bannerText()));
    QCOMPARE(m->index(view.model()->rowOf(1), RunTableModel::Failed).data().toString(),
             QStringLiteral("0"));
    // A damaged summary (a count that is not a number) says nothing of it, and the rest shows.
    store::Database::open(m_db.toStdString(), store::Database::Mode::ReadWrite)
        .exec(
            "UPDATE runs SET summary_json = json_set(summary_json, '$.retry_after.responses', "
            "'many') "
            "WHERE id = 4");
    view.selectRuns({4});
    QVERIFY2(view.detail()->bannerText().startsWith(QStringLiteral("Verdict: ")),
             qPrintable(view.detail()->bannerText()));
    QVERIFY2(view.detail()->metaText().startsWith(QStringLiteral("#4 · ")),
             qPrintable(view.detail()->metaText()));
    QVERIFY2(!view.detail()->metaText().contains(QStringLiteral("retry")),
             qPrintable(view.detail()->metaText()));

    // Why they failed, as the server said it: the first reply of the class, on its own line.
    store::Database::open(m_db.toStdString(), store::Database::Mode::ReadWrite)
        .exec(kSetFailureSampleSql);
    view.selectRuns({1});  // selecting the selected run again would not re-read it
    view.selectRuns({4});
    QVERIFY2(view.detail()->metaText().endsWith(
                 QStringLiteral("\nfirst rate_limited reply: HTTP 429: {\"error\":\"slow down\"}")),
             qPrintable(view.detail()->metaText()));
    // A damaged one says nothing (the rest still shows).
    store::Database::open(m_db.toStdString(), store::Database::Mode::ReadWrite)
        .exec(
            "UPDATE runs SET summary_json = json_set(summary_json, "
            "'$.failure_samples.rate_limited.status', 'soon') WHERE id = 4");
    view.selectRuns({1});
    view.selectRuns({4});
    QVERIFY2(view.detail()->metaText().startsWith(QStringLiteral("#4 · ")),
             qPrintable(view.detail()->metaText()));
    QVERIFY2(!view.detail()->metaText().contains(QStringLiteral("first ")),
             qPrintable(view.detail()->metaText()));
  }

  void detailShowsVerdictAndChartsAndEdits() {
    HistoryView view(context());
    view.selectRuns({3});
    QCOMPARE(view.detail()->runId(), qint64(3));
    QVERIFY(view.detail()->bannerText().startsWith(QStringLiteral("Verdict: harness_limited")));
    QVERIFY(view.detail()->bannerText().contains(QStringLiteral("could not keep up")));
    // The live view's chart grid, loaded from the stored windows: 20 req/s planned and
    // achieved, TTFT 50 ms, and the whole-run CDFs from the run's final histograms.
    ui::charts::RunCharts* charts = view.detail()->charts();
    const QList<QPointF> achieved = charts->drawnPoints(QStringLiteral("rate"), QStringLiteral("achieved"));
    QVERIFY(achieved.size() >= 5);
    for (const QPointF& p : achieved) {  // the 5 s stage; the chart stops at the run's end
      QVERIFY2(p.x() <= 5 + 1e-9, qPrintable(QString::number(p.x())));
      QVERIFY2(qAbs(p.y() - 20) < 1.5, qPrintable(QString::number(p.y())));
    }
    for (const QPointF& p : charts->drawnPoints(QStringLiteral("ttft"), QStringLiteral("p50")))
      QVERIFY2(qAbs(p.y() - 50) < 2.5, qPrintable(QString::number(p.y())));
    QVERIFY(!charts->drawnPoints(QStringLiteral("tokens"), QStringLiteral("output tokens/s")).isEmpty());
    QVERIFY(!charts->cdfChart()->isHidden());
    QCOMPARE(charts->cdfChart()->seriesNames(),
             (QStringList{QStringLiteral("time to first token"), QStringLiteral("inter-token"),
                          QStringLiteral("end-to-end")}));
    const QList<QPointF> ttftCdf = charts->cdfChart()->drawnPoints(QStringLiteral("time to first token"));
    QVERIFY(!ttftCdf.isEmpty());
    QCOMPARE(ttftCdf.last().y(), 1.0);
    QCOMPARE(ttftCdf.first().y(),
             0.0);  // rises from 0 (QA: it started mid-air at the first bucket's share)
    QCOMPARE(ttftCdf.first().x(), ttftCdf.at(1).x());
    for (const QPointF& p : ttftCdf)  // every TTFT is 50 ms: the curve jumps there
      if (p.y() >= 0.5) QVERIFY2(qAbs(p.x() - 50) < 2.5, qPrintable(QString::number(p.x())));
    // The CDFs share the headline chart's cell: the grid needs no more height with them.
    const int withCdf = charts->minimumSizeHint().height();
    // Opening another run replaces the charts; a missing run clears them and hides the CDFs.
    view.detail()->showRun(m_db, 99);
    // (the CDF chart's own minimum is a little taller than a metric chart's; a fourth row
    // for it, as before, added at least a whole metric chart's minimum height)
    const int rowHeight = charts->findChildren<plumbline::ui::charts::MetricChart*>().value(0)->minimumHeight();
    QVERIFY(rowHeight > 0);
    QVERIFY2(withCdf < charts->minimumSizeHint().height() + rowHeight,
             qPrintable(QStringLiteral("%1 vs %2 + %3").arg(withCdf).arg(charts->minimumSizeHint().height()).arg(rowHeight)));
    QVERIFY(charts->drawnPoints(QStringLiteral("rate"), QStringLiteral("achieved")).isEmpty());
    QVERIFY(charts->cdfChart()->isHidden());
    QVERIFY(view.detail()->bannerText().contains(QStringLiteral("no longer in the database")));
    view.detail()->showRun(m_db, 3);
    QCOMPARE(view.detail()->runId(), qint64(3));
    QVERIFY(!charts->cdfChart()->isHidden());
    view.detail()->nameEdit()->setText(QStringLiteral("gamma renamed"));
    QVERIFY(view.detail()->saveName());
    QCOMPARE(view.model()->index(view.model()->rowOf(3), RunTableModel::Name).data().toString(),
             QStringLiteral("gamma renamed"));
    view.detail()->nameEdit()->setText(QStringLiteral("   "));
    QVERIFY(!view.detail()->saveName());
    QVERIFY(view.detail()->statusText().contains(QStringLiteral("the name must not be empty")));
    view.detail()->notesEdit()->setPlainText(QStringLiteral("rerun on a quiet machine"));
    QVERIFY(view.detail()->saveNotes());
    QCOMPARE(store::RunReader(m_db.toStdString()).getRun(3)->notes.value_or(""),
             std::string("rerun on a quiet machine"));
    view.detail()->tagsEdit()->setText(QStringLiteral("bad\ttag"));
    QVERIFY(!view.detail()->saveTags());
  }

  // A reasoning model's run: its TTFT counts the first thinking token, so the time to its first
  // answer token is drawn beside TTFT, over time and as a CDF, from the stored histograms. A run
  // whose model answered with its first token (run 1) gets neither: they would repeat TTFT.
  void aRunThatThoughtFirstShowsItsTimeToFirstAnswer() {
    fixtures::FixtureRun thinker;  // run 4: TTFT 50 ms, the answer 40 ms of thinking later
    thinker.name = "delta thinks";
    thinker.thinkMs = 40;
    fixtures::writeFixtureRun(m_db.toStdString(), thinker);
    HistoryView view(context());
    view.selectRuns({4});
    ui::charts::RunCharts* charts = view.detail()->charts();
    const QString ttft = QStringLiteral("ttft");
    const QList<QPointF> answer = charts->drawnPoints(ttft, QStringLiteral("p50 to answer"));
    QVERIFY(answer.size() >= 5);
    for (const QPointF& p : answer)
      QVERIFY2(qAbs(p.y() - 90) < 2, qPrintable(QString::number(p.y())));
    QVERIFY(!charts->drawnPoints(ttft, QStringLiteral("p99 to answer")).isEmpty());
    for (const QPointF& p : charts->drawnPoints(ttft, QStringLiteral("p50")))
      QVERIFY2(qAbs(p.y() - 50) < 2, qPrintable(QString::number(p.y())));
    QCOMPARE(
        charts->cdfChart()->seriesNames(),
        (QStringList{QStringLiteral("time to first token"), QStringLiteral("inter-token"),
                     QStringLiteral("end-to-end"), QStringLiteral("time to first answer token")}));
    const QList<QPointF> cdf =
        charts->cdfChart()->drawnPoints(QStringLiteral("time to first answer token"));
    QVERIFY(!cdf.isEmpty());
    for (const QPointF& p : cdf)  // every answer began 90 ms after the send
      if (p.y() >= 0.5) QVERIFY2(qAbs(p.x() - 90) < 2, qPrintable(QString::number(p.x())));

    view.selectRuns({1});
    QVERIFY(!charts->seriesNames(ttft).contains(QStringLiteral("p50 to answer")));
    QVERIFY(
        !charts->cdfChart()->seriesNames().contains(QStringLiteral("time to first answer token")));
  }

  // QA: at 1000 × 700 opening History grew the window to ~1262 × 837 by itself, and the
  // latency CDF card covered the top of the In-flight and Errors charts.
  void aSmallWindowScrollsTheChartsInsteadOfOverlappingOrGrowing() {
    HistoryView view(context());
    view.resize(1000, 640);
    view.show();
    view.selectRuns({3});
    QVERIFY(!view.detail()->charts()->cdfChart()->isHidden());
    QCoreApplication::processEvents();
    QVERIFY2(view.minimumSizeHint().width() <= 1000 && view.minimumSizeHint().height() <= 640,
             qPrintable(QStringLiteral("%1 × %2")
                            .arg(view.minimumSizeHint().width())
                            .arg(view.minimumSizeHint().height())));
    QCOMPARE(view.size(), QSize(1000, 640));
    ui::charts::RunCharts* charts = view.detail()->charts();
    QVERIFY(charts->height() >= charts->minimumSizeHint().height());
    const QRect cdf = charts->cdfChart()->geometry();
    for (auto* c : charts->findChildren<plumbline::ui::charts::MetricChart*>())
      QVERIFY2(!c->geometry().intersects(cdf), qPrintable(c->title()));
  }

  void deleteAsksFirstAndHonoursTheAnswer() {
    HistoryView view(context());
    QString asked;
    view.setConfirm([&](const QString& q) { asked = q; return false; });
    view.selectRuns({1, 3});
    QCOMPARE(view.deleteSelected(), 0);
    QVERIFY(asked.contains(QStringLiteral("#1 alpha baseline")));
    QVERIFY(asked.contains(QStringLiteral("#3 gamma limited")));
    QCOMPARE(view.model()->rowCount(), 3);
    view.setConfirm([](const QString&) { return true; });
    view.selectRuns({1, 3});
    QCOMPARE(view.deleteSelected(), 2);
    QCOMPARE(view.model()->rowCount(), 1);
    store::RunReader reader(m_db.toStdString());
    QVERIFY(!reader.getRun(1));
    QCOMPARE(reader.requestCount(1), int64_t(0));
    QVERIFY(reader.windows(3).empty());
  }

  void exportsCsvAndJson() {
    HistoryView view(context());
    const QString csv = m_dir.filePath(QStringLiteral("run1.csv"));
    const QString json = m_dir.filePath(QStringLiteral("run1.json"));
    QCOMPARE(view.exportRun(1, csv, QStringLiteral("csv")), QString());
    QCOMPARE(view.exportRun(1, json, QStringLiteral("json")), QString());
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QCOMPARE(text.count('\n'), 51);                               // header + 50 requests
    QVERIFY(text.left(text.indexOf('\n')).endsWith(",held_ns"));  // each request's loop hold
    QFile j(json);
    QVERIFY(j.open(QIODevice::ReadOnly));
    auto parsed = nlohmann::json::parse(j.readAll().toStdString());
    QCOMPARE(parsed["requests"].size(), size_t(50));
    QVERIFY(view.exportRun(99, csv, QStringLiteral("csv")).contains(QStringLiteral("99")));
    QVERIFY(!view.exportRun(1, m_dir.filePath(QStringLiteral("no/such/dir/x.csv")),
                            QStringLiteral("csv")).isEmpty());
  }

  void compareSelectedNeedsTwoToFour() {
    HistoryView view(context());
    QSignalSpy spy(&view, &HistoryView::compareRequested);
    view.selectRuns({2});
    QVERIFY(!view.compareSelected());
    view.selectRuns({1, 2});
    QVERIFY(view.compareSelected());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).value<QList<qint64>>().size(), 2);
    // The run picked first is the baseline, wherever its row is: click 1, then ctrl-click 3.
    view.table()->sortByColumn(RunTableModel::Id, Qt::DescendingOrder);  // 3 above 1
    auto rowOf = [&view](qint64 id) {
      return view.proxy()->mapFromSource(view.model()->index(view.model()->rowOf(id), 0));
    };
    view.table()->selectionModel()->select(
        rowOf(1), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    view.table()->selectionModel()->select(rowOf(3),
                                           QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QCOMPARE(view.selectedRunIds(), (QList<qint64>{1, 3}));
    QVERIFY(view.compareSelected());
    QCOMPARE(spy.at(1).at(0).value<QList<qint64>>(), (QList<qint64>{1, 3}));
  }

  void refreshPicksUpNewRunsAndKeepsSelection() {
    HistoryView view(context());
    view.selectRuns({2});
    fixtures::writeFixtureRun(m_db.toStdString(), fixtures::FixtureRun{});
    view.refresh();
    QCOMPARE(view.model()->rowCount(), 4);
    QCOMPARE(view.selectedRunIds(), QList<qint64>{2});
  }

  void missingDatabaseSaysSo() {
    ui::StudioContext c;
    c.dbPath = m_dir.filePath(QStringLiteral("nothing-here.db"));
    HistoryView view(c);
    QCOMPARE(view.model()->rowCount(), 0);
    QVERIFY(view.statusText().contains(QStringLiteral("No runs yet")));
  }

  void oneRunIsCountedInTheSingular() {
    ui::StudioContext c;
    c.dbPath = m_dir.filePath(QStringLiteral("one-run.db"));
    fixtures::writeFixtureRun(c.dbPath.toStdString(), fixtures::FixtureRun{});
    HistoryView view(c);
    QVERIFY2(view.statusText().startsWith(QStringLiteral("1 run in ")),
             qPrintable(view.statusText()));
  }
};

QTEST_MAIN(HistoryViewTest)
#include "history_view_test.moc"
