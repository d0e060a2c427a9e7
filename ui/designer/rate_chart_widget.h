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
  /// What the line and the bars are, under the plot. Both are rates (sessions per second), on
  /// the one y-axis: a bar is its bin's arrivals divided by the bin width.
  QString legend() const;
  /// The y-axis unit, written above it.
  static QString axisUnit() { return QStringLiteral("sessions/s"); }
  const std::vector<workload::RatePoint>& arrivalBars() const { return m_arrivals; }
  double binS() const { return m_binS; }
  QSize sizeHint() const override { return {420, 170}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::vector<workload::RatePoint> m_planned, m_arrivals;
  double m_binS = 1, m_durationS = 0;
  QString m_caption;
};

}  // namespace plumbline::ui::designer
