#include "ui/live/run_launcher.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

namespace plumbline::ui::live {

namespace {

/// argv/envp as C arrays built before fork (nothing may allocate in the child).
struct CStrings {
  std::vector<std::string> owned;
  std::vector<char*> ptrs;
  void add(const QString& s) { owned.push_back(s.toStdString()); }
  void add(std::string s) { owned.push_back(std::move(s)); }
  char** finish() {
    for (std::string& s : owned) ptrs.push_back(s.data());
    ptrs.push_back(nullptr);
    return ptrs.data();
  }
};

bool readFull(int fd, void* buf, size_t n) {
  auto* p = static_cast<char*>(buf);
  while (n > 0) {
    const ssize_t r = ::read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= static_cast<size_t>(r);
  }
  return true;
}

/// In the grandchild: stdin from /dev/null, stdout+stderr to the log, nothing else inherited
/// but the report pipe (close-on-exec).
void prepareChildFds(const char* logPath, int reportFd) {
  const int in = ::open("/dev/null", O_RDONLY);
  const int log = ::open(logPath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (in >= 0) ::dup2(in, 0);
  if (log >= 0) {
    ::dup2(log, 1);
    ::dup2(log, 2);
  }
  for (int fd = 3; fd < 1024; ++fd) {
    if (fd != reportFd) ::close(fd);
  }
}

}  // namespace

QString RunLauncher::runtimeDir() {
  const QByteArray xdg = qgetenv("XDG_RUNTIME_DIR");
  const QString dir = !xdg.isEmpty() && QFileInfo(QString::fromLocal8Bit(xdg)).isDir()
                          ? QString::fromLocal8Bit(xdg) + QStringLiteral("/plumbline")
                          : QStringLiteral("/tmp/plumbline-%1").arg(::getuid());
  QDir().mkpath(dir);
  QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
  return dir;
}

QString RunLauncher::newRunBase() {
  const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
  return runtimeDir() + QStringLiteral("/live-%1-%2").arg(stamp).arg(::getpid());
}

QStringList RunLauncher::arguments(const LaunchRequest& r, const QString& socketPath) {
  QStringList args = {QStringLiteral("run"), r.workloadPath, QStringLiteral("--live"), socketPath,
                      QStringLiteral("--db"), r.dbPath, QStringLiteral("--quiet")};
  if (!r.target.isEmpty()) args << QStringLiteral("--target") << r.target;
  if (!r.name.isEmpty()) args << QStringLiteral("--name") << r.name;
  if (r.rate) args << QStringLiteral("--rate") << QString::number(*r.rate, 'g', 10);
  if (r.durationS) args << QStringLiteral("--duration") << QString::number(*r.durationS, 'g', 10);
  return args;
}

std::optional<LaunchedRun> RunLauncher::launch(const LaunchRequest& r, const QString& runBase,
                                               QString* error) {
  LaunchedRun run;
  run.socketPath = runBase + QStringLiteral(".sock");
  run.logPath = runBase + QStringLiteral(".log");
  if (!QFileInfo(r.plumblineBin).isExecutable()) {
    *error = QStringLiteral("plumbline binary %1: not found or not executable").arg(r.plumblineBin);
    return std::nullopt;
  }
  CStrings argv;
  argv.add(r.plumblineBin);
  for (const QString& a : arguments(r, run.socketPath)) argv.add(a);
  CStrings envp;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.remove(r.apiKeyEnv);
  for (const QString& kv : env.toStringList()) envp.add(kv);
  if (!r.apiKey.isEmpty()) envp.add(r.apiKeyEnv.toStdString() + "=" + r.apiKey.toStdString());
  const std::string bin = r.plumblineBin.toStdString();
  const std::string log = run.logPath.toStdString();
  char** av = argv.finish();
  char** ev = envp.finish();

  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) {
    *error = QStringLiteral("cannot start the run: pipe: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
    return std::nullopt;
  }
  const pid_t middle = ::fork();
  if (middle < 0) {
    ::close(report[0]);
    ::close(report[1]);
    *error = QStringLiteral("cannot start the run: fork: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
    return std::nullopt;
  }
  if (middle == 0) {
    // Middle child: a new session, then the run as its child, then exit so init adopts it.
    ::setsid();
    const pid_t run = ::fork();
    if (run < 0) ::_exit(127);
    if (run > 0) {
      const int32_t pid = run;
      (void)!::write(report[1], &pid, sizeof pid);
      ::_exit(0);
    }
    ::close(report[0]);
    prepareChildFds(log.c_str(), report[1]);
    ::execve(bin.c_str(), av, ev);
    const int32_t err = errno;  // only reaches the pipe when exec failed
    (void)!::write(report[1], &err, sizeof err);
    ::_exit(127);
  }
  ::close(report[1]);
  int32_t pid = 0;
  int32_t execErrno = 0;
  const bool gotPid = readFull(report[0], &pid, sizeof pid);
  const bool execFailed = gotPid && readFull(report[0], &execErrno, sizeof execErrno);
  ::close(report[0]);
  int status = 0;
  while (::waitpid(middle, &status, 0) < 0 && errno == EINTR) {}
  if (!gotPid || execFailed) {
    *error = QStringLiteral("cannot start %1: %2")
                 .arg(r.plumblineBin, execFailed ? QString::fromLocal8Bit(std::strerror(execErrno))
                                                 : QStringLiteral("fork failed"));
    return std::nullopt;
  }
  run.pid = pid;
  return run;
}

QStringList RunLauncher::discoverSockets() {
  QDir dir(runtimeDir());
  const QFileInfoList entries = dir.entryInfoList({QStringLiteral("live-*.sock")}, QDir::System | QDir::Files,
                                                  QDir::Time);
  QStringList paths;
  for (const QFileInfo& fi : entries) paths.append(fi.absoluteFilePath());
  return paths;
}

bool RunLauncher::isAlive(qint64 pid) {
  if (pid <= 0) return false;
  if (::kill(static_cast<pid_t>(pid), 0) != 0) return errno == EPERM;
  // A zombie is not running: /proc/PID/stat's state field says so.
  QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
  if (!stat.open(QIODevice::ReadOnly)) return true;
  const QByteArray s = stat.readAll();
  const qsizetype close = s.lastIndexOf(')');
  return close < 0 || close + 2 >= s.size() || s.at(close + 2) != 'Z';
}

bool RunLauncher::requestStop(qint64 pid) {
  return pid > 0 && ::kill(static_cast<pid_t>(pid), SIGTERM) == 0;
}

}  // namespace plumbline::ui::live
