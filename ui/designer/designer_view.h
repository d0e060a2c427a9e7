#pragma once
#include <QByteArray>
#include <QFutureWatcher>
#include <QThreadPool>
#include <QWidget>

#include <memory>
#include <string>
#include <vector>

#include "core/workload/workload_warnings.h"
#include "ui/common/studio_context.h"
#include "ui/designer/workload_document.h"

class QLabel;
class QListView;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTimer;

namespace plumbline::ui::designer {

class CatalogModel;
class DesignerForm;
/// The workload designer: catalog sidebar, grouped form with live previews, JSON tab,
/// loader errors and warnings at their fields, save / save as / revert / new from catalog,
/// and Run (enabled only for a valid workload).
///
/// A workload that names files (a trace, a dataset, a tokenizer) is validated on another thread:
/// the loader reads them, and a first read took 0.1-3 s (a Mooncake or a 300k-row trace, the
/// Qwen3 tokenizer) on the GUI thread. Until the answer comes, Run is off and the status says
/// what is being read.
class DesignerView : public QWidget {
  Q_OBJECT
 public:
  explicit DesignerView(const StudioContext& context, QWidget* parent = nullptr);
  /// Waits at most 0.1 s for a validation still reading files (a trace on a pipe nobody writes,
  /// a slow disk): the studio closes, and the read ends with the process.
  ~DesignerView() override;

  /// Loads a workload file (asking first about unsaved changes); on failure shows why and
  /// returns false.
  bool openWorkload(const QString& path);
  /// The workload as currently edited, as the JSON text `plumbline run` reads.
  QByteArray currentJson() const;
  /// Starts an unsaved copy of a catalog entry.
  void newFromCatalog(int row);
  /// Writes to `path` (no dialog); false with the reason shown when it cannot.
  bool saveTo(const QString& path);
  /// Asks whether to save unsaved changes; false when the person cancelled.
  bool maybeSaveChanges();

  /// Validates and redraws now, on this thread, instead of after the edit pause (tests, before
  /// Run, and where the answer is needed at once).
  void revalidateNow();
  /// Whether the answer of a validation on another thread (the workload names files) is still
  /// to be shown.
  bool validating() const { return m_answerPending; }

  // For tests and the main window.
  WorkloadDocument* document() const { return m_document; }
  DesignerForm* form() const { return m_form; }
  CatalogModel* catalogModel() const { return m_catalog; }
  QPlainTextEdit* jsonEditor() const { return m_json; }
  QPushButton* runButton() const { return m_run; }
  /// The message shown at the field bound to `path` ("" when none).
  QString messageAt(const std::string& path) const;
  const std::vector<workload::WorkloadWarning>& warnings() const { return m_warnings; }
  /// The status line under the buttons, as shown.
  QString statusText() const;
  /// "" when valid; otherwise the loader's "path: reason".
  QString validationText() const { return m_validationText; }
  /// The description under the catalog: of the entry that is open, empty for a file not in it.
  QString catalogDescription() const;

 signals:
  /// The user asked to run the edited workload (sourcePath may be empty for unsaved work).
  void runRequested(const QByteArray& workloadJson, const QString& sourcePath);

 private:
  QWidget* buildSidebar();
  QWidget* buildEditor();
  void documentChanged(const void* origin);
  /// Validates the document: on another thread when it names files, else at once.
  void revalidate();
  void validationFinished();
  /// Shows what a validation of the document as it is now found.
  void showValidation(const Validation& validation);
  /// Says, once a validation has taken a moment, which files it is reading, and redraws the
  /// previews that need none.
  void showChecking();
  void updateTitle();
  bool save();
  bool saveAs();
  void revert();
  void showProblem(const QString& text);

  StudioContext m_context;
  WorkloadDocument* m_document;
  CatalogModel* m_catalog;
  DesignerForm* m_form = nullptr;
  QListView* m_catalogView = nullptr;
  QLabel* m_catalogDescription = nullptr;
  QLabel* m_title = nullptr;
  QLabel* m_status = nullptr;
  QLabel* m_jsonStatus = nullptr;
  QTabWidget* m_tabs = nullptr;
  QPlainTextEdit* m_json = nullptr;
  QPushButton* m_save = nullptr;
  QPushButton* m_revert = nullptr;
  QPushButton* m_run = nullptr;
  QTimer* m_revalidateTimer = nullptr;
  /// Its own thread: Qt paints with the global pool's threads (scaled images, borders), and a
  /// read of seconds there held every repaint of the window (seen under Xvfb: 3 s).
  std::unique_ptr<QThreadPool> m_validationThread = std::make_unique<QThreadPool>();
  QFutureWatcher<Validation>* m_validation = nullptr;
  QTimer* m_checkingNotice = nullptr;
  /// A background validation's answer is awaited; when the document changed while it ran, it
  /// is asked again (m_validateAgain) instead of shown.
  bool m_answerPending = false;
  bool m_validateAgain = false;
  std::vector<workload::WorkloadWarning> m_warnings;
  QString m_validationText;
  bool m_settingJsonText = false;
};

}  // namespace plumbline::ui::designer
