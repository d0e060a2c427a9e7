#include <signal.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "ui/live/run_launcher.h"

using plumbline::ui::live::LaunchRequest;
using plumbline::ui::live::RunLauncher;

namespace {

const QByteArray kKey = "sk-test-4f1c9a7e-never-on-argv";

QByteArray readProc(qint64 pid, const char* what) {
  QFile f(QStringLiteral("/proc/%1/%2").arg(pid).arg(QLatin1String(what)));
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

qint64 parentPid(qint64 pid) {
  const QByteArray stat = readProc(pid, "stat");
  const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
  return fields.size() > 1 ? fields[1].toLongLong() : -1;
}

/// Stands in for `plumbline`: records its argv and lives a little while.
QString writeFakeRunner(const QTemporaryDir& dir) {
  const QString path = dir.filePath(QStringLiteral("fake-plumbline"));
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write("#!/bin/sh\necho \"started $#\"\nsleep 20\n");
  f.close();
  f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
  return path;
}

}  // namespace

class RunLauncherTest : public QObject {
  Q_OBJECT
 private slots:
  void argumentsCarryTheRunButNeverTheKey() {
    LaunchRequest r;
    r.plumblineBin = QStringLiteral("/usr/bin/plumbline");
    r.workloadPath = QStringLiteral("/tmp/w.json");
    r.dbPath = QStringLiteral("/tmp/runs.db");
    r.rate = 5000;
    r.durationS = 60;
    r.apiKey = kKey;
    const QStringList args = RunLauncher::arguments(r, QStringLiteral("/run/s.sock"));
    QCOMPARE(args, (QStringList{QStringLiteral("run"), QStringLiteral("/tmp/w.json"), QStringLiteral("--live"),
                                QStringLiteral("/run/s.sock"), QStringLiteral("--db"), QStringLiteral("/tmp/runs.db"),
                                QStringLiteral("--quiet"), QStringLiteral("--rate"), QStringLiteral("5000"),
                                QStringLiteral("--duration"), QStringLiteral("60")}));
    QVERIFY(!args.join(QLatin1Char(' ')).contains(QString::fromLatin1(kKey)));
  }

  void launchesDetachedWithTheKeyInTheEnvironmentOnly() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    LaunchRequest r;
    r.plumblineBin = writeFakeRunner(dir);
    r.workloadPath = dir.filePath(QStringLiteral("w.json"));
    r.dbPath = dir.filePath(QStringLiteral("runs.db"));
    r.apiKey = kKey;
    QString error;
    const auto run = RunLauncher::launch(r, dir.filePath(QStringLiteral("live-test")), &error);
    QVERIFY2(run.has_value(), qPrintable(error));
    QVERIFY(run->pid > 0);
    QTRY_VERIFY_WITH_TIMEOUT(readProc(run->pid, "cmdline").contains("--live"), 10000);
    const QByteArray cmdline = readProc(run->pid, "cmdline");
    QVERIFY2(!cmdline.contains(kKey), cmdline.constData());
    QVERIFY(readProc(run->pid, "environ").contains(QByteArray(QByteArray("PLUMBLINE_STUDIO_API_KEY=") + kKey)));
    // Detached: its own session, and not this process's child (a studio crash leaves it be).
    QVERIFY(::getsid(static_cast<pid_t>(run->pid)) != ::getsid(0));
    QVERIFY(parentPid(run->pid) > 0);
    QVERIFY(parentPid(run->pid) != ::getpid());
    QVERIFY(RunLauncher::isAlive(run->pid));
    QTRY_VERIFY_WITH_TIMEOUT(QFile(run->logPath).size() > 0, 10000);
    QVERIFY(RunLauncher::requestStop(run->pid));
    QTRY_VERIFY_WITH_TIMEOUT(!RunLauncher::isAlive(run->pid), 10000);
  }

  void aMissingBinaryIsAClearError() {
    LaunchRequest r;
    r.plumblineBin = QStringLiteral("/nonexistent/plumbline");
    QString error;
    QVERIFY(!RunLauncher::launch(r, QDir::tempPath() + QStringLiteral("/live-x"), &error));
    QVERIFY2(error.contains(QStringLiteral("/nonexistent/plumbline")), qPrintable(error));
  }

  void runtimeDirIsPrivate() {
    const QString dir = RunLauncher::runtimeDir();
    QVERIFY(QFileInfo(dir).isDir());
    QCOMPARE(QFileInfo(dir).permissions() & (QFileDevice::ReadOther | QFileDevice::ReadGroup),
             QFileDevice::Permissions{});
    QVERIFY(RunLauncher::newRunBase().startsWith(dir + QStringLiteral("/live-")));
  }
};

QTEST_MAIN(RunLauncherTest)
#include "run_launcher_test.moc"
