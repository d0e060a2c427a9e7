#pragma once
#include <QByteArray>
#include <QStringList>
#include <QWidget>
#include <optional>
#include <vector>

#include "core/live/live_messages.h"
#include "ui/common/studio_context.h"
#include "ui/live/run_launcher.h"
#include "ui/live/run_target.h"

class QLabel;
class QListView;
class QProgressBar;
class QPushButton;
class QTimer;

namespace plumbline::ui::charts { class RunCharts; }

namespace plumbline::ui::live {

class ApiKeyStore;
class LiveClient;
class NoticeModel;
class TargetPanel;
class VerdictBanner;

/// A live run: target (embedded simulator + preset, or URL + model + API key), start/stop,
/// progress, verdict banner, notices and the live charts, fed by the run's telemetry socket.
/// Runs are launched detached (RunLauncher): closing the studio never ends them.
class LiveView : public QWidget {
  Q_OBJECT
 public:
  explicit LiveView(const StudioContext& context, QWidget* parent = nullptr);
  /// Detaches from the run (which keeps going) without reacting to the detach.
  ~LiveView() override;

  /// Makes this workload the one Start launches; the target defaults to the embedded simulator.
  void prepareRun(const QByteArray& workloadJson, const QString& sourcePath);
  /// --rate/--duration for the next Start (replace the workload's stages); nullopt = none.
  void setLoadOverride(std::optional<double> rate, std::optional<double> durationS);
  /// Attaches to the newest run still serving telemetry in RunLauncher::runtimeDir(), if any.
  void attachToRunningRun();
  /// Watches the run behind SOCKET (already running, not launched by this view).
  void watch(const QString& socketPath);
  /// Feeds decoded messages as if they came from the socket (replays, tests).
  void handleMessages(const std::vector<plumbline::live::LiveMessage>& batch);

  charts::RunCharts* charts() const { return m_charts; }
  VerdictBanner* banner() const { return m_banner; }
  NoticeModel* notices() const { return m_notices; }
  TargetPanel* targetPanel() const { return m_target; }
  LiveClient* client() const { return m_client; }
  const std::optional<LaunchedRun>& launchedRun() const { return m_launched; }
  bool isRunning() const { return m_running; }
  /// The progress line beside the bar (elapsed, remaining, draining…).
  QString progressText() const;
  qint64 runId() const { return m_hello ? m_hello->runId : 0; }

 public slots:
  void start();
  void stop();

 signals:
  /// A run this view launched or watched has ended (its row in the database is final).
  void runFinished(qint64 runId);

 private:
  void launchWithKey(const QByteArray& key);
  void onHello(const plumbline::live::LiveHello& h);
  void onTick(const plumbline::live::LiveTick& t);
  void onEnd(const plumbline::live::LiveEnd& e);
  void onDetached(bool sawEnd);
  void pollProcess();
  void finishWithoutVerdict(const QString& why);
  void setRunning(bool running);
  void error(const QString& text);
  QString logTail() const;

  StudioContext m_context;
  QByteArray m_workloadJson;
  QString m_sourcePath;
  /// What the prepared workload names as its target (the panel showed it then).
  std::optional<RunTarget> m_workloadTarget;
  std::optional<double> m_rate, m_durationS;

  TargetPanel* m_target = nullptr;
  QLabel* m_workloadLabel = nullptr;
  QPushButton* m_startButton = nullptr;
  QPushButton* m_stopButton = nullptr;
  QProgressBar* m_progress = nullptr;
  QLabel* m_progressLabel = nullptr;
  VerdictBanner* m_banner = nullptr;
  charts::RunCharts* m_charts = nullptr;
  NoticeModel* m_notices = nullptr;
  QListView* m_noticeList = nullptr;
  LiveClient* m_client = nullptr;
  ApiKeyStore* m_keys = nullptr;
  QTimer* m_poll = nullptr;

  std::optional<LaunchedRun> m_launched;
  std::optional<plumbline::live::LiveHello> m_hello;
  qint64 m_watchedPid = 0;
  QStringList m_attachCandidates;
  bool m_running = false;
  bool m_ended = false;
  bool m_stopRequested = false;  ///< this view asked the run to stop
  double m_lastTickS = 0;
  /// The run's notices so far: its end notes repeat some of them.
  QStringList m_runNotices;
  int m_deadPolls = 0;
};

}  // namespace plumbline::ui::live
