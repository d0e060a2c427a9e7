#include "ui/designer/catalog_model.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace plumbline::ui::designer {
namespace {

void scan(const QString& dir, const QString& origin, QVector<CatalogModel::Entry>& out) {
  if (dir.isEmpty()) return;
  const QDir folder(dir);
  QVector<CatalogModel::Entry> found;
  for (const QFileInfo& info : folder.entryInfoList({QStringLiteral("*.json")}, QDir::Files)) {
    QFile file(info.absoluteFilePath());
    CatalogModel::Entry entry{info.completeBaseName(), QString(), info.absoluteFilePath(), origin};
    if (file.open(QIODevice::ReadOnly)) {
      const QJsonObject object = QJsonDocument::fromJson(file.readAll()).object();
      if (object.contains(QStringLiteral("name")))
        entry.name = object.value(QStringLiteral("name")).toString(entry.name);
      entry.description = object.value(QStringLiteral("description")).toString();
      if (object.isEmpty()) entry.description = QStringLiteral("(not a JSON object; open it to see why)");
    }
    found.push_back(entry);
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return QString::localeAwareCompare(a.name, b.name) < 0;
  });
  out += found;
}

}  // namespace

CatalogModel::CatalogModel(QString catalogDir, QString userDir, QObject* parent)
    : QAbstractListModel(parent), m_catalogDir(std::move(catalogDir)), m_userDir(std::move(userDir)) {
  refresh();
}

void CatalogModel::refresh() {
  beginResetModel();
  m_entries.clear();
  scan(m_catalogDir, QStringLiteral("catalog"), m_entries);
  scan(m_userDir, QStringLiteral("yours"), m_entries);
  endResetModel();
}

int CatalogModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

QVariant CatalogModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() ||
      !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const Entry& e = m_entries[index.row()];
  switch (role) {
    case Qt::DisplayRole:
      return e.origin == QStringLiteral("yours") ? e.name + QStringLiteral("  (yours)") : e.name;
    case Qt::ToolTipRole:  // the whole name too: a narrow list wraps or cuts it
      return QString(e.name + QStringLiteral("\n") +
                     (e.description.isEmpty()
                          ? e.path
                          : QString(e.description + QStringLiteral("\n") + e.path)));
    case PathRole:
      return e.path;
    case DescriptionRole:
      return e.description;
    case OriginRole:
      return e.origin;
    default:
      return {};
  }
}

QHash<int, QByteArray> CatalogModel::roleNames() const {
  QHash<int, QByteArray> names = QAbstractListModel::roleNames();
  names.insert(PathRole, "path");
  names.insert(DescriptionRole, "description");
  names.insert(OriginRole, "origin");
  return names;
}

}  // namespace plumbline::ui::designer
