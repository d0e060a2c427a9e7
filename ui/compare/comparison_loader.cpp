#include "ui/compare/comparison_loader.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>
#include <QThread>

#include <vector>

namespace plumbline::ui::compare {

ComparisonLoader::ComparisonLoader(QObject* parent) : QObject(parent) {}

ComparisonLoader::~ComparisonLoader() = default;

void ComparisonLoader::load(const QString& dbPath, const QList<qint64>& ids,
                            const plumbline::compare::Slo& slo) {
  const quint64 generation = ++m_generation;
  ++m_running;
  std::vector<int64_t> idVector(ids.begin(), ids.end());
  QPointer<ComparisonLoader> self(this);
  QThread* thread = QThread::create([self, generation, path = dbPath.toStdString(), idVector, slo] {
    std::shared_ptr<const plumbline::compare::Comparison> result;
    QString error;
    try {
      plumbline::store::RunReader reader(path);
      result = std::make_shared<const plumbline::compare::Comparison>(
          plumbline::compare::buildComparison(reader, idVector, slo));
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
    // Back on the loader's thread; dropped if the loader is gone.
    QMetaObject::invokeMethod(
        qApp, [self, generation, result, error] {
          if (!self) return;
          --self->m_running;
          if (generation != self->m_generation) return;
          if (result) emit self->loaded(result);
          else emit self->failed(error);
        },
        Qt::QueuedConnection);
  });
  connect(thread, &QThread::finished, thread, &QObject::deleteLater);
  thread->start();
}

}  // namespace plumbline::ui::compare
