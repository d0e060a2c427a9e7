#pragma once
#include <QAbstractTableModel>
#include <memory>

#include "core/compare/comparison.h"

namespace plumbline::ui::compare {

/// The comparison's metrics: one row per figure; columns are the metric, the baseline's
/// value, then for every other run its value, the absolute delta and the relative delta.
/// Deltas are coloured green when better than the baseline, red when worse. RawRole holds
/// the number behind a cell (nullptr-free: invalid QVariant when unknown).
class MetricTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  static constexpr int RawRole = Qt::UserRole + 1;
  explicit MetricTableModel(QObject* parent = nullptr);

  void setComparison(std::shared_ptr<const plumbline::compare::Comparison> comparison);
  /// Column of run i's value (i = 0 baseline), and of its deltas (i >= 1).
  static int valueColumn(int run);
  static int absoluteDeltaColumn(int run) { return valueColumn(run) + 1; }
  static int relativeDeltaColumn(int run) { return valueColumn(run) + 2; }
  /// The row of a metric key ("ttft_p99_ms"), -1 if absent.
  int rowOf(const QString& key) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  /// (run, kind) of a column: kind 0 value, 1 absolute delta, 2 relative delta; run -1 for
  /// the label column.
  std::pair<int, int> cell(int column) const;

  std::shared_ptr<const plumbline::compare::Comparison> m_comparison;
};

}  // namespace plumbline::ui::compare
