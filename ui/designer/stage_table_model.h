#pragma once
#include <QAbstractTableModel>

namespace plumbline::ui::designer {

class WorkloadDocument;

/// load.stages as a table: rate, ramp_to, duration_s per stage. A cell left empty removes
/// its key; a stage with both rate and ramp_to ramps from rate, one with only ramp_to ramps
/// from where the previous stage ended.
class StageTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Rate, RampTo, Duration, ColumnCount };
  explicit StageTableModel(WorkloadDocument* document, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  /// Appends a stage (a hold at the last rate, or a ramp to twice it) / removes one.
  void appendStage(bool ramp);
  void removeStage(int row);

 private:
  void documentChanged(const void* origin);
  int m_rows = 0;
  WorkloadDocument* m_document;
};

}  // namespace plumbline::ui::designer
