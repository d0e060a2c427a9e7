#pragma once
#include <QMainWindow>

#include "ui/common/studio_context.h"

class QTabWidget;

namespace plumbline::ui {

namespace designer { class DesignerView; }
namespace live { class LiveView; }
namespace history { class HistoryView; }
namespace compare { class CompareView; }

/// The studio's window: designer, live run, history and compare as tabs, wired together.
/// Holds no logic of its own beyond routing between the views.
class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(const StudioContext& context, QWidget* parent = nullptr);

  /// Loads a workload into the designer and prepares the live view to run it against the
  /// embedded simulator, then shows the live view (one click from live charts). A workload
  /// that is not valid stays in the Designer, its error at the field it names: false.
  bool openWorkload(const QString& path);

  designer::DesignerView* designerView() const { return m_designer; }
  live::LiveView* liveView() const { return m_live; }
  history::HistoryView* historyView() const { return m_history; }
  compare::CompareView* compareView() const { return m_compare; }

 protected:
  /// Asks about an unsaved workload before the window closes.
  void closeEvent(QCloseEvent* event) override;

 private:
  StudioContext m_context;
  QTabWidget* m_tabs = nullptr;
  designer::DesignerView* m_designer = nullptr;
  live::LiveView* m_live = nullptr;
  history::HistoryView* m_history = nullptr;
  compare::CompareView* m_compare = nullptr;
};

}  // namespace plumbline::ui
