// A real short run against the embedded simulator, launched by the live view through the
// launcher: it reaches End, the charts fill, and the banner says what the database says.
#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "core/store/run_reader.h"
#include "ui/charts/run_charts.h"
#include "ui/live/live_view.h"
#include "ui/live/notice_model.h"
#include "ui/live/run_launcher.h"
#include "ui/live/target_panel.h"
#include "ui/live/verdict_banner.h"

using namespace plumbline;
using ui::live::VerdictBanner;

class LiveRunTest : public QObject {
  Q_OBJECT
 private slots:
  void thePanelShowsTheWorkloadsTargetAndKeepsWhatThePersonChose() {
    ui::StudioContext ctx;
    ctx.plumblineBin = QStringLiteral(PLUMBLINE_BIN);
    ui::live::LiveView view(ctx);
    using ui::live::RunTarget;
    const QByteArray remote =
        R"({"plumbline":1,"target":{"url":"http://127.0.0.1:9","api_key_env":"K1"}})";
    const QByteArray embedded = R"({"plumbline":1,"target":{"url":"embedded"}})";
    // A workload naming a server runs against that server unless the person says otherwise.
    view.prepareRun(remote, QStringLiteral("/w/remote.json"));
    RunTarget shown = view.targetPanel()->target();
    QCOMPARE(shown.kind, RunTarget::Kind::Url);
    QCOMPARE(shown.url, QStringLiteral("http://127.0.0.1:9"));
    QCOMPARE(shown.keySource, RunTarget::KeySource::Environment);
    QCOMPARE(shown.keyEnvName, QStringLiteral("K1"));
    // The person switches to the simulator; the same workload prepared again (Run from the
    // Designer after an edit elsewhere) keeps that choice.
    view.targetPanel()->selectEmbedded(QStringLiteral("instant"));
    view.prepareRun(remote, QStringLiteral("/w/remote.json"));
    QCOMPARE(view.targetPanel()->target().kind, RunTarget::Kind::Embedded);
    QCOMPARE(view.targetPanel()->target().preset, QStringLiteral("instant"));
    // A workload naming another target is shown as it names it.
    view.prepareRun(embedded, QStringLiteral("/w/embedded.json"));
    QVERIFY(view.targetPanel()->target().kind == RunTarget::Kind::Embedded);
    QCOMPARE(view.targetPanel()->target().preset, QString());  // the workload's own mock settings
    view.prepareRun(remote, QStringLiteral("/w/remote.json"));
    QCOMPARE(view.targetPanel()->target().url, QStringLiteral("http://127.0.0.1:9"));
    // A URL typed wrong is named before Start, as the CLI names it.
    view.targetPanel()->selectUrl(QStringLiteral("http://127.0.0.1:notaport"), QString());
    QCOMPARE(view.targetPanel()->problem(),
             QStringLiteral("Target URL: port 'notaport' is not a number"));
  }

  void aShortEmbeddedRunReachesEndAndTheBannerMatchesTheSummary() {
    QProcess help;
    help.start(QStringLiteral(PLUMBLINE_BIN), {QStringLiteral("run"), QStringLiteral("--help")});
    QVERIFY(help.waitForFinished(30000));
    if (!help.readAllStandardOutput().contains("--live"))
      QSKIP("this plumbline has no `run --live` yet (feat/live)");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ui::StudioContext ctx;
    ctx.plumblineBin = QStringLiteral(PLUMBLINE_BIN);
    ctx.dbPath = dir.filePath(QStringLiteral("runs.db"));
    QFile wf(QStringLiteral(PLUMBLINE_SOURCE_DIR "/workloads/quickstart.json"));
    QVERIFY(wf.open(QIODevice::ReadOnly));

    ui::live::LiveView view(ctx);
    view.resize(1400, 900);
    view.prepareRun(wf.readAll(), wf.fileName());
    view.targetPanel()->selectEmbedded(QStringLiteral("instant"));
    view.setLoadOverride(20, 3);
    view.start();
    QVERIFY2(view.launchedRun().has_value(),
             qPrintable(view.notices()->data(view.notices()->index(0, 0)).toString()));
    QTRY_VERIFY_WITH_TIMEOUT(view.runId() > 0, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isRunning(), 90000);

    const store::RunReader reader(ctx.dbPath.toStdString());
    const auto run = reader.getRun(view.runId());
    QVERIFY(run.has_value());
    QVERIFY(run->verdict.has_value());
    QCOMPARE(view.banner()->state(),
             *run->verdict == "kept_up" ? VerdictBanner::State::KeptUp : VerdictBanner::State::HarnessLimited);
    QVERIFY(!view.charts()->drawnPoints(QStringLiteral("rate"), QStringLiteral("achieved")).isEmpty());
    // The run got the simulator preset, and nothing secret went into the stored spec.
    QVERIFY(QByteArray::fromStdString(run->specJson).contains("\"instant\""));
  }

  void aStudioClosedMidRunLeavesItGoingAndTheNextOneShowsIt() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A private runtime directory: the reopened view must find this run, not another's.
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("runtime")));
    const QByteArray oldRuntime = qgetenv("XDG_RUNTIME_DIR");
    qputenv("XDG_RUNTIME_DIR", dir.filePath(QStringLiteral("runtime")).toUtf8());
    auto restore = qScopeGuard([&] { qputenv("XDG_RUNTIME_DIR", oldRuntime); });
    ui::StudioContext ctx;
    ctx.plumblineBin = QStringLiteral(PLUMBLINE_BIN);
    ctx.dbPath = dir.filePath(QStringLiteral("runs.db"));
    QFile wf(QStringLiteral(PLUMBLINE_SOURCE_DIR "/workloads/quickstart.json"));
    QVERIFY(wf.open(QIODevice::ReadOnly));
    const QByteArray workload = wf.readAll();

    qint64 pid = 0, runId = 0;
    {
      ui::live::LiveView first(ctx);
      first.prepareRun(workload, wf.fileName());
      first.targetPanel()->selectEmbedded(QStringLiteral("instant"));
      first.setLoadOverride(20, 8);
      first.start();
      QVERIFY(first.launchedRun().has_value());
      pid = first.launchedRun()->pid;
      QTRY_VERIFY_WITH_TIMEOUT(first.runId() > 0, 30000);
      runId = first.runId();
    }  // the studio closes mid-run
    QVERIFY2(ui::live::RunLauncher::isAlive(pid), "closing the view ended the run");

    ui::live::LiveView reopened(ctx);
    reopened.attachToRunningRun();
    QTRY_COMPARE_WITH_TIMEOUT(reopened.runId(), runId, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(reopened.banner()->state() != VerdictBanner::State::Running &&
                                 !ui::live::RunLauncher::isAlive(pid), 90000);
    QVERIFY(!reopened.charts()->drawnPoints(QStringLiteral("rate"), QStringLiteral("achieved")).isEmpty());
    const auto run = store::RunReader(ctx.dbPath.toStdString()).getRun(runId);
    QVERIFY(run.has_value());
    QVERIFY(run->verdict.has_value());  // ran to completion in the database
    QCOMPARE(reopened.banner()->state(),
             *run->verdict == "kept_up" ? VerdictBanner::State::KeptUp : VerdictBanner::State::HarnessLimited);
  }
};

QTEST_MAIN(LiveRunTest)
#include "live_run_test.moc"
