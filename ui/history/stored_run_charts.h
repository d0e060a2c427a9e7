#pragma once
#include <QWidget>
#include <vector>

#include "core/compare/latency_cdf.h"
#include "core/store/window_row.h"

class QGridLayout;

namespace plumbline::ui::history {

/// A stored run's charts, drawn from its windows and whole-run histograms: requested vs
/// achieved rate, TTFT p50/p99, inter-token and end-to-end p99, output tokens/s, send lag
/// and latency CDFs. Replaced by the shared RunCharts once that can load a stored run.
class StoredRunCharts : public QWidget {
  Q_OBJECT
 public:
  explicit StoredRunCharts(QWidget* parent = nullptr);

  struct Cdf {
    QString name;
    std::vector<plumbline::compare::CdfPoint> points;
  };
  void setRun(const std::vector<store::WindowRow>& windows, const std::vector<Cdf>& cdfs);
  void clear();
  int chartCount() const;

 private:
  QGridLayout* m_grid = nullptr;
};

}  // namespace plumbline::ui::history
