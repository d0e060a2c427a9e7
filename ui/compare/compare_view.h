#pragma once
#include <QList>
#include <QWidget>
#include <memory>

#include "core/compare/comparison.h"
#include "ui/common/studio_context.h"

class QChartView;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTabWidget;
class QTableView;

namespace plumbline::ui::compare {

class ComparisonLoader;
class MetricTableModel;

/// 2–4 runs side by side: comparability warnings first, overlaid series, latency CDFs,
/// a metrics table with deltas, latency vs throughput for sweeps, goodput under an SLO.
class CompareView : public QWidget {
  Q_OBJECT
 public:
  explicit CompareView(const StudioContext& context, QWidget* parent = nullptr);

  /// The comparison shown, null until one has loaded.
  std::shared_ptr<const plumbline::compare::Comparison> comparison() const { return m_comparison; }
  /// The warnings as shown, one per line.
  QString warningsText() const;
  QString statusText() const;
  MetricTableModel* metricModel() const { return m_metricModel; }
  QTabWidget* chartTabs() const { return m_tabs; }
  /// The chart view of the current tab.
  QChartView* currentChartView() const;
  /// Sets the SLO used by the next comparison (0 or less: no limit).
  void setSlo(double ttftMs, double itlMs, double e2eMs = 0, double ttfaMs = 0);
  /// Writes the current tab's chart as PNG or SVG (by extension); empty on success.
  QString exportCurrentChart(const QString& path);

 public slots:
  /// Shows these runs (2–4, the first is the baseline); loads off the UI thread.
  void compareRuns(const QList<qint64>& runIds);
  /// Re-reads the list of runs the pickers offer.
  void refreshRunList();

 signals:
  /// A comparison finished loading and is shown.
  void comparisonShown();

 private:
  void buildUi();
  QWidget* chartTab(QChartView*& view, QComboBox* picker);
  void compareFromPickers();
  void showComparison(std::shared_ptr<const plumbline::compare::Comparison> c);
  void redrawCharts();
  void exportWithDialog(const QString& suffix);
  void setStatus(const QString& text, bool error = false);

  StudioContext m_context;
  std::shared_ptr<const plumbline::compare::Comparison> m_comparison;
  ComparisonLoader* m_loader = nullptr;
  MetricTableModel* m_metricModel = nullptr;
  QList<QComboBox*> m_pickers;
  QDoubleSpinBox* m_sloTtft = nullptr;
  QDoubleSpinBox* m_sloTtfa = nullptr;
  QDoubleSpinBox* m_sloItl = nullptr;
  QDoubleSpinBox* m_sloE2e = nullptr;
  QPushButton* m_compare = nullptr;
  QLabel* m_warnings = nullptr;
  QLabel* m_status = nullptr;
  QTableView* m_table = nullptr;
  QTabWidget* m_tabs = nullptr;
  QComboBox* m_seriesMetric = nullptr;
  QComboBox* m_cdfMetric = nullptr;
  QComboBox* m_loadY = nullptr;
  QChartView* m_seriesView = nullptr;
  QChartView* m_cdfView = nullptr;
  QChartView* m_loadView = nullptr;
  QChartView* m_goodputView = nullptr;
};

}  // namespace plumbline::ui::compare
