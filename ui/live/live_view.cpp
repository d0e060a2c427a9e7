#include "ui/live/live_view.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>

#include "ui/charts/run_charts.h"
#include "ui/common/button_shortcut.h"
#include "ui/live/api_key_store.h"
#include "ui/live/live_client.h"
#include "ui/live/notice_model.h"
#include "ui/live/run_target.h"
#include "ui/live/target_panel.h"
#include "ui/live/verdict_banner.h"

namespace plumbline::ui::live {

namespace {

QString clock(double s) {
  const qint64 t = static_cast<qint64>(s < 0 ? 0 : s + 0.5);
  return QStringLiteral("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
}

QString scheduleText(const QString& elapsed, const QString& remaining, const QString& eta,
                     int64_t sent, int64_t planned) {
  return QStringLiteral("elapsed %1 · remaining %2 · ETA %3 · sent %4 / %5")
      .arg(elapsed, remaining, eta)
      .arg(sent)
      .arg(planned);
}

/// Once the schedule is over (or a stop was asked for) the run waits for what is in flight:
/// no time remains and no ETA can be told.
QString drainText(const QString& elapsed, const QString& phase, int64_t inFlight, int64_t sent,
                  int64_t planned) {
  return QStringLiteral("elapsed %1 · %2 · waiting for %3 in flight · sent %4 / %5")
      .arg(elapsed, phase)
      .arg(inFlight)
      .arg(sent)
      .arg(planned);
}

/// A note the run's end repeats from a notice shown while it ran ("received SIGTERM" after
/// "received SIGTERM: stopping; requests in flight get 10.0 s").
bool alreadyNoticed(const QStringList& notices, const QString& note) {
  for (const QString& n : notices)
    if (n == note || n.startsWith(note + QLatin1Char(':'))) return true;
  return false;
}

}  // namespace

LiveView::LiveView(const StudioContext& context, QWidget* parent)
    : QWidget(parent), m_context(context) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->setSpacing(4);

  m_target = new TargetPanel(this);
  layout->addWidget(m_target);

  auto* runRow = new QHBoxLayout;
  m_workloadLabel =
      new QLabel(QStringLiteral("No workload here yet: press Run ▶ in the Designer"), this);
  m_startButton = new QPushButton(QStringLiteral("Start"), this);
  m_stopButton = new QPushButton(QStringLiteral("Stop"), this);
  setButtonShortcut(m_startButton, QKeySequence(Qt::CTRL | Qt::Key_Return),
                    QStringLiteral("start the workload Run ▶ sent here"));
  setButtonShortcut(m_stopButton, QKeySequence(Qt::CTRL | Qt::Key_Period),
                    QStringLiteral("stop the run; in-flight requests get their grace"));
  m_progress = new QProgressBar(this);
  m_progress->setRange(0, 1000);
  m_progress->setTextVisible(false);
  m_progress->setMaximumHeight(14);
  m_progressLabel = new QLabel(this);
  runRow->addWidget(m_startButton);
  runRow->addWidget(m_stopButton);
  runRow->addWidget(m_workloadLabel);
  runRow->addWidget(m_progress, 1);
  runRow->addWidget(m_progressLabel);
  layout->addLayout(runRow);

  m_banner = new VerdictBanner(this);
  layout->addWidget(m_banner);
  m_charts = new charts::RunCharts(this);
  layout->addWidget(charts::RunCharts::inScrollArea(m_charts, this), 1);

  m_notices = new NoticeModel(this);
  m_noticeList = new QListView(this);
  m_noticeList->setModel(m_notices);
  m_noticeList->setMaximumHeight(72);
  // A notice is read whole (QA 23b: "...waited up to 16.8 ms in on" behind a scroll bar): at
  // most 500 of them, so wrapping each costs nothing that matters.
  m_noticeList->setWordWrap(true);
  m_noticeList->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  layout->addWidget(m_noticeList);
  connect(m_notices, &QAbstractItemModel::rowsInserted, m_noticeList, &QListView::scrollToBottom);

  m_client = new LiveClient(this);
  m_keys = new ApiKeyStore(this);
  m_poll = new QTimer(this);
  m_poll->setInterval(500);
  connect(m_poll, &QTimer::timeout, this, &LiveView::pollProcess);
  connect(m_startButton, &QPushButton::clicked, this, &LiveView::start);
  connect(m_stopButton, &QPushButton::clicked, this, &LiveView::stop);
  connect(m_client, &LiveClient::messages, this, &LiveView::handleMessages);
  connect(m_client, &LiveClient::protocolError, this, [this](const QString& e) {
    error(e);
    finishWithoutVerdict(QStringLiteral("telemetry stream rejected"));
  });
  connect(m_client, &LiveClient::attachFailed, this, [this](const QString& e) {
    if (!m_attachCandidates.isEmpty()) {
      m_client->attach(m_attachCandidates.takeFirst(), 0);
      return;
    }
    if (m_launched) error(e);
  });
  connect(m_client, &LiveClient::attached, this, [this] { m_attachCandidates.clear(); });
  connect(m_client, &LiveClient::detached, this, &LiveView::onDetached);
  setRunning(false);
}

LiveView::~LiveView() {
  // Children are deleted in creation order: the notices and charts go before the client,
  // whose socket then closes and would report the detach to this half-destroyed view.
  m_client->disconnect(this);
  m_poll->stop();
}

void LiveView::prepareRun(const QByteArray& workloadJson, const QString& sourcePath) {
  m_workloadJson = workloadJson;
  m_sourcePath = sourcePath;
  // What --rate/--duration change is said before Start (QA 23b: the Designer showed the
  // workload's 60 s plan, and nothing said 8/s for 5 s until the run was going).
  QStringList overrides;
  if (m_rate) overrides << QStringLiteral("%1/s").arg(*m_rate, 0, 'g', 6);
  if (m_durationS) overrides << QStringLiteral("for %1 s").arg(*m_durationS, 0, 'g', 6);
  m_workloadLabel->setText((sourcePath.isEmpty() ? QStringLiteral("unsaved workload")
                                                 : QFileInfo(sourcePath).fileName()) +
                           (overrides.isEmpty() ? QString()
                                                : QStringLiteral(" (one stage of ") +
                                                      overrides.join(QLatin1Char(' ')) +
                                                      QStringLiteral(", from the command line)")));
  m_workloadLabel->setToolTip(sourcePath);
  // The panel shows the target the workload names, and keeps what the person chose there
  // while the workload's own target stays the same (a run re-prepared from the Designer).
  const RunTarget named = targetOfWorkload(workloadJson);
  if (!m_workloadTarget || *m_workloadTarget != named) {
    m_target->show(named);
    m_workloadTarget = named;
  }
  setRunning(m_running);
}

void LiveView::setLoadOverride(std::optional<double> rate, std::optional<double> durationS) {
  m_rate = rate;
  m_durationS = durationS;
}

void LiveView::error(const QString& text) { m_notices->add(QStringLiteral("error"), text); }

void LiveView::setRunning(bool running) {
  m_running = running;
  m_startButton->setEnabled(!running && !m_workloadJson.isEmpty());
  m_stopButton->setEnabled(running);
  m_target->setEnabled(!running);
}

void LiveView::start() {
  if (m_running) return;
  if (m_workloadJson.isEmpty())
    return error(QStringLiteral(
        "No workload to run: press Run ▶ in the Designer (it sends the one it shows)"));
  if (const QString p = m_target->problem(); !p.isEmpty()) return error(p);
  const RunTarget t = m_target->target();
  if (t.kind == RunTarget::Kind::Url && t.keySource == RunTarget::KeySource::Keychain) {
    const QByteArray typed = m_target->typedKey();
    m_target->clearTypedKey();
    if (!typed.isEmpty()) {
      m_keys->write(t.url, typed, [this](const QString& e) {
        if (!e.isEmpty()) m_notices->add(QStringLiteral("warning"), e);
      });
      return launchWithKey(typed);
    }
    setRunning(true);  // no second Start while the keychain answers
    m_keys->read(t.url, [this](const QByteArray& key, const QString& e) {
      setRunning(false);
      if (!e.isEmpty()) return error(e + QStringLiteral(": type the key once to store it"));
      launchWithKey(key);
    });
    return;
  }
  launchWithKey({});
}

void LiveView::launchWithKey(const QByteArray& key) {
  LaunchRequest req;
  const QString base = RunLauncher::newRunBase();
  QByteArray workload;
  try {
    workload = workloadForRun(m_workloadJson, m_sourcePath.isEmpty() ? QString() : QFileInfo(m_sourcePath).absolutePath(),
                              m_target->target(), req.apiKeyEnv);
  } catch (const std::exception& e) {
    return error(QString::fromStdString(e.what()));
  }
  req.workloadPath = base + QStringLiteral(".json");
  QFile f(req.workloadPath);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(workload) != workload.size()) {
    return error(QStringLiteral("cannot write %1: %2").arg(req.workloadPath, f.errorString()));
  }
  f.close();
  req.plumblineBin = m_context.plumblineBin;
  req.dbPath = m_context.dbPath;
  req.rate = m_rate;
  req.durationS = m_durationS;
  req.apiKey = key;
  QString why;
  m_launched = RunLauncher::launch(req, base, &why);
  if (!m_launched) return error(why);
  m_watchedPid = m_launched->pid;
  m_hello.reset();
  m_ended = false;
  m_stopRequested = false;
  m_deadPolls = 0;
  m_charts->clear();
  m_notices->add(QStringLiteral("info"), QStringLiteral("started run (pid %1), telemetry at %2")
                                             .arg(m_launched->pid).arg(m_launched->socketPath));
  m_banner->showRunning(QStringLiteral("Starting…"));
  setRunning(true);
  m_client->attach(m_launched->socketPath, 20000);
  m_poll->start();
}

void LiveView::attachToRunningRun() {
  m_attachCandidates = RunLauncher::discoverSockets();
  if (m_attachCandidates.isEmpty()) return;
  m_client->attach(m_attachCandidates.takeFirst(), 0);
}

void LiveView::watch(const QString& socketPath) {
  m_attachCandidates.clear();
  m_client->attach(socketPath, 0);
}

void LiveView::stop() {
  if (!m_running || m_watchedPid <= 0) return;
  if (RunLauncher::requestStop(m_watchedPid)) {
    m_notices->add(QStringLiteral("info"), QStringLiteral("stop requested: in-flight requests get their grace"));
    m_stopButton->setEnabled(false);
    m_stopRequested = true;
    // Sending stops now: no rates falling to 0 after it (the run's end gives the exact time).
    if (!m_hello || m_lastTickS < m_hello->durationS) m_charts->setSendingEnd(m_lastTickS);
  } else {
    error(QStringLiteral("cannot signal the run (pid %1): it has already ended").arg(m_watchedPid));
  }
}

void LiveView::handleMessages(const std::vector<plumbline::live::LiveMessage>& batch) {
  const plumbline::live::LiveTick* lastTick = nullptr;
  for (const auto& m : batch) {
    if (const auto* h = std::get_if<plumbline::live::LiveHello>(&m)) {
      onHello(*h);
    } else if (const auto* t = std::get_if<plumbline::live::LiveTick>(&m)) {
      m_charts->appendTick(*t);
      lastTick = t;
    } else if (const auto* w = std::get_if<store::WindowRow>(&m)) {
      m_charts->appendWindow(*w);
    } else if (const auto* n = std::get_if<plumbline::live::LiveNotice>(&m)) {
      m_runNotices.append(QString::fromStdString(n->text));
      m_notices->add(QString::fromStdString(n->level), QString::fromStdString(n->text),
                     static_cast<double>(n->atNs) / 1e9);
    } else if (const auto* e = std::get_if<plumbline::live::LiveEnd>(&m)) {
      if (lastTick) onTick(*lastTick);
      lastTick = nullptr;
      onEnd(*e);
    }
  }
  if (lastTick) onTick(*lastTick);  // labels once per batch, not per message
}

void LiveView::onHello(const plumbline::live::LiveHello& h) {
  // A re-attach replays the run's notices: drop the copies shown before.
  if (m_hello && m_hello->runId == h.runId) m_notices->clear();
  m_hello = h;
  m_ended = false;
  m_watchedPid = h.coordinatorPid;
  m_runNotices.clear();  // the run sends them all again
  m_lastTickS = 0;
  m_charts->clear();
  m_charts->setSendLagTolerance(h.spec);
  m_charts->setSendingEnd(h.durationS);
  m_workloadLabel->setText(QString::fromStdString(h.workloadName));
  m_banner->showRunning(QStringLiteral("Running run %1 “%2” against %3: verdict when it ends")
                            .arg(h.runId)
                            .arg(QString::fromStdString(h.runName), QString::fromStdString(h.targetUrl)));
  m_progress->setValue(0);
  // Sized once for the widest text of this run: a label whose size hint changes on every tick
  // re-lays out the whole window (and repaints all of it) four times a second.
  // Elapsed can pass the planned length while the run drains: leave room for it.
  const QString longest = clock(std::max(h.durationS * 1.2 + 60, 600.0));
  const int64_t planned = std::max<int64_t>(h.plannedTotal, 0);
  QString widest =
      scheduleText(longest, clock(h.durationS), QStringLiteral("00:00:00"), planned, planned);
  // In flight are at most the requests planned (or, with no plan, a generous guess).
  const QString draining = drainText(longest, QStringLiteral("schedule done"),
                                     std::max<int64_t>(planned, 9999), planned, planned);
  if (m_progressLabel->fontMetrics().horizontalAdvance(draining) >
      m_progressLabel->fontMetrics().horizontalAdvance(widest))
    widest = draining;
  m_progressLabel->setText(scheduleText(clock(0), clock(h.durationS), QStringLiteral("--:--:--"), 0,
                                        std::max<int64_t>(h.plannedTotal, 0)));
  m_progressLabel->setFixedSize(m_progressLabel->fontMetrics().horizontalAdvance(widest) + 8,
                                m_progressLabel->sizeHint().height());
  setRunning(true);
  m_poll->start();
}

void LiveView::onTick(const plumbline::live::LiveTick& t) {
  const double elapsed = static_cast<double>(t.atNs) / 1e9;
  m_lastTickS = elapsed;
  const double total = m_hello ? m_hello->durationS : 0;
  const double remaining = std::max(0.0, total - elapsed);
  if (total > 0) m_progress->setValue(static_cast<int>(std::min(1.0, elapsed / total) * 1000));
  const int64_t planned = m_hello ? m_hello->plannedTotal : static_cast<int64_t>(t.planned);
  if (m_stopRequested || (total > 0 && elapsed >= total)) {
    // QA: "remaining 0:00 · ETA" and a full bar for the 17 s a run drained its requests.
    const QString phase =
        m_stopRequested ? QStringLiteral("stopping") : QStringLiteral("schedule done");
    m_progressLabel->setText(drainText(clock(elapsed), phase, t.inFlight, t.sent, planned));
    return;
  }
  const QString eta = QDateTime::currentDateTime().addMSecs(static_cast<qint64>(remaining * 1000))
                          .toString(QStringLiteral("HH:mm:ss"));
  m_progressLabel->setText(scheduleText(clock(elapsed), clock(remaining), eta, t.sent, planned));
}

QString LiveView::progressText() const { return m_progressLabel->text(); }

void LiveView::onEnd(const plumbline::live::LiveEnd& e) {
  m_ended = true;
  m_poll->stop();
  m_charts->flush();
  m_progress->setValue(1000);
  // Nothing remains and there is no ETA once the run is over; a stopped run says when.
  if (e.summary.is_object()) {
    const double ranS = e.summary.value("duration_s", 0.0);
    m_charts->setSendingEnd(ranS);  // the sending period, as History draws it
    const auto sent = e.summary.value("sent", int64_t{0});
    const auto planned = e.summary.value("planned", int64_t{0});
    m_progressLabel->setText(
        e.status == "complete"
            ? QStringLiteral("ran %1 · sent %2 / %3").arg(clock(ranS)).arg(sent).arg(planned)
            : QStringLiteral("stopped at %1 · sent %2 / %3 planned by then")
                  .arg(clock(ranS))
                  .arg(sent)
                  .arg(planned));
  }
  m_banner->showEnd(QString::fromStdString(e.status), e.summary);
  for (const std::string& note : e.notes) {
    const QString text = QString::fromStdString(note);
    if (!alreadyNoticed(m_runNotices, text)) m_notices->add(QStringLiteral("info"), text);
  }
  setRunning(false);
  emit runFinished(runId());
}

void LiveView::onDetached(bool sawEnd) {
  if (sawEnd || m_ended) return;
  // The stream broke before End: re-attach while the run is alive (it serves late joiners).
  if (RunLauncher::isAlive(m_watchedPid)) {
    m_notices->add(QStringLiteral("warning"), QStringLiteral("telemetry connection lost; re-attaching"));
    m_client->attach(m_client->socketPath(), 5000);
  }
}

void LiveView::pollProcess() {
  if (m_ended || m_watchedPid <= 0) return;
  if (RunLauncher::isAlive(m_watchedPid)) {
    m_deadPolls = 0;
    return;
  }
  // Give the socket a moment to deliver a final End before calling the run lost.
  if (++m_deadPolls < 3) return;
  finishWithoutVerdict(QStringLiteral("the run process (pid %1) exited without a verdict").arg(m_watchedPid));
}

void LiveView::finishWithoutVerdict(const QString& why) {
  m_poll->stop();
  m_ended = true;
  const QString tail = logTail();
  error(tail.isEmpty() ? why : why + QStringLiteral(": ") + tail);
  m_banner->showEnd(QStringLiteral("failed"), nlohmann::json::object());
  setRunning(false);
  if (m_hello) emit runFinished(m_hello->runId);
}

QString LiveView::logTail() const {
  if (!m_launched) return {};
  QFile f(m_launched->logPath);
  if (!f.open(QIODevice::ReadOnly)) return {};
  const QByteArray all = f.readAll().trimmed();
  const QList<QByteArray> lines = all.split('\n');
  QStringList last;
  for (qsizetype i = std::max<qsizetype>(0, lines.size() - 3); i < lines.size(); ++i)
    last.append(QString::fromUtf8(lines[i]).trimmed());
  return last.join(QStringLiteral(" | "));
}

}  // namespace plumbline::ui::live
