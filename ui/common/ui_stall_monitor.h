#pragma once
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <array>

class QTimer;

namespace plumbline::ui {

/// Measures how late the UI thread serves a short periodic timer: any lateness is time the
/// event loop spent doing something else (parsing, layout, painting) while the user waited.
/// Keeps the maximum and a histogram of lateness, and optionally appends a JSON line of
/// stall and memory figures to a file every second (PLUMBLINE_STUDIO_STATS=FILE).
/// Lateness is wall-clock: on a machine with more runnable threads than cores it includes
/// time the kernel ran others. The part the UI thread itself spent on the CPU (its thread
/// CPU time over the late interval, capped at the lateness) is kept apart as the busy stall.
class UiStallMonitor : public QObject {
  Q_OBJECT
 public:
  /// Histogram upper bounds in ms; the last bucket takes everything above the last bound.
  static constexpr std::array<int, 7> kBucketMs = {5, 10, 20, 50, 100, 250, 1000};

  explicit UiStallMonitor(int periodMs = 10, QObject* parent = nullptr);
  void start();
  /// Appends {"t_s", "max_stall_ms", "stalls_over_50ms", "max_busy_stall_ms",
  /// "busy_stalls_over_50ms", "histogram", "rss_kb"} each second.
  void setStatsFile(const QString& path);

  double maxStallMs() const { return m_maxMs; }
  double maxBusyStallMs() const { return m_maxBusyMs; }
  const std::array<quint64, kBucketMs.size() + 1>& histogram() const { return m_hist; }
  quint64 samples() const { return m_samples; }
  /// Resident memory of this process in KiB (/proc/self/statm), 0 when unknown.
  static qint64 residentKb();
  QString statsJson() const;

 private:
  void onTick();
  void writeStats();

  int m_periodMs;
  QTimer* m_timer = nullptr;
  QTimer* m_statsTimer = nullptr;
  QElapsedTimer m_clock;
  qint64 m_lastNs = -1;
  qint64 m_lastCpuNs = -1;
  double m_maxMs = 0;
  double m_maxBusyMs = 0;
  quint64 m_busyOver50 = 0;
  quint64 m_samples = 0;
  std::array<quint64, kBucketMs.size() + 1> m_hist{};
  QString m_statsPath;
};

}  // namespace plumbline::ui
