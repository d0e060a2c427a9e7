// The UI stall monitor: a blocked event loop is a stall; only the UI thread's own CPU work
// counts as a busy stall, not time it spent asleep or waiting for a core.
#include <time.h>

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QThread>

#include "ui/common/ui_stall_monitor.h"

using plumbline::ui::UiStallMonitor;

namespace {

double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

}  // namespace

class UiStallMonitorTest : public QObject {
  Q_OBJECT
 private slots:
  void sleepingIsAStallButNotBusy() {
    UiStallMonitor monitor(10);
    monitor.start();
    QTest::qWait(100);  // a few ticks first
    QThread::msleep(200);
    QTest::qWait(100);
    QVERIFY2(monitor.maxStallMs() >= 150, qPrintable(QString::number(monitor.maxStallMs())));
    QVERIFY2(monitor.maxBusyStallMs() < 50, qPrintable(QString::number(monitor.maxBusyStallMs())));
    QVERIFY(monitor.samples() > 0);
  }

  void cpuWorkOnTheUiThreadIsABusyStall() {
    UiStallMonitor monitor(10);
    monitor.start();
    QTest::qWait(100);
    // 150 ms of this thread's CPU time, however long the machine takes to give it.
    const double until = threadCpuMs() + 150;
    volatile double sink = 0;
    while (threadCpuMs() < until) sink = sink + 1;
    QTest::qWait(100);
    QVERIFY2(monitor.maxBusyStallMs() >= 130, qPrintable(QString::number(monitor.maxBusyStallMs())));
    QVERIFY(monitor.maxStallMs() >= monitor.maxBusyStallMs());
    const QJsonObject stats = QJsonDocument::fromJson(monitor.statsJson().toUtf8()).object();
    QCOMPARE(stats.value(QStringLiteral("busy_stalls_over_50ms")).toInt(), 1);
    QVERIFY(stats.value(QStringLiteral("max_busy_stall_ms")).toDouble() >= 130);
    QVERIFY(stats.value(QStringLiteral("rss_kb")).toInteger() > 0);
  }
};

QTEST_MAIN(UiStallMonitorTest)
#include "ui_stall_monitor_test.moc"
