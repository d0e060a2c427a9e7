#pragma once
#include <QAbstractListModel>
#include <QString>
#include <QVector>

namespace plumbline::ui::designer {

/// The workloads a person can start from: the shipped catalog and their own folder, each
/// entry with its name and one-line description read from the file.
class CatalogModel : public QAbstractListModel {
  Q_OBJECT
 public:
  enum Role { PathRole = Qt::UserRole + 1, DescriptionRole, OriginRole };
  struct Entry {
    QString name, description, path;
    QString origin;  ///< "catalog" or "yours"
  };

  CatalogModel(QString catalogDir, QString userDir, QObject* parent = nullptr);

  /// Rescans both folders.
  void refresh();
  const Entry& entry(int row) const { return m_entries[row]; }

  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QHash<int, QByteArray> roleNames() const override;

 private:
  QString m_catalogDir, m_userDir;
  QVector<Entry> m_entries;
};

}  // namespace plumbline::ui::designer
