#pragma once
#include <QByteArray>
#include <QWidget>

#include "ui/common/studio_context.h"

namespace plumbline::ui::live {

/// A live run: target (embedded simulator + preset, or URL + model + API key), start/stop,
/// progress, verdict banner and the live charts, fed by the run's telemetry socket.
class LiveView : public QWidget {
  Q_OBJECT
 public:
  explicit LiveView(const StudioContext& context, QWidget* parent = nullptr);

  /// Makes this workload the one Start launches; the target defaults to the embedded simulator.
  void prepareRun(const QByteArray& workloadJson, const QString& sourcePath);

 signals:
  /// A run this view launched or watched has ended (its row in the database is final).
  void runFinished(qint64 runId);

 private:
  StudioContext m_context;
};

}  // namespace plumbline::ui::live
