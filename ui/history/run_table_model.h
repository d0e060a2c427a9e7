#pragma once
#include <QAbstractTableModel>
#include <QStringList>
#include <vector>

#include "core/store/run_row.h"

namespace plumbline::ui::history {

/// One run of the history table: its row and its tags.
struct RunListEntry {
  store::RunRow row;
  QStringList tags;
};

/// Every run as a table row. DisplayRole is formatted text; SortRole the raw value (numbers
/// as numbers, missing ones as -1 so they sort first); SearchRole one lower-case string of
/// everything a filter may match; IdRole the run id.
class RunTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    Id,
    Name,
    Date,
    Workload,
    Target,
    Verdict,
    RequestedRps,
    AchievedRps,
    Failed,
    TtftP99,
    TokensPerS,
    Tags,
    ColumnCount
  };
  enum Role { SortRole = Qt::UserRole + 1, SearchRole, IdRole, VerdictRole };

  explicit RunTableModel(QObject* parent = nullptr);

  void setRuns(std::vector<RunListEntry> runs);
  const std::vector<RunListEntry>& runs() const { return m_runs; }
  /// nullptr when the id is not in the table.
  const RunListEntry* entry(qint64 runId) const;
  int rowOf(qint64 runId) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  QVariant display(const RunListEntry& e, int column) const;
  QVariant sortValue(const RunListEntry& e, int column) const;

  std::vector<RunListEntry> m_runs;
};

/// The verdict as shown (store::verdictLabel): "kept_up", "incomplete · kept_up until stopped",
/// "running".
QString verdictText(const store::RunRow& row);

}  // namespace plumbline::ui::history
