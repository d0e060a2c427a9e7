#pragma once
#include <QChartView>
#include <QList>
#include <QPointF>
#include <QStringList>
#include <cstdint>

namespace plumbline::store { class RunReader; }

namespace plumbline::ui::charts {

/// A stored run's whole-run latency CDFs (TTFT, inter-token, end-to-end, and the time to first
/// answer token when a reasoning model thought first) from the histograms the run wrote at its
/// end, on a log time axis. A run still going has no
/// whole-run histograms yet, so the live view never shows this chart.
class LatencyCdfChart : public QChartView {
  Q_OBJECT
 public:
  explicit LatencyCdfChart(QWidget* parent = nullptr);

  /// Reads the run's whole-run histograms; returns how many metrics had one. A damaged
  /// histogram loses its curve, not the chart. Throws store::StoreError when the database
  /// cannot be read.
  int loadRun(const store::RunReader& reader, int64_t runId);
  void clear();

  QList<QPointF> drawnPoints(const QString& series) const;
  QStringList seriesNames() const;
};

}  // namespace plumbline::ui::charts
