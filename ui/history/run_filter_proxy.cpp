#include "ui/history/run_filter_proxy.h"

#include "ui/history/run_table_model.h"

namespace plumbline::ui::history {

RunFilterProxy::RunFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(RunTableModel::SortRole);
  setDynamicSortFilter(true);
}

void RunFilterProxy::setFilterText(const QString& text) {
  m_words = text.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts);
  invalidateFilter();
}

void RunFilterProxy::setVerdictFilter(VerdictFilter filter) {
  m_verdict = filter;
  invalidateFilter();
}

bool RunFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
  const QString verdict = index.data(RunTableModel::VerdictRole).toString();
  switch (m_verdict) {
    case VerdictFilter::Any: break;
    case VerdictFilter::KeptUp:
      if (verdict != QStringLiteral("kept_up")) return false;
      break;
    case VerdictFilter::HarnessLimited:
      if (verdict != QStringLiteral("harness_limited")) return false;
      break;
    case VerdictFilter::Unfinished:
      if (verdict == QStringLiteral("kept_up") || verdict == QStringLiteral("harness_limited"))
        return false;
      break;
  }
  const QString text = index.data(RunTableModel::SearchRole).toString();
  for (const QString& word : m_words)
    if (!text.contains(word)) return false;
  return true;
}

}  // namespace plumbline::ui::history
