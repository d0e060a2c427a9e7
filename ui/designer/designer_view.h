#pragma once
#include <QByteArray>
#include <QWidget>

#include "ui/common/studio_context.h"

namespace plumbline::ui::designer {

/// The workload designer: catalog sidebar, grouped form, live previews, JSON tab.
class DesignerView : public QWidget {
  Q_OBJECT
 public:
  explicit DesignerView(const StudioContext& context, QWidget* parent = nullptr);

  /// Loads a workload file; on failure shows why and returns false.
  bool openWorkload(const QString& path);
  /// The workload as currently edited, as the JSON text `plumbline run` reads.
  QByteArray currentJson() const;

 signals:
  /// The user asked to run the edited workload (sourcePath may be empty for unsaved work).
  void runRequested(const QByteArray& workloadJson, const QString& sourcePath);

 private:
  StudioContext m_context;
  QByteArray m_json;
};

}  // namespace plumbline::ui::designer
