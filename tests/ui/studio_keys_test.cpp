// The studio by keyboard: keys reach the Designer's catalog before any click, and the buttons a
// person presses most have keys that their tooltips name.
#include <QApplication>
#include <QLabel>
#include <QListView>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "ui/designer/designer_view.h"
#include "ui/live/live_view.h"
#include "ui/main_window.h"

using namespace plumbline::ui;

namespace {

QPushButton* buttonNamed(QWidget* root, const QString& text) {
  for (QPushButton* b : root->findChildren<QPushButton*>())
    if (b->text() == text) return b;
  return nullptr;
}

}  // namespace

class StudioKeysTest : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir m_dir;

  StudioContext context() const {
    StudioContext c;
    c.dbPath = m_dir.filePath(QStringLiteral("runs.db"));
    c.catalogDir = QStringLiteral(PLUMBLINE_SOURCE_DIR "/workloads");
    c.userWorkloadDir = m_dir.filePath(QStringLiteral("mine"));
    c.plumblineBin = QStringLiteral(PLUMBLINE_BIN);
    return c;
  }

 private slots:
  void initTestCase() {
    // No run of this machine's other sessions may be attached to.
    qputenv("XDG_RUNTIME_DIR", m_dir.filePath(QStringLiteral("runtime")).toUtf8());
    QDir().mkpath(m_dir.filePath(QStringLiteral("runtime")));
  }

  void theCatalogHasTheFocusFromTheStart() {
    MainWindow window(context());
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    auto* catalog = qobject_cast<QListView*>(QApplication::focusWidget());
    QVERIFY2(catalog, QApplication::focusWidget()
                          ? QApplication::focusWidget()->metaObject()->className()
                          : "none");
    QVERIFY(window.designerView()->isAncestorOf(catalog));
    QVERIFY(catalog->wordWrap());  // long names wrap, not "conversatio…"
  }

  // QA 23b: --open of an invalid workload showed Live run with Start enabled; the run died
  // naming the studio's temporary copy. It stays in the Designer, which names the field.
  void anInvalidWorkloadOpensInTheDesignerAndCannotBeStarted() {
    MainWindow window(context());
    const QString path = m_dir.filePath(QStringLiteral("invalid.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QFile catalog(QStringLiteral(PLUMBLINE_SOURCE_DIR "/workloads/quickstart.json"));
    QVERIFY(catalog.open(QIODevice::ReadOnly));
    f.write(catalog.readAll().replace("\"rate\": 5", "\"rate\": -5"));
    f.close();
    QVERIFY(!window.openWorkload(path));
    auto* tabs = window.findChild<QTabWidget*>();
    QVERIFY(tabs);
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(window.designerView()));
    QVERIFY2(window.designerView()->validationText().contains(QStringLiteral("must be >= 0")),
             qPrintable(window.designerView()->validationText()));
    QPushButton* start = buttonNamed(window.liveView(), QStringLiteral("Start"));
    QVERIFY(start);
    QVERIFY(!start->isEnabled());
    // A valid one opens on Live run, ready to start, saying what the command line changes
    // (QA 23b: --rate 8 --duration 5 was said nowhere until the run was going).
    window.liveView()->setLoadOverride(8.0, 5.0);
    QVERIFY(window.openWorkload(QStringLiteral(PLUMBLINE_SOURCE_DIR "/workloads/quickstart.json")));
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(window.liveView()));
    QVERIFY(start->isEnabled());
    bool said = false;
    for (QLabel* l : window.liveView()->findChildren<QLabel*>())
      said |= l->text() ==
              QStringLiteral("quickstart.json (one stage of 8/s for 5 s, from the command line)");
    QVERIFY(said);
  }

  // QA 23b: the window grew to 1446 px at start and whenever Compare showed a result, cutting
  // off Run ▶, Compare and Export SVG on a 1400 px screen. It fits a 1366 × 768 laptop.
  void theWindowFitsALaptopScreen() {
    MainWindow window(context());
    auto* tabs = window.findChild<QTabWidget*>();
    QVERIFY(tabs);
    for (int i = 0; i < tabs->count(); ++i) {
      const QSize hint = tabs->widget(i)->minimumSizeHint();
      QVERIFY2(
          hint.width() <= 1340,
          qPrintable(QStringLiteral("%1 tab needs %2 px").arg(tabs->tabText(i)).arg(hint.width())));
    }
    QVERIFY2(window.minimumSizeHint().width() <= 1366,
             qPrintable(QString::number(window.minimumSizeHint().width())));
    QVERIFY2(window.minimumSizeHint().height() <= 740,
             qPrintable(QString::number(window.minimumSizeHint().height())));
  }

  void runStartAndSaveHaveKeysTheirTooltipsName() {
    MainWindow window(context());
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QPushButton* run = window.designerView()->runButton();
    QPushButton* save = buttonNamed(window.designerView(), QStringLiteral("Save"));
    QPushButton* start = buttonNamed(window.liveView(), QStringLiteral("Start"));
    QPushButton* stop = buttonNamed(window.liveView(), QStringLiteral("Stop"));
    QVERIFY(run && save && start && stop);
    const QList<QPair<QPushButton*, QKeySequence>> keys = {
        {run, QKeySequence(Qt::CTRL | Qt::Key_R)},
        {save, QKeySequence::Save},
        {start, QKeySequence(Qt::CTRL | Qt::Key_Return)},
        {stop, QKeySequence(Qt::CTRL | Qt::Key_Period)}};
    for (const auto& [button, key] : keys) {
      QCOMPARE(button->shortcut(), key);
      QVERIFY2(button->toolTip().endsWith(
                   QStringLiteral("(%1)").arg(key.toString(QKeySequence::NativeText))),
               qPrintable(button->toolTip()));
    }
    // Ctrl+R sends the designer's workload to the Live run tab.
    auto* tabs = window.findChild<QTabWidget*>();
    QVERIFY(tabs);
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(window.designerView()));
    QSignalSpy sent(window.designerView(), &designer::DesignerView::runRequested);
    QVERIFY(run->isEnabled());
    QTest::keySequence(window.windowHandle(), QKeySequence(Qt::CTRL | Qt::Key_R));  // as typed
    QTRY_COMPARE(sent.count(), 1);  // a key clicks the button as a person would: 100 ms down
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(window.liveView()));
    QVERIFY(start->isEnabled());
  }
};

QTEST_MAIN(StudioKeysTest)
#include "studio_keys_test.moc"
