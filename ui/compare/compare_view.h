#pragma once
#include <QList>
#include <QWidget>

#include "ui/common/studio_context.h"

namespace plumbline::ui::compare {

/// 2–4 runs side by side: comparability warnings first, overlaid series, latency CDFs,
/// a metrics table with deltas, latency vs throughput for sweeps, goodput under an SLO.
class CompareView : public QWidget {
  Q_OBJECT
 public:
  explicit CompareView(const StudioContext& context, QWidget* parent = nullptr);

 public slots:
  void compareRuns(const QList<qint64>& runIds);

 private:
  StudioContext m_context;
};

}  // namespace plumbline::ui::compare
