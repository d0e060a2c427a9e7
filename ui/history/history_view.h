#pragma once
#include <QList>
#include <QWidget>

#include "ui/common/studio_context.h"

namespace plumbline::ui::history {

/// Every run in the database: sortable, filterable table; tags, notes, rename, delete,
/// export; opening a run shows its full charts from stored windows and histograms.
class HistoryView : public QWidget {
  Q_OBJECT
 public:
  explicit HistoryView(const StudioContext& context, QWidget* parent = nullptr);

 public slots:
  /// Re-reads the database (a run ended, or another process wrote to it).
  void refresh();

 signals:
  /// The user picked 2–4 runs to compare.
  void compareRequested(const QList<qint64>& runIds);

 private:
  StudioContext m_context;
};

}  // namespace plumbline::ui::history
