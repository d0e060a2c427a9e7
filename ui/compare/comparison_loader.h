#pragma once
#include <QList>
#include <QObject>
#include <QString>
#include <memory>

#include "core/compare/comparison.h"

namespace plumbline::ui::compare {

/// Builds a comparison on a worker thread (goodput reads every request of every run) and
/// delivers it on the thread the loader lives in. A newer request supersedes an older one:
/// only the latest result is delivered.
class ComparisonLoader : public QObject {
  Q_OBJECT
 public:
  explicit ComparisonLoader(QObject* parent = nullptr);
  ~ComparisonLoader() override;

  void load(const QString& dbPath, const QList<qint64>& ids, const plumbline::compare::Slo& slo);
  bool busy() const { return m_running > 0; }

 signals:
  void loaded(std::shared_ptr<const plumbline::compare::Comparison> comparison);
  void failed(const QString& message);

 private:
  quint64 m_generation = 0;
  int m_running = 0;
};

}  // namespace plumbline::ui::compare
