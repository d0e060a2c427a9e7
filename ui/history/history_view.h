#pragma once
#include <QList>
#include <QWidget>
#include <functional>

#include "ui/common/studio_context.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace plumbline::ui::history {

class RunDetailPane;
class RunFilterProxy;
class RunTableModel;

/// Every run in the database: sortable, filterable table; tags, notes, rename, delete,
/// export; opening a run shows its full charts from stored windows and histograms.
class HistoryView : public QWidget {
  Q_OBJECT
 public:
  explicit HistoryView(const StudioContext& context, QWidget* parent = nullptr);

  /// Asked before deleting; returns true to go ahead. Default: a modal question box.
  using Confirm = std::function<bool(const QString& question)>;
  void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }

  /// Run ids of the selected rows, in table order.
  /// The selected runs, in the order they were picked (then by row for any picked together).
  QList<qint64> selectedRunIds() const;
  void selectRuns(const QList<qint64>& ids);
  /// Deletes the selected runs after confirmation; returns how many were deleted.
  int deleteSelected();
  /// Writes run `runId` as "csv" or "json" to path; empty on success, else the error.
  QString exportRun(qint64 runId, const QString& path, const QString& format) const;
  /// Asks the user for 2–4 selected runs' comparison (emits compareRequested).
  bool compareSelected();

  RunTableModel* model() const { return m_model; }
  RunFilterProxy* proxy() const { return m_proxy; }
  QTableView* table() const { return m_table; }
  RunDetailPane* detail() const { return m_detail; }
  QLineEdit* filterEdit() const { return m_filter; }
  QComboBox* verdictFilter() const { return m_verdict; }
  QString statusText() const;

 public slots:
  /// Re-reads the database (a run ended, or another process wrote to it).
  void refresh();

 signals:
  /// The user picked 2–4 runs to compare.
  void compareRequested(const QList<qint64>& runIds);

 private:
  void buildUi();
  void onSelectionChanged();
  QList<qint64> selectedByRow() const;
  /// "4 runs in DB", or "1 of 4 runs shown (filtered) in DB" while a filter hides some.
  void showRunCount();
  void exportWithDialog(const QString& format);
  void setStatus(const QString& text, bool error = false);

  StudioContext m_context;
  Confirm m_confirm;
  RunTableModel* m_model = nullptr;
  RunFilterProxy* m_proxy = nullptr;
  QTableView* m_table = nullptr;
  RunDetailPane* m_detail = nullptr;
  QLineEdit* m_filter = nullptr;
  QComboBox* m_verdict = nullptr;
  QPushButton* m_compare = nullptr;
  QPushButton* m_delete = nullptr;
  QPushButton* m_exportCsv = nullptr;
  QPushButton* m_exportJson = nullptr;
  QLabel* m_status = nullptr;
  /// The selected runs in the order they were picked: the first is Compare's baseline.
  QList<qint64> m_pickOrder;
};

}  // namespace plumbline::ui::history
