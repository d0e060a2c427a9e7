#include "ui/main_window.h"

#include <QCloseEvent>
#include <QTabWidget>

#include "ui/compare/compare_view.h"
#include "ui/designer/designer_view.h"
#include "ui/history/history_view.h"
#include "ui/live/live_view.h"

namespace plumbline::ui {

MainWindow::MainWindow(const StudioContext& context, QWidget* parent)
    : QMainWindow(parent), m_context(context) {
  setWindowTitle(QStringLiteral("Plumbline Studio"));
  m_tabs = new QTabWidget(this);
  m_designer = new designer::DesignerView(m_context, m_tabs);
  m_live = new live::LiveView(m_context, m_tabs);
  m_history = new history::HistoryView(m_context, m_tabs);
  m_compare = new compare::CompareView(m_context, m_tabs);
  m_tabs->addTab(m_designer, QStringLiteral("Designer"));
  m_tabs->addTab(m_live, QStringLiteral("Live run"));
  m_tabs->addTab(m_history, QStringLiteral("History"));
  m_tabs->addTab(m_compare, QStringLiteral("Compare"));
  // Opaque pages: a label or progress bar that changes on every live tick then repaints from
  // its page down, not the tab widget's frame under it as well (a fifth of the studio's paint).
  for (QWidget* page : {static_cast<QWidget*>(m_designer), static_cast<QWidget*>(m_live),
                        static_cast<QWidget*>(m_history), static_cast<QWidget*>(m_compare)})
    page->setAutoFillBackground(true);
  setCentralWidget(m_tabs);

  connect(m_designer, &designer::DesignerView::runRequested, this,
          [this](const QByteArray& json, const QString& sourcePath) {
            m_live->prepareRun(json, sourcePath);
            m_tabs->setCurrentWidget(m_live);
          });
  connect(m_live, &live::LiveView::runFinished, m_history, &history::HistoryView::refresh);
  connect(m_live, &live::LiveView::runFinished, m_compare, &compare::CompareView::refreshRunList);
  connect(m_history, &history::HistoryView::compareRequested, this,
          [this](const QList<qint64>& ids) {
            m_compare->compareRuns(ids);
            m_tabs->setCurrentWidget(m_compare);
          });
  resize(1400, 900);
  m_designer->setFocus();  // the catalog takes keys from the start (arrows, Enter opens)
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (m_designer->maybeSaveChanges())
    event->accept();
  else
    event->ignore();
}

bool MainWindow::openWorkload(const QString& path) {
  if (!m_designer->openWorkload(path)) return false;
  m_designer->revalidateNow();  // Live run needs the answer now (its files read here, once)
  // QA 23b: an invalid workload opened on Live run with Start enabled, and the run it started
  // died naming the studio's temporary copy. The Designer shows the error at its field.
  if (!m_designer->validationText().isEmpty()) {
    m_tabs->setCurrentWidget(m_designer);
    return false;
  }
  m_live->prepareRun(m_designer->currentJson(), path);
  m_tabs->setCurrentWidget(m_live);
  return true;
}

}  // namespace plumbline::ui
