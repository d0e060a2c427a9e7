#pragma once
#include <QSortFilterProxyModel>
#include <QStringList>

namespace plumbline::ui::history {

/// Sorts the run table by raw values and filters it: every word of the text must appear in
/// the run's searchable text (name, workload, target, model, verdict, tags, notes), and the
/// verdict must match when one is chosen.
class RunFilterProxy : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  enum class VerdictFilter { Any, KeptUp, HarnessLimited, Unfinished };

  explicit RunFilterProxy(QObject* parent = nullptr);
  void setFilterText(const QString& text);
  void setVerdictFilter(VerdictFilter filter);

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

 private:
  QStringList m_words;
  VerdictFilter m_verdict = VerdictFilter::Any;
};

}  // namespace plumbline::ui::history
