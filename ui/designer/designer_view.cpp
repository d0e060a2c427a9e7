#include "ui/designer/designer_view.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/common/button_shortcut.h"
#include "ui/designer/catalog_model.h"
#include "ui/designer/designer_form.h"
#include "ui/designer/field_binder.h"
#include "ui/designer/file_references.h"
#include "ui/designer/workload_document.h"

namespace plumbline::ui::designer {
namespace {

/// Long enough to let a person finish typing a number, short enough to feel live.
constexpr int kRevalidateDelayMs = 150;
/// A background validation still running after this long says what it reads (a shorter one,
/// from the loader's caches, would only flicker).
constexpr int kCheckingNoticeDelayMs = 200;
/// How long closing waits for a validation still reading before it lets the read go on alone.
constexpr int kCloseWaitMs = 100;

const QByteArray kEmptyWorkload = R"({
  "plumbline": 1,
  "name": "new workload",
  "target": {"url": "embedded", "api": "chat", "model": "mock", "stream": true},
  "load": {"arrival": "poisson", "seed": 1, "stages": [{"rate": 10, "duration_s": 60}]},
  "requests": {
    "input_tokens": {"dist": "lognormal", "median": 512, "sigma": 0.7, "min": 8, "max": 8192},
    "output_tokens": {"dist": "normal", "mean": 256, "stddev": 64, "min": 1, "max": 2048},
    "prompt": {"source": "synthetic"},
    "sampling": {"temperature": 0.7, "ignore_eos": true}
  },
  "session": {"shape": "single"}
}
)";

}  // namespace

DesignerView::DesignerView(const StudioContext& context, QWidget* parent)
    : QWidget(parent),
      m_context(context),
      m_document(new WorkloadDocument(this)),
      m_catalog(new CatalogModel(context.catalogDir, context.userWorkloadDir, this)),
      m_revalidateTimer(new QTimer(this)),
      m_validation(new QFutureWatcher<Validation>(this)),
      m_checkingNotice(new QTimer(this)) {
  // A new workload's relative files resolve where Save suggests putting it.
  m_document->reset(kEmptyWorkload, QString(), context.userWorkloadDir);
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(buildSidebar());
  splitter->addWidget(buildEditor());
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({260, 1100});
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(splitter);

  m_validationThread->setMaxThreadCount(1);
  m_revalidateTimer->setSingleShot(true);
  m_revalidateTimer->setInterval(kRevalidateDelayMs);
  connect(m_revalidateTimer, &QTimer::timeout, this, &DesignerView::revalidate);
  connect(m_validation, &QFutureWatcher<Validation>::finished, this,
          &DesignerView::validationFinished);
  m_checkingNotice->setSingleShot(true);
  m_checkingNotice->setInterval(kCheckingNoticeDelayMs);
  connect(m_checkingNotice, &QTimer::timeout, this, &DesignerView::showChecking);
  connect(m_document, &WorkloadDocument::changed, this, &DesignerView::documentChanged);
  connect(m_document, &WorkloadDocument::dirtyChanged, this, &DesignerView::updateTitle);
  connect(m_document, &WorkloadDocument::pathChanged, this, &DesignerView::updateTitle);
  documentChanged(nullptr);
  revalidateNow();
}

DesignerView::~DesignerView() {
  // A read that ends at once is waited for. One that does not (a trace on a pipe nobody writes,
  // a slow disk) is not: its task holds copies of what it reads, nothing of this view, so its
  // pool is let go instead of destroyed (its destructor would wait), and the read ends with the
  // process. Let-go pools stay reachable, and are never destroyed (at exit that would wait too).
  if (m_validationThread->waitForDone(kCloseWaitMs)) return;
  static auto* const letGo = new std::vector<QThreadPool*>;  // the GUI thread's only
  letGo->push_back(m_validationThread.release());
}

QWidget* DesignerView::buildSidebar() {
  auto* side = new QWidget;
  auto* layout = new QVBoxLayout(side);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(new QLabel(QStringLiteral("<b>Workloads</b> (catalog and yours)")));
  m_catalogView = new QListView;
  m_catalogView->setModel(m_catalog);
  m_catalogView->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_catalogView->setWordWrap(true);  // long names wrap instead of ending in "…"
  m_catalogView->setTextElideMode(Qt::ElideNone);
  m_catalogView->setResizeMode(QListView::Adjust);
  setFocusProxy(m_catalogView);  // keys reach the catalog before any click
  layout->addWidget(m_catalogView, 1);
  m_catalogDescription = new QLabel;
  m_catalogDescription->setWordWrap(true);
  m_catalogDescription->setMinimumHeight(60);
  m_catalogDescription->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  layout->addWidget(m_catalogDescription);
  auto* open = new QPushButton(QStringLiteral("Open"));
  auto* copy = new QPushButton(QStringLiteral("New from this"));
  auto* browse = new QPushButton(QStringLiteral("Open file…"));
  open->setToolTip(QStringLiteral("edit this file (Enter in the list)"));
  copy->setToolTip(QStringLiteral("start an unsaved copy of it"));
  setButtonShortcut(browse, QKeySequence::Open, QStringLiteral("open a workload file"));
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(open);
  buttons->addWidget(copy);
  layout->addLayout(buttons);
  layout->addWidget(browse);

  connect(m_catalogView->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& index) {
            m_catalogDescription->setText(index.data(CatalogModel::DescriptionRole).toString());
          });
  auto selectedPath = [this] {
    return m_catalogView->currentIndex().data(CatalogModel::PathRole).toString();
  };
  connect(m_catalogView, &QListView::activated, this,
          [this](const QModelIndex& index) { openWorkload(index.data(CatalogModel::PathRole).toString()); });
  connect(open, &QPushButton::clicked, this, [this, selectedPath] {
    if (!selectedPath().isEmpty()) openWorkload(selectedPath());
  });
  connect(copy, &QPushButton::clicked, this, [this] {
    if (m_catalogView->currentIndex().isValid()) newFromCatalog(m_catalogView->currentIndex().row());
  });
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open workload"),
                                                      m_context.userWorkloadDir,
                                                      QStringLiteral("Workloads (*.json)"));
    if (!path.isEmpty()) openWorkload(path);
  });
  return side;
}

QWidget* DesignerView::buildEditor() {
  auto* editor = new QWidget;
  auto* layout = new QVBoxLayout(editor);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* bar = new QHBoxLayout;
  m_title = new QLabel;
  m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
  bar->addWidget(m_title, 1);
  m_save = new QPushButton(QStringLiteral("Save"));
  auto* saveAs = new QPushButton(QStringLiteral("Save as…"));
  m_revert = new QPushButton(QStringLiteral("Revert"));
  m_run = new QPushButton(QStringLiteral("Run ▶"));
  setButtonShortcut(m_save, QKeySequence::Save, QStringLiteral("save the workload"));
  setButtonShortcut(saveAs, QKeySequence::SaveAs, QStringLiteral("save it under another name"));
  setButtonShortcut(m_run, QKeySequence(Qt::CTRL | Qt::Key_R),
                    QStringLiteral("send this workload to the Live run tab, where Start runs it"));
  for (QPushButton* button : {m_save, saveAs, m_revert, m_run}) bar->addWidget(button);
  layout->addLayout(bar);
  m_status = new QLabel;
  m_status->setWordWrap(true);
  layout->addWidget(m_status);

  m_tabs = new QTabWidget;
  m_form = new DesignerForm(m_document);
  auto* scroll = new QScrollArea;
  scroll->setWidget(m_form);
  scroll->setWidgetResizable(true);
  m_tabs->addTab(scroll, QStringLiteral("Form"));
  auto* jsonPage = new QWidget;
  auto* jsonLayout = new QVBoxLayout(jsonPage);
  m_json = new QPlainTextEdit;
  m_json->setLineWrapMode(QPlainTextEdit::NoWrap);
  QFont mono(QStringLiteral("monospace"));
  mono.setStyleHint(QFont::Monospace);
  m_json->setFont(mono);
  jsonLayout->addWidget(m_json, 1);
  m_jsonStatus = new QLabel;
  m_jsonStatus->setWordWrap(true);
  jsonLayout->addWidget(m_jsonStatus);
  m_tabs->addTab(jsonPage, QStringLiteral("JSON"));
  layout->addWidget(m_tabs, 1);

  connect(m_save, &QPushButton::clicked, this, &DesignerView::save);
  connect(saveAs, &QPushButton::clicked, this, &DesignerView::saveAs);
  connect(m_revert, &QPushButton::clicked, this, &DesignerView::revert);
  connect(m_run, &QPushButton::clicked, this, [this] {
    revalidateNow();
    // The run executes a copy elsewhere: relative files go there resolved as validated here.
    if (m_validationText.isEmpty()) emit runRequested(m_document->textForRun(), m_document->path());
  });
  connect(m_json, &QPlainTextEdit::textChanged, this, [this] {
    if (!m_settingJsonText) m_document->setText(m_json->toPlainText().toUtf8());
  });
  return editor;
}

bool DesignerView::openWorkload(const QString& path) {
  if (!maybeSaveChanges()) return false;
  if (const auto error = m_document->load(path)) {
    showProblem(QStringLiteral("cannot open %1: %2").arg(path, *error));
    return false;
  }
  const QString canonical = QFileInfo(path).canonicalFilePath();
  bool listed = false;
  for (int row = 0; row < m_catalog->rowCount(); ++row) {
    if (QFileInfo(m_catalog->entry(row).path).canonicalFilePath() == canonical) {
      m_catalogView->setCurrentIndex(m_catalog->index(row));
      listed = true;
    }
  }
  if (!listed) {  // QA 23b: another entry stayed highlighted, its description beside this file
    m_catalogView->setCurrentIndex(QModelIndex());
    m_catalogView->clearSelection();
    m_catalogDescription->clear();
  }
  revalidate();
  // A file that is not JSON is fixed in its text: the form has nothing of it to show.
  if (!m_document->syntaxError().isEmpty()) m_tabs->setCurrentIndex(1);
  return true;
}

QByteArray DesignerView::currentJson() const { return m_document->text(); }

QString DesignerView::statusText() const { return m_status->text(); }

QString DesignerView::catalogDescription() const { return m_catalogDescription->text(); }

void DesignerView::newFromCatalog(int row) {
  if (row < 0 || row >= m_catalog->rowCount() || !maybeSaveChanges()) return;
  const CatalogModel::Entry& entry = m_catalog->entry(row);
  QFile file(entry.path);
  if (!file.open(QIODevice::ReadOnly)) {
    showProblem(QStringLiteral("cannot open %1: %2").arg(entry.path, file.errorString()));
    return;
  }
  // The copy's traces and datasets are the entry's: its relative files resolve there.
  m_document->reset(file.readAll(), entry.name + QStringLiteral(" (copy)"),
                    QFileInfo(entry.path).absolutePath());
  revalidate();
}

bool DesignerView::saveTo(const QString& path) {
  QDir().mkpath(QFileInfo(path).absolutePath());
  if (const auto error = m_document->saveTo(path)) {
    showProblem(QStringLiteral("cannot save %1: %2").arg(path, *error));
    return false;
  }
  m_catalog->refresh();
  return true;
}

bool DesignerView::save() {
  if (m_document->path().isEmpty()) return saveAs();
  return saveTo(m_document->path());
}

bool DesignerView::saveAs() {
  const OrderedJson* name = JsonPath("name").find(m_document->json());
  QString base = name && name->is_string() ? QString::fromStdString(name->get<std::string>())
                                           : QStringLiteral("workload");
  base.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]+")), QStringLiteral("_"));
  const QString suggested = m_context.userWorkloadDir + QLatin1Char('/') + base + QStringLiteral(".json");
  const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Save workload as"), suggested,
                                                    QStringLiteral("Workloads (*.json)"));
  return !path.isEmpty() && saveTo(path);
}

void DesignerView::revert() {
  if (m_document->path().isEmpty() || !m_document->isDirty()) return;
  const auto answer = QMessageBox::question(
      this, QStringLiteral("Revert"),
      QStringLiteral("Throw away your changes and reload %1?").arg(m_document->path()));
  if (answer != QMessageBox::Yes) return;
  if (const auto error = m_document->load(m_document->path())) showProblem(*error);
  revalidate();
}

bool DesignerView::maybeSaveChanges() {
  if (!m_document->isDirty()) return true;
  const auto answer = QMessageBox::question(
      this, QStringLiteral("Unsaved workload"),
      QStringLiteral("The workload has unsaved changes. Save them?"),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Cancel) return false;
  if (answer == QMessageBox::Save) return save();
  return true;
}

void DesignerView::documentChanged(const void* origin) {
  m_form->refreshFields(origin);
  if (origin != m_document) {  // the JSON tab did not make this change: show the new text
    m_settingJsonText = true;
    const int position = m_json->textCursor().position();
    m_json->setPlainText(QString::fromUtf8(m_document->text()));
    QTextCursor cursor = m_json->textCursor();
    cursor.setPosition(std::min(position, static_cast<int>(m_json->toPlainText().size())));
    m_json->setTextCursor(cursor);
    m_settingJsonText = false;
  }
  updateTitle();
  m_revalidateTimer->start();
}

void DesignerView::revalidateNow() {
  m_revalidateTimer->stop();
  m_checkingNotice->stop();
  m_validateAgain = false;
  // One running reads the same files: waited for, it leaves them in the loader's caches.
  if (m_answerPending) m_validation->waitForFinished();
  m_answerPending = false;  // its answer, still to be delivered, is not shown
  showValidation(m_document->validate());
}

void DesignerView::revalidate() {
  m_revalidateTimer->stop();
  if (m_answerPending) {  // one at a time: asked again when it ends
    m_validateAgain = true;
    return;
  }
  if (FileReferences::named(m_document->json()).isEmpty())
    return showValidation(m_document->validate());
  m_validationText = QStringLiteral("not checked yet: its files are being read");
  m_run->setEnabled(false);
  m_checkingNotice->start();
  m_answerPending = true;
  m_validation->setFuture(QtConcurrent::run(m_validationThread.get(), m_document->validator()));
}

void DesignerView::validationFinished() {
  // Not awaited: revalidateNow answered instead (and a later one's future is not this one).
  if (!m_answerPending || !m_validation->isFinished()) return;
  m_answerPending = false;
  m_checkingNotice->stop();
  if (m_validateAgain) {  // the document changed meanwhile: this answer is of an older text
    m_validateAgain = false;
    return revalidate();
  }
  showValidation(m_validation->result());
}

void DesignerView::showChecking() {
  if (!m_answerPending) return;
  const QString text = QStringLiteral("… checking: reading ") +
                       FileReferences::named(m_document->json()).join(QStringLiteral(", "));
  m_status->setStyleSheet(QStringLiteral("color: #555555;"));
  m_status->setText(text);
  m_jsonStatus->setStyleSheet(m_status->styleSheet());
  m_jsonStatus->setText(text);
  // Nor are the previews of the text before (another file's, after an open) left standing:
  // those that need no file are drawn from the text, the others wait for the answer. Nor the
  // messages at its fields: an error the edit fixed is not shown against it while it is read.
  m_form->binder()->clearMessages();
  m_warnings.clear();
  m_form->refreshPreviews(std::nullopt, /*filesBeingRead=*/true);
}

void DesignerView::showValidation(const Validation& validation) {
  FieldBinder* binder = m_form->binder();
  binder->clearMessages();
  m_warnings.clear();
  if (validation.error) {
    const ValidationError& error = *validation.error;
    m_validationText = error.path.isEmpty() ? error.message : error.path + QStringLiteral(": ") + error.message;
    binder->showError(error.path.toStdString(), error.message);
    m_status->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_status->setText(QStringLiteral("✖ not valid: ") + m_validationText);
  } else {
    m_validationText.clear();
    m_warnings = workload::workloadWarnings(*validation.spec);
    for (const auto& warning : m_warnings)
      binder->showWarning(warning.path, QString::fromStdString(warning.message));
    m_status->setStyleSheet(m_warnings.empty() ? QStringLiteral("color: #1b7a2f;") : QStringLiteral("color: #8a5a00;"));
    m_status->setText(m_warnings.empty()
                          ? QStringLiteral("✔ valid")
                          : QStringLiteral("✔ valid, with %1 warning%2 shown at their fields")
                                .arg(m_warnings.size())
                                .arg(m_warnings.size() == 1 ? QString() : QStringLiteral("s")));
  }
  // While the text does not parse the form shows the last JSON that did (for a file opened
  // broken: a new workload's defaults), and an edit there would write that over the text: it
  // is locked until the JSON tab's text parses again.
  const bool parses = m_document->syntaxError().isEmpty();
  m_form->setEnabled(parses);
  if (!parses)
    m_status->setText(m_status->text() +
                      QStringLiteral(" — the form is locked until the JSON tab's text parses"));
  m_jsonStatus->setText(m_status->text());
  m_jsonStatus->setStyleSheet(m_status->styleSheet());
  m_run->setEnabled(!validation.error);
  m_form->refreshPreviews(validation.spec);
}

void DesignerView::updateTitle() {
  const QString path = m_document->path();
  const QString name = path.isEmpty() ? QStringLiteral("(unsaved)") : path;
  m_title->setText(QStringLiteral("<b>%1</b>%2").arg(name.toHtmlEscaped(),
                                                     m_document->isDirty() ? QStringLiteral(" ●") : QString()));
  m_title->setToolTip(
      QStringLiteral("relative trace, dataset and tokenizer paths are read from %1")
          .arg(QDir::toNativeSeparators(m_document->baseDir().isEmpty() ? QDir::currentPath()
                                                                        : m_document->baseDir())));
  m_save->setEnabled(m_document->isDirty() || path.isEmpty());
  m_revert->setEnabled(m_document->isDirty() && !path.isEmpty());
}

void DesignerView::showProblem(const QString& text) {
  m_status->setStyleSheet(QStringLiteral("color: #b00020;"));
  m_status->setText(QStringLiteral("✖ ") + text);
}

QString DesignerView::messageAt(const std::string& path) const { return m_form->binder()->messageAt(path); }

}  // namespace plumbline::ui::designer
