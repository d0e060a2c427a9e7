#pragma once
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>

namespace plumbline::ui::live {

/// What to launch: `plumbline run WORKLOAD --live SOCKET --db DB [--target T] ...`.
struct LaunchRequest {
  QString plumblineBin;
  QString workloadPath;
  QString dbPath;
  QString target;  ///< empty: the workload's own target.url
  QString name;
  std::optional<double> rate;
  std::optional<double> durationS;
  /// The secret, handed to the child in its environment as apiKeyEnv and nowhere else;
  /// the workload names that variable in target.api_key_env. Empty: none.
  QByteArray apiKey;
  QString apiKeyEnv = QStringLiteral("PLUMBLINE_STUDIO_API_KEY");
};

/// A launched run: its coordinator process and where it serves telemetry.
struct LaunchedRun {
  qint64 pid = 0;
  QString socketPath;
  QString logPath;  ///< the run's stdout and stderr
};

/// Starts runs detached from the studio (own session, reparented to init), so a studio
/// closed or crashed mid-run leaves the run going to completion in the database. The live
/// sockets live in one directory ($XDG_RUNTIME_DIR/plumbline, else /tmp/plumbline-UID) as
/// live-<stamp>.sock, so a reopened studio can find runs still going.
class RunLauncher {
 public:
  /// The directory for sockets, logs and the workload copies of launched runs (created 0700).
  static QString runtimeDir();
  /// Fresh paths for one run: <dir>/live-<stamp>.{sock,log,json}.
  static QString newRunBase();
  /// The command line for request with this socket (argv[1..]); never holds the key.
  static QStringList arguments(const LaunchRequest& request, const QString& socketPath);
  /// Starts the run; on failure returns nullopt and sets error.
  static std::optional<LaunchedRun> launch(const LaunchRequest& request, const QString& runBase,
                                           QString* error);
  /// Live sockets in runtimeDir(), newest first (a socket may be stale: its run gone).
  static QStringList discoverSockets();
  static bool isAlive(qint64 pid);
  /// Asks the run to stop (SIGTERM: in-flight requests get their grace, the run is stored).
  static bool requestStop(qint64 pid);
};

}  // namespace plumbline::ui::live
