#include "ui/live/notice_model.h"

#include <QBrush>
#include <QColor>

namespace plumbline::ui::live {

NoticeModel::NoticeModel(QObject* parent) : QAbstractListModel(parent) {}

int NoticeModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_notices.size());
}

QVariant NoticeModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const Notice& n = m_notices[static_cast<size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      return n.atSeconds >= 0 ? QStringLiteral("%1 s  %2").arg(n.atSeconds, 0, 'f', 1).arg(n.text) : n.text;
    case Qt::ToolTipRole: return n.text;
    case Qt::ForegroundRole:
      if (n.level == QStringLiteral("error")) return QBrush(QColor(0xb0, 0x1c, 0x1c));
      if (n.level == QStringLiteral("warning")) return QBrush(QColor(0x9a, 0x5b, 0x00));
      return {};
    case LevelRole: return n.level;
    case AtSecondsRole: return n.atSeconds;
    default: return {};
  }
}

void NoticeModel::add(const QString& level, const QString& text, double atSeconds) {
  if (static_cast<int>(m_notices.size()) >= kMaxNotices) {
    beginRemoveRows({}, 0, 0);
    m_notices.erase(m_notices.begin());
    endRemoveRows();
  }
  const int row = static_cast<int>(m_notices.size());
  beginInsertRows({}, row, row);
  m_notices.push_back({level, text, atSeconds});
  endInsertRows();
}

void NoticeModel::clear() {
  beginResetModel();
  m_notices.clear();
  endResetModel();
}

}  // namespace plumbline::ui::live
