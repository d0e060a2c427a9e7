// A real short run against the embedded simulator, launched by the live view through the
// launcher: it reaches End, the charts fill, and the banner says what the database says.
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "core/store/run_reader.h"
#include "ui/charts/run_charts.h"
#include "ui/live/live_view.h"
#include "ui/live/notice_model.h"
#include "ui/live/target_panel.h"
#include "ui/live/verdict_banner.h"

using namespace plumbline;
using ui::live::VerdictBanner;

class LiveRunTest : public QObject {
  Q_OBJECT
 private slots:
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
};

QTEST_MAIN(LiveRunTest)
#include "live_run_test.moc"
