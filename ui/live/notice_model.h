#pragma once
#include <QAbstractListModel>
#include <QString>
#include <vector>

namespace plumbline::ui::live {

/// The run's notices (worker died, stop requested, launch errors...), newest last.
/// Bounded: the oldest are dropped past kMaxNotices.
class NoticeModel : public QAbstractListModel {
  Q_OBJECT
 public:
  static constexpr int kMaxNotices = 500;
  enum Role { LevelRole = Qt::UserRole + 1, AtSecondsRole };

  explicit NoticeModel(QObject* parent = nullptr);
  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

  /// level: "info" | "warning" | "error"; atSeconds < 0 when not tied to the run's clock.
  void add(const QString& level, const QString& text, double atSeconds = -1);
  void clear();

 private:
  struct Notice {
    QString level, text;
    double atSeconds = -1;
  };
  std::vector<Notice> m_notices;
};

}  // namespace plumbline::ui::live
