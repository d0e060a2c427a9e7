#pragma once
#include <QWidget>

#include <vector>

#include "core/workload/rate_curve.h"

namespace plumbline::ui::designer {

/// The load profile: the planned rate (stages and ramps) as a line over the arrivals the
/// planner (or a trace) places, binned, as bars.
class RateChartWidget : public QWidget {
  Q_OBJECT
 public:
  explicit RateChartWidget(QWidget* parent = nullptr);
  void setCurves(std::vector<workload::RatePoint> planned, std::vector<workload::RatePoint> arrivals,
                 double binS, double durationS, const QString& caption);
  void clear(const QString& why);
  QString caption() const { return m_caption; }
  QSize sizeHint() const override { return {420, 170}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::vector<workload::RatePoint> m_planned, m_arrivals;
  double m_binS = 1, m_durationS = 0;
  QString m_caption;
};

}  // namespace plumbline::ui::designer
