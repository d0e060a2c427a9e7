#pragma once
#include <QWidget>

#include <vector>

#include "core/workload/length_histogram.h"
#include "core/workload/seconds_histogram.h"

namespace plumbline::ui::designer {

/// Paints a histogram of sampled draws (token lengths, or seconds of a delay) or of a trace's
/// rows, with its p50, p90 and p99 marked and written out.
class HistogramWidget : public QWidget {
  Q_OBJECT
 public:
  /// What is drawn: either kind of core histogram, values as doubles.
  struct Shown {
    struct Bin {
      double low = 0, high = 0;
      uint64_t count = 0;
    };
    std::vector<Bin> bins;
    uint64_t draws = 0;
    bool tailFolded = false;
    bool whole = true;  ///< whole numbers (tokens): percentiles mark the bin's middle
    double min = 0, max = 0, p50 = 0, p90 = 0, p99 = 0, mean = 0;
  };

  explicit HistogramWidget(QWidget* parent = nullptr);
  /// `counted` names what the histogram counts: "draws" of a distribution, or rows of a trace.
  void setHistogram(const workload::LengthHistogram& histogram, const QString& unit,
                    const QString& counted = QStringLiteral("draws"));
  /// Seconds: values written with 3 significant digits and "s".
  void setHistogram(const workload::SecondsHistogram& histogram);
  void clear(const QString& why);
  const Shown& shown() const { return m_shown; }
  /// "p50 512 · p90 1254 · p99 2611 · mean 640.0 tokens (20000 draws)"
  QString summary() const;
  QSize sizeHint() const override { return {320, 140}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QString format(double v) const;

  Shown m_shown;
  QString m_unit;
  QString m_counted = QStringLiteral("draws");
  QString m_empty;
};

}  // namespace plumbline::ui::designer
