#include "ui/common/ui_stall_monitor.h"

#include <time.h>
#include <unistd.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

namespace plumbline::ui {

namespace {

qint64 threadCpuNs() {
  timespec ts{};
  if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return -1;
  return static_cast<qint64>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace

UiStallMonitor::UiStallMonitor(int periodMs, QObject* parent) : QObject(parent), m_periodMs(periodMs) {
  m_timer = new QTimer(this);
  m_timer->setTimerType(Qt::PreciseTimer);
  m_timer->setInterval(periodMs);
  connect(m_timer, &QTimer::timeout, this, &UiStallMonitor::onTick);
  m_statsTimer = new QTimer(this);
  m_statsTimer->setInterval(1000);
  connect(m_statsTimer, &QTimer::timeout, this, &UiStallMonitor::writeStats);
}

void UiStallMonitor::start() {
  m_clock.start();
  m_lastNs = -1;
  m_lastCpuNs = -1;
  m_timer->start();
}

void UiStallMonitor::setStatsFile(const QString& path) {
  m_statsPath = path;
  QFile(path).remove();
  if (!path.isEmpty()) m_statsTimer->start();
}

void UiStallMonitor::onTick() {
  const qint64 now = m_clock.nsecsElapsed();
  const qint64 cpu = threadCpuNs();
  if (m_lastNs >= 0) {
    const double lateMs = std::max(0.0, static_cast<double>(now - m_lastNs) / 1e6 - m_periodMs);
    m_maxMs = std::max(m_maxMs, lateMs);
    if (cpu >= 0 && m_lastCpuNs >= 0) {
      const double busyMs = std::min(lateMs, static_cast<double>(cpu - m_lastCpuNs) / 1e6);
      m_maxBusyMs = std::max(m_maxBusyMs, busyMs);
      if (busyMs >= 50) ++m_busyOver50;
    }
    size_t b = 0;
    while (b < kBucketMs.size() && lateMs >= kBucketMs[b]) ++b;
    ++m_hist[b];
    ++m_samples;
  }
  m_lastNs = now;
  m_lastCpuNs = cpu;
}

qint64 UiStallMonitor::residentKb() {
  QFile f(QStringLiteral("/proc/self/statm"));
  if (!f.open(QIODevice::ReadOnly)) return 0;
  const QList<QByteArray> fields = f.readAll().split(' ');
  if (fields.size() < 2) return 0;
  return fields[1].toLongLong() * (::sysconf(_SC_PAGESIZE) / 1024);
}

QString UiStallMonitor::statsJson() const {
  QJsonObject hist;
  for (size_t i = 0; i < m_hist.size(); ++i) {
    const QString label = i < kBucketMs.size() ? QStringLiteral("lt_%1ms").arg(kBucketMs[i])
                                               : QStringLiteral("ge_%1ms").arg(kBucketMs.back());
    hist[label] = static_cast<qint64>(m_hist[i]);
  }
  quint64 over50 = 0;
  for (size_t i = 0; i < m_hist.size(); ++i) {
    if (i >= 4) over50 += m_hist[i];  // buckets from [50, 100) up
  }
  QJsonObject o;
  o[QStringLiteral("t_s")] = static_cast<double>(m_clock.elapsed()) / 1000.0;
  o[QStringLiteral("max_stall_ms")] = m_maxMs;
  o[QStringLiteral("stalls_over_50ms")] = static_cast<qint64>(over50);
  o[QStringLiteral("max_busy_stall_ms")] = m_maxBusyMs;
  o[QStringLiteral("busy_stalls_over_50ms")] = static_cast<qint64>(m_busyOver50);
  o[QStringLiteral("samples")] = static_cast<qint64>(m_samples);
  o[QStringLiteral("histogram")] = hist;
  o[QStringLiteral("rss_kb")] = residentKb();
  return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

void UiStallMonitor::writeStats() {
  QFile f(m_statsPath);
  if (!f.open(QIODevice::Append | QIODevice::WriteOnly)) return;
  f.write(statsJson().toUtf8() + '\n');
}

}  // namespace plumbline::ui
