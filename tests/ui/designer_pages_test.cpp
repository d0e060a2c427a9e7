// The designer on screen: rows that come and go as workloads are opened in turn, and the
// length histograms of a page that was not showing when a workload was opened.
#include <QFormLayout>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "core/workload/length_dist_parser.h"
#include "core/workload/length_histogram.h"
#include "core/workload/trace_replay.h"
#include "core/workload/workload_loader.h"

#include "tests/ui/designer_catalog.h"
#include "ui/designer/designer_form.h"
#include "ui/designer/designer_view.h"
#include "ui/designer/dist_editor.h"
#include "ui/designer/field_binder.h"
#include "ui/designer/field_grid.h"
#include "ui/designer/histogram_widget.h"
#include "ui/designer/workload_document.h"

using namespace plumbline::ui;
using namespace plumbline::ui::designer;
using namespace plumbline::ui::designer::testing;

namespace {

DistEditor* distEditor(const DesignerView& view, const std::string& path) {
  for (DistEditor* editor : view.form()->distEditors())
    if (editor->path() == path) return editor;
  return nullptr;
}

/// The caption a histogram of the document's distribution at `path` has: core's draws.
QString expectedSummary(const DesignerView& view, const std::string& path) {
  const OrderedJson* value = JsonPath(path).find(view.document()->json());
  if (!value) return QStringLiteral("(no %1)").arg(QString::fromStdString(path));
  const auto dist =
      plumbline::workload::parseLengthDist(nlohmann::json::parse(value->dump()), path);
  HistogramWidget reference;
  reference.setHistogram(plumbline::workload::lengthHistogram(dist, 1), QStringLiteral("tokens"));
  return reference.summary();
}

/// Lets the studio lay out and paint what the last step changed, as between two clicks.
void settle() {
  for (int i = 0; i < 3; ++i) QTest::qWait(10);
}

constexpr int kFormPage = 0;
constexpr int kJsonPage = 1;

/// Shows the Form or JSON page of the designer, as a click on its tab does.
void showPage(DesignerView& view, int page) {
  view.findChild<QTabWidget*>()->setCurrentIndex(page);
  settle();
}

/// Opens a catalog workload, as a double-click in the catalog does, and waits for its
/// validation (on another thread when it names files).
bool open(DesignerView& view, const char* name) {
  const bool opened = view.openWorkload(catalogFile(name));
  settle();
  return opened && QTest::qWaitFor([&view] { return !view.validating(); }, 20'000);
}

}  // namespace

class DesignerPagesTest : public QObject {
  Q_OBJECT

 private slots:
  void init() { QVERIFY(m_userDir.isValid()); }

  // QA 23b D1: this sequence crashed the studio. Every open hides and shows rows of the forms
  // and of the distribution editors; on Qt 6.4 a QFormLayout row hidden with setRowVisible
  // kept the layout index of an earlier pass, and the form's height-for-width pass wrote
  // through it past the end of its buffer (valgrind: "Invalid write ... after a block" in
  // QFormLayout::heightForWidth under FieldBinder::show). The heap damage crashed the studio
  // later, so the crash itself came and went; the forms' rows are now a FieldGrid's.
  void openingWorkloadsInTurnHidesAndShowsRowsSafely() {
    const QString broken = m_userDir.filePath(QStringLiteral("broken.json"));
    QByteArray text = fileText(catalogFile("quickstart.json"));
    text.truncate(text.size() / 2);
    QFile file(broken);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
    file.close();

    DesignerView view(contextWith(m_userDir.path()));
    view.resize(1400, 860);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    auto* scroll = view.findChild<QScrollArea*>();
    QVERIFY(scroll);

    QVERIFY(view.openWorkload(broken));
    settle();
    QCOMPARE(view.findChild<QTabWidget*>()->currentIndex(), kJsonPage);  // as for QA
    QVERIFY(open(view, "azure_code_replay.json"));
    showPage(view, kFormPage);
    scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum() / 2);
    settle();
    showPage(view, kJsonPage);
    QVERIFY(open(view, "long_context_rag.json"));
    showPage(view, kFormPage);
    QVERIFY(open(view, "agentic_codegen.json"));
    // The shortest sequence that overflowed: a trace replay, then agentic, the form showing.
    QVERIFY(open(view, "azure_code_replay.json"));
    QVERIFY(open(view, "agentic_codegen.json"));
    QVERIFY2(view.validationText().isEmpty(), qPrintable(view.validationText()));

    // No form of the designer hides a row with QFormLayout::setRowVisible.
    for (const QFormLayout* form : view.findChildren<QFormLayout*>())
      for (int row = 0; row < form->rowCount(); ++row) QVERIFY(form->isRowVisible(row));

    // The rows agentic uses are shown with their labels; the others are hidden with theirs.
    FieldBinder* binder = view.form()->binder();
    const std::pair<const char*, bool> rows[] = {{"session.steps", true},
                                                 {"session.tool_latency_s", true},
                                                 {"session.turns", false},
                                                 {"session.chunks", false},
                                                 {"load.stages", true},
                                                 {"load.trace.file", false},
                                                 {"requests.input_tokens.median", true},
                                                 {"requests.input_tokens.mean", false},
                                                 {"requests.output_tokens.mean", true},
                                                 {"requests.output_tokens.median", false}};
    for (const auto& [path, shown] : rows) {
      QWidget* row = binder->rowAt(path);
      QVERIFY2(row, path);
      QVERIFY2(row->isVisible() == shown, path);
      const QLabel* label = nullptr;
      for (const FieldGrid* grid : view.findChildren<FieldGrid*>())
        if (!label) label = grid->labelFor(row);
      QVERIFY2(label, path);
      QVERIFY2(label->isVisible() == shown, path);
    }
  }

  // QA 23b D3: a workload opened while the Form page was not showing kept the histograms of
  // the one before (the new workload's defaults, p50 518, beside fields saying median 6000).
  void histogramsOfAPageNotShowingAreDrawnWhenItIsShown() {
    DesignerView view(contextWith(m_userDir.path()));
    view.resize(1400, 860);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    showPage(view, kJsonPage);
    QVERIFY(open(view, "long_context_rag.json"));
    showPage(view, kFormPage);
    for (const std::string path : {"requests.input_tokens", "requests.output_tokens"}) {
      DistEditor* editor = distEditor(view, path);
      QVERIFY(editor);
      QCOMPARE(editor->histogram()->summary(), expectedSummary(view, path));
    }
  }

  // The same when another tab of the studio is showing instead of the Designer.
  void histogramsAreDrawnWhenTheDesignerTabIsShownAgain() {
    QTabWidget studio;
    auto* view = new DesignerView(contextWith(m_userDir.path()));
    studio.addTab(view, QStringLiteral("Designer"));
    studio.addTab(new QWidget, QStringLiteral("Live run"));
    studio.resize(1400, 900);
    studio.show();
    QVERIFY(QTest::qWaitForWindowExposed(&studio));
    studio.setCurrentIndex(1);
    settle();
    QVERIFY(open(*view, "agentic_codegen.json"));
    studio.setCurrentIndex(0);
    settle();
    for (const std::string path :
         {"requests.input_tokens", "requests.output_tokens", "session.tool_result_tokens"}) {
      DistEditor* editor = distEditor(*view, path);
      QVERIFY(editor);
      QCOMPARE(editor->histogram()->summary(), expectedSummary(*view, path));
    }
  }

  // QA 23b D15: a replay of the trace's lengths showed "not set" under input and output tokens
  // (no length figures at all). They are the replayed rows' lengths now, as `plan` gives them,
  // drawn also when the Form page was not showing as the workload was opened.
  void aReplayOfTheTracesLengthsDrawsTheReplayedRows() {
    DesignerView view(contextWith(m_userDir.path()));
    view.resize(1400, 860);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    showPage(view, kJsonPage);
    QVERIFY(open(view, "mooncake_conversation_replay.json"));
    showPage(view, kFormPage);
    const auto spec = plumbline::workload::loadWorkloadFile(
        catalogFile("mooncake_conversation_replay.json").toStdString());
    const auto rows = plumbline::workload::traceLengthHistograms(spec);
    QVERIFY(rows);
    const QString counted =
        QStringLiteral("%1 replayed rows of the trace)").arg(spec.load.traceSchedule->rows.size());
    FieldBinder* binder = view.form()->binder();
    for (const std::string path : {"requests.input_tokens", "requests.output_tokens"}) {
      DistEditor* editor = distEditor(view, path);
      QVERIFY(editor);
      QVERIFY(editor->showsTraceLengths());
      HistogramWidget reference;
      reference.setHistogram(path == "requests.input_tokens" ? rows->input : rows->output,
                             QStringLiteral("tokens"),
                             QStringLiteral("replayed rows of the trace"));
      QCOMPARE(editor->histogram()->summary(), reference.summary());
      QVERIFY2(editor->histogram()->summary().endsWith(counted),
               qPrintable(editor->histogram()->summary()));
      QCOMPARE(editor->histogram()->shown().max, reference.shown().max);
      QVERIFY2(!binder->rowAt(path + ".dist")->isVisible(), "no distribution to edit");
    }

    // Lengths from the workload: the distributions are edited and drawn again.
    auto* document = view.document();
    document->setValue("load.trace.lengths", "workload");
    document->setValue("requests.input_tokens",
                       OrderedJson::parse(R"({"dist": "fixed", "value": 64})"));
    document->setValue("requests.output_tokens",
                       OrderedJson::parse(R"({"dist": "fixed", "value": 8})"));
    view.revalidateNow();
    settle();
    QVERIFY2(view.validationText().isEmpty(), qPrintable(view.validationText()));
    for (const std::string path : {"requests.input_tokens", "requests.output_tokens"}) {
      DistEditor* editor = distEditor(view, path);
      QVERIFY(!editor->showsTraceLengths());
      QCOMPARE(editor->histogram()->summary(), expectedSummary(view, path));
      QVERIFY(binder->rowAt(path + ".dist")->isVisible());
    }

    // The trace's lengths again, but another field is wrong: there is no replay to draw yet.
    document->setValue("load.trace.lengths", "trace");
    document->eraseValue("requests.input_tokens");
    document->eraseValue("requests.output_tokens");
    document->setValue("target.timeout_s", -1);
    view.revalidateNow();
    settle();
    QVERIFY(!view.validationText().isEmpty());
    DistEditor* input = distEditor(view, "requests.input_tokens");
    QVERIFY(input->showsTraceLengths());
    QCOMPARE(input->histogram()->summary(),
             QStringLiteral("the trace's lengths are drawn once the workload is valid"));
    // A distribution written beside the trace's lengths is refused: it stays, to be removed.
    document->setValue("target.timeout_s", 600);
    document->setValue("requests.input_tokens",
                       OrderedJson::parse(R"({"dist": "fixed", "value": 64})"));
    view.revalidateNow();
    settle();
    QVERIFY(view.validationText().startsWith(QStringLiteral("requests.input_tokens: not used")));
    QVERIFY(!input->showsTraceLengths());
    QVERIFY(binder->rowAt("requests.input_tokens.dist")->isVisible());
  }

 private:
  QTemporaryDir m_userDir;
};

QTEST_MAIN(DesignerPagesTest)
#include "designer_pages_test.moc"
