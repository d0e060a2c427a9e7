#pragma once
#include <QWidget>

#include "core/workload/length_histogram.h"

namespace plumbline::ui::designer {

/// Paints a length histogram with its p50, p90 and p99 marked and written out.
class HistogramWidget : public QWidget {
  Q_OBJECT
 public:
  explicit HistogramWidget(QWidget* parent = nullptr);
  void setHistogram(const workload::LengthHistogram& histogram, const QString& unit);
  void clear(const QString& why);
  const workload::LengthHistogram& histogram() const { return m_histogram; }
  /// "p50 512 · p90 1254 · p99 2611 · mean 640 (20000 draws)"
  QString summary() const;
  QSize sizeHint() const override { return {320, 140}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  workload::LengthHistogram m_histogram;
  QString m_unit;
  QString m_empty;
};

}  // namespace plumbline::ui::designer
