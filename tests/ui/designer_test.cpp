// The workload designer: models, form ↔ JSON round trip on every catalog workload, edits
// both ways, loader errors and warnings at their fields, save and run.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

#include "core/workload/seconds_histogram.h"
#include "core/workload/session_parser.h"

#include "tests/ui/designer_catalog.h"
#include "ui/designer/catalog_model.h"
#include "ui/designer/designer_form.h"
#include "ui/designer/designer_view.h"
#include "ui/designer/dist_editor.h"
#include "ui/designer/field_binder.h"
#include "ui/designer/histogram_widget.h"
#include "ui/designer/rate_chart_widget.h"
#include "ui/designer/session_picture_widget.h"
#include "ui/designer/stage_table_model.h"
#include "ui/designer/workload_document.h"

using namespace plumbline::ui;
using namespace plumbline::ui::designer;
using namespace plumbline::ui::designer::testing;

namespace {

bool writeFile(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

OrderedJson readJson(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return OrderedJson::parse(file.readAll().toStdString());
}

/// Every leaf of the document ("load.stages[0].rate" style paths).
void leaves(const OrderedJson& node, const std::string& path, std::vector<std::string>& out) {
  if (node.is_object() && !node.empty()) {
    for (const auto& item : node.items())
      leaves(item.value(), path.empty() ? item.key() : path + "." + item.key(), out);
  } else if (node.is_array() && !node.empty()) {
    for (size_t i = 0; i < node.size(); ++i) leaves(node[i], path + "[" + std::to_string(i) + "]", out);
  } else {
    out.push_back(path);
  }
}

/// Types into a line edit the way a person does (textEdited fires).
void typeInto(QWidget* widget, const QString& text) {
  auto* edit = qobject_cast<QLineEdit*>(widget);
  QVERIFY2(edit, "not a line edit");
  edit->selectAll();  // typing replaces the selection, as it does for a person
  if (text.isEmpty())
    QTest::keyClick(edit, Qt::Key_Backspace);
  else
    QTest::keyClicks(edit, text);
}

void chooseInCombo(QWidget* widget, const QString& text) {
  auto* combo = qobject_cast<QComboBox*>(widget);
  QVERIFY2(combo, "not a combo box");
  const int index = combo->findText(text);
  QVERIFY(index >= 0);
  combo->setCurrentIndex(index);
  emit combo->textActivated(text);  // what a person's click on the item emits
}

}  // namespace

class DesignerTest : public QObject {
  Q_OBJECT

 private slots:
  void init() { QVERIFY(m_userDir.isValid()); }

  void catalogModelListsBothFoldersAndPassesTheTester() {
    QFile mine(m_userDir.filePath(QStringLiteral("mine.json")));
    QVERIFY(mine.open(QIODevice::WriteOnly));
    mine.write(R"({"plumbline": 1, "name": "my chat", "description": "mine, one line"})");
    mine.close();
    CatalogModel model(kCatalog, m_userDir.path());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const int shipped = QDir(kCatalog).entryList({QStringLiteral("*.json")}, QDir::Files).size();
    QCOMPARE(model.rowCount(), shipped + 1);
    const QModelIndex last = model.index(model.rowCount() - 1);
    QCOMPARE(last.data(CatalogModel::OriginRole).toString(), QStringLiteral("yours"));
    QCOMPARE(last.data(CatalogModel::DescriptionRole).toString(), QStringLiteral("mine, one line"));
    QVERIFY(last.data().toString().startsWith(QStringLiteral("my chat")));
    bool quickstartHasDescription = false;
    for (int row = 0; row < shipped; ++row) {
      const QModelIndex index = model.index(row);
      QCOMPARE(index.data(CatalogModel::OriginRole).toString(), QStringLiteral("catalog"));
      if (index.data(CatalogModel::PathRole).toString().endsWith(QStringLiteral("quickstart.json")))
        quickstartHasDescription = !index.data(CatalogModel::DescriptionRole).toString().isEmpty();
    }
    QVERIFY(quickstartHasDescription);
    model.refresh();
    QCOMPARE(model.rowCount(), shipped + 1);
  }

  void stageModelEditsTheDocumentAndPassesTheTester() {
    WorkloadDocument document;
    QVERIFY(!document.load(catalogFile("quickstart.json")));
    StageTableModel model(&document);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(0, StageTableModel::Rate).data().toString(), QStringLiteral("5"));
    QCOMPARE(model.index(1, StageTableModel::Rate).data().toString(), QString());
    QCOMPARE(model.index(1, StageTableModel::RampTo).data().toString(), QStringLiteral("40"));
    QVERIFY(model.setData(model.index(1, StageTableModel::Duration), QStringLiteral("25")));
    QCOMPARE(document.json()["load"]["stages"][1]["duration_s"].get<int>(), 25);
    QVERIFY(model.setData(model.index(0, StageTableModel::Rate), QString()));
    QVERIFY(!document.json()["load"]["stages"][0].contains("rate"));
    model.appendStage(true);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(document.json()["load"]["stages"][3]["ramp_to"].get<double>(), 80.0);
    model.removeStage(0);
    QCOMPARE(model.rowCount(), 3);
    QVERIFY(document.isDirty());
  }

  void roundTripsEveryCatalogWorkload_data() {
    QTest::addColumn<QString>("path");
    // Globbed, so workloads added later are covered too.
    const QStringList files = QDir(kCatalog).entryList({QStringLiteral("*.json")}, QDir::Files);
    QVERIFY(files.size() >= 3);
    for (const QString& file : files) QTest::newRow(file.toUtf8().constData()) << kCatalog + QLatin1Char('/') + file;
  }

  void roundTripsEveryCatalogWorkload() {
    QFETCH(QString, path);
    DesignerView view(contextWith(m_userDir.path()));
    QVERIFY(view.openWorkload(path));
    const OrderedJson original = readJson(path);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(view.currentJson(), file.readAll());  // opened untouched: the file's own bytes
    QVERIFY(view.document()->json() == original);

    // Form → JSON: writing every field back from what it displays changes nothing.
    view.form()->binder()->writeAllFromWidgets();
    QVERIFY2(view.document()->json() == original,
             (view.document()->json().dump() + "\n!=\n" + original.dump()).c_str());
    QVERIFY(!view.document()->isDirty());

    // JSON → form → JSON: the JSON tab's text, reformatted, gives the same document.
    view.jsonEditor()->setPlainText(QString::fromUtf8(formatJson(original)));
    QVERIFY(view.document()->json() == original);
    view.form()->binder()->writeAllFromWidgets();
    QVERIFY(view.document()->json() == original);

    // Every leaf of the file has a field (stages are the stage table's, extra is raw JSON).
    const auto bound = view.form()->binder()->paths();
    std::vector<std::string> paths;
    leaves(original, "", paths);
    for (const std::string& leaf : paths) {
      bool covered = std::find(bound.begin(), bound.end(), leaf) != bound.end();
      for (const char* area : {"load.stages[", "requests.sampling.extra"})
        covered |= leaf.rfind(area, 0) == 0;
      QVERIFY2(covered, ("no form field for " + leaf).c_str());
      if (auto* edit = qobject_cast<QLineEdit*>(view.form()->binder()->editorAt(leaf)))
        QCOMPARE(edit->text(), displayText(JsonPath(leaf).find(original)));
    }
  }

  void sessionShapesShowTheirFieldsAndPicture_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("shape");
    QTest::addColumn<double>("requests");  // expected requests per session, by hand
    QTest::addColumn<QString>("edit");     // a field of the shape, typed into
    QTest::addColumn<QString>("value");
    QTest::addColumn<double>("requestsAfter");
    QTest::addColumn<QString>("refused");  // a value the loader refuses there
    // turns uniform 2..6 → 4; then 2..10 → 6.
    QTest::newRow("multi_turn") << "multi_turn_chat.json" << "multi_turn" << 4.0 << "session.turns.max" << "10" << 6.0 << "1";
    // branching 3, depth 2 → 1 + 3 + 9; branching 2 → 1 + 2 + 4.
    QTest::newRow("tree") << "tree_of_thought.json" << "tree" << 13.0 << "session.branching" << "2" << 7.0 << "0";
    // steps uniform 3..10 → 6.5; then 3..4 → 3.5.
    QTest::newRow("agentic") << "agentic_codegen.json" << "agentic" << 6.5 << "session.steps.max" << "4" << 3.5 << "1";
    // chunks uniform 4..16 → 10 maps + 1 reduce; then 16..16 → 17.
    QTest::newRow("summarize") << "batch_summarize.json" << "summarize" << 11.0 << "session.chunks.min" << "16" << 17.0 << "20";
    // One request per session; the shared prefix is a prompt field.
    QTest::newRow("shared_prefix") << "shared_prefix_chat.json" << "single" << 1.0
                                   << "requests.prompt.shared_prefix.groups" << "4" << 1.0 << "0";
  }

  void sessionShapesShowTheirFieldsAndPicture() {
    QFETCH(QString, file);
    QFETCH(QString, shape);
    QFETCH(double, requests);
    QFETCH(QString, edit);
    QFETCH(QString, value);
    QFETCH(double, requestsAfter);
    QFETCH(QString, refused);
    DesignerView view(contextWith(m_userDir.path()));
    QVERIFY(view.openWorkload(kCatalog + QLatin1Char('/') + file));
    view.revalidateNow();
    QVERIFY2(view.validationText().isEmpty(), qPrintable(view.validationText()));
    FieldBinder* binder = view.form()->binder();
    QCOMPARE(qobject_cast<QComboBox*>(binder->editorAt("session.shape"))->currentText(), shape);
    // The shape's own rows are shown, every other shape's are not.
    const std::pair<const char*, const char*> rows[] = {
        {"session.turns", "multi_turn"},   {"session.think_time_s", "multi_turn"},
        {"session.branching", "tree"},     {"session.depth", "tree"},
        {"session.steps", "agentic"},      {"session.tool_latency_s", "agentic"},
        {"session.tool_result_tokens", "agentic"}, {"session.chunks", "summarize"}};
    for (const auto& [path, owner] : rows) {
      QWidget* row = binder->rowAt(path);
      QVERIFY2(row, path);
      QCOMPARE(row->isVisibleTo(view.form()), shape == QLatin1String(owner));
    }
    // The picture's caption: expected requests per session from core's own sampler.
    auto requestsInCaption = [&view] {
      const QString caption = view.form()->sessionPicture()->caption();
      return caption.section(QStringLiteral("per session: "), 1).section(QLatin1Char(' '), 0, 0).toDouble();
    };
    QVERIFY2(qAbs(requestsInCaption() - requests) < 0.02 * requests,
             qPrintable(view.form()->sessionPicture()->caption()));

    // Editing a shape field changes the JSON and the picture.
    typeInto(binder->editorAt(edit.toStdString()), value);
    view.revalidateNow();
    QVERIFY2(view.validationText().isEmpty(), qPrintable(view.validationText()));
    QCOMPARE(QString::number(JsonPath(edit.toStdString()).find(view.document()->json())->get<double>()), value);
    QVERIFY2(qAbs(requestsInCaption() - requestsAfter) < 0.02 * requestsAfter,
             qPrintable(view.form()->sessionPicture()->caption()));

    // A value the loader refuses is shown at that field.
    typeInto(binder->editorAt(edit.toStdString()), refused);
    view.revalidateNow();
    // (at the field itself, or at its sibling: uniform min 3 > max 1 is reported at min)
    const std::string object = edit.section(QLatin1Char('.'), 0, -2).toStdString();
    bool shown = false;
    for (const std::string& path : binder->paths())
      if (path == edit.toStdString() || path.rfind(object + ".", 0) == 0 || path == object)
        shown |= !view.messageAt(path).isEmpty();
    QVERIFY2(shown, qPrintable(view.validationText()));
    QVERIFY(!view.runButton()->isEnabled());
  }

  void secondsDistributionsShowAHistogramOfCoresDelaySampler() {
    DesignerView view(contextWith(m_userDir.path()));
    QVERIFY(view.openWorkload(kCatalog + QStringLiteral("/agentic_codegen.json")));
    DistEditor* editor = nullptr;
    for (DistEditor* d : view.form()->distEditors())
      if (d->path() == "session.tool_latency_s") editor = d;
    QVERIFY(editor);
    // The same draws a run would wait for its tools: core's delay sampler, clamps applied.
    const OrderedJson* value = JsonPath("session.tool_latency_s").find(view.document()->json());
    QVERIFY(value);
    const auto dist = plumbline::workload::parseSecondsDist(nlohmann::json::parse(value->dump()), "d");
    const auto expected = plumbline::workload::secondsHistogram(dist, 1);
    const HistogramWidget::Shown& shown = editor->histogram()->shown();
    QCOMPARE(shown.draws, uint64_t{20000});
    QCOMPARE(shown.p50, expected.p50);
    QCOMPARE(shown.p90, expected.p90);
    QCOMPARE(shown.p99, expected.p99);
    QVERIFY(!shown.whole);
    QVERIFY(shown.min >= 0.1 && shown.max <= 2.0);  // the workload's clamps
    // Fractional seconds are kept, not rounded to whole units as token lengths are.
    QVERIFY(shown.p50 > 0.3 && shown.p50 < 0.7);
    QVERIFY2(editor->histogram()->summary().contains(QStringLiteral(" s (20000 draws)")),
             qPrintable(editor->histogram()->summary()));

    // Editing the distribution redraws it.
    typeInto(view.form()->binder()->editorAt("session.tool_latency_s.median"), QStringLiteral("1.5"));
    view.revalidateNow();
    QVERIFY(editor->histogram()->shown().p50 > 1.0);
  }

  void editingAFieldUpdatesTheJsonAndBack() {
    DesignerView view(contextWith(m_userDir.path()));
    QVERIFY(view.openWorkload(catalogFile("quickstart.json")));
    FieldBinder* binder = view.form()->binder();
    typeInto(binder->editorAt("requests.sampling.temperature"), QStringLiteral("0.3"));
    const auto fromTab = OrderedJson::parse(view.jsonEditor()->toPlainText().toStdString());
    QCOMPARE(fromTab["requests"]["sampling"]["temperature"].get<double>(), 0.3);
    QVERIFY(view.document()->isDirty());
    // Key order is kept: temperature stays first in sampling.
    QCOMPARE(QString::fromStdString(fromTab["requests"]["sampling"].begin().key()), QStringLiteral("temperature"));

    // Clearing a field removes its key rather than writing a default.
    typeInto(binder->editorAt("target.mock.itl_ms"), QString());
    QVERIFY(!view.document()->json()["target"]["mock"].contains("itl_ms"));

    // JSON tab → form.
    OrderedJson edited = view.document()->json();
    edited["target"]["model"] = "llama-3-8b";
    edited["load"]["stages"][0]["rate"] = 7;
    view.jsonEditor()->setPlainText(QString::fromUtf8(formatJson(edited)));
    QCOMPARE(qobject_cast<QLineEdit*>(binder->editorAt("target.model"))->text(), QStringLiteral("llama-3-8b"));
    QCOMPARE(view.form()->stageModel()->index(0, StageTableModel::Rate).data().toString(), QStringLiteral("7"));

    // A syntax error in the tab keeps the form's last good values and says where.
    view.jsonEditor()->setPlainText(QStringLiteral("{\n  \"plumbline\": 1,\n  oops\n}"));
    view.revalidateNow();
    QVERIFY2(view.validationText().contains(QStringLiteral("line 3")), qPrintable(view.validationText()));
    QVERIFY(!view.runButton()->isEnabled());
    QCOMPARE(qobject_cast<QLineEdit*>(binder->editorAt("target.model"))->text(), QStringLiteral("llama-3-8b"));

    // A key named twice is refused as the CLI refuses it (the parser kept the second silently):
    // the form keeps the last values that had one per key.
    QString twice = QString::fromUtf8(formatJson(edited));
    twice.replace(QStringLiteral("\"model\": \"llama-3-8b\""),
                  QStringLiteral("\"model\": \"llama-3-8b\", \"model\": \"qwen\""));
    view.jsonEditor()->setPlainText(twice);
    view.revalidateNow();
    QVERIFY2(view.validationText().contains(QStringLiteral("target.model: 'model' is named twice")),
             qPrintable(view.validationText()));
    QVERIFY(!view.runButton()->isEnabled());
    QCOMPARE(qobject_cast<QLineEdit*>(binder->editorAt("target.model"))->text(),
             QStringLiteral("llama-3-8b"));
  }

  void loaderErrorsAreShownAtTheirField() {
    DesignerView view(contextWith(m_userDir.path()));
    QVERIFY(view.openWorkload(catalogFile("quickstart.json")));
    FieldBinder* binder = view.form()->binder();
    view.revalidateNow();
    QVERIFY(view.runButton()->isEnabled());

    typeInto(binder->editorAt("requests.sampling.temperature"), QStringLiteral("5"));
    view.revalidateNow();
    QVERIFY2(view.messageAt("requests.sampling.temperature").contains(QStringLiteral("must be <= 2")),
             qPrintable(view.messageAt("requests.sampling.temperature")));
    QVERIFY(!view.runButton()->isEnabled());
    typeInto(binder->editorAt("requests.sampling.temperature"), QStringLiteral("0.7"));

    typeInto(binder->editorAt("requests.input_tokens.median"), QStringLiteral("0"));
    view.revalidateNow();
    QVERIFY(view.messageAt("requests.input_tokens.median").contains(QStringLiteral("must be > 0")));
    typeInto(binder->editorAt("requests.input_tokens.median"), QStringLiteral("256"));

    // Text in a number field reaches the loader as text, which names the field.
    typeInto(binder->editorAt("load.max_in_flight"), QStringLiteral("lots"));
    view.revalidateNow();
    QVERIFY(view.messageAt("load.max_in_flight").contains(QStringLiteral("expected an integer")));
    typeInto(binder->editorAt("load.max_in_flight"), QStringLiteral("5000"));

    // A stage cell's error lands on the stage table; an unknown key on its group.
    auto* stages = view.form()->stageModel();
    stages->setData(stages->index(2, StageTableModel::Rate), QStringLiteral("-3"));
    view.revalidateNow();
    QVERIFY2(view.messageAt("load.stages").contains(QStringLiteral("load.stages[2].rate")),
             qPrintable(view.messageAt("load.stages")));
    stages->setData(stages->index(2, StageTableModel::Rate), QStringLiteral("40"));
    OrderedJson withTypo = view.document()->json();
    withTypo["target"]["modle"] = "x";
    view.jsonEditor()->setPlainText(QString::fromUtf8(formatJson(withTypo)));
    view.revalidateNow();
    QVERIFY(view.messageAt("target").contains(QStringLiteral("unknown key 'modle'")));
    withTypo["target"].erase("modle");
    view.jsonEditor()->setPlainText(QString::fromUtf8(formatJson(withTypo)));
    view.revalidateNow();
    QVERIFY2(view.validationText().isEmpty(), qPrintable(view.validationText()));
    QVERIFY(view.runButton()->isEnabled());
  }

  // QA (session 18): a file that is not JSON opened with the form showing a new workload's
  // defaults as if they were the file's, and an edit there would have written them over its text.
  void aFileThatIsNotJsonLocksTheFormAndOpensItsText() {
    const QString path = m_userDir.filePath(QStringLiteral("broken.json"));
    QByteArray text = fileText(catalogFile("quickstart.json"));
    text.replace("\"name\"", "\"name\" 1");  // one syntax error in line 3
    QVERIFY(writeFile(path, text));
    DesignerView view(contextWith(m_userDir.path()));
    QVERIFY(view.openWorkload(path));
    QVERIFY(!view.form()->isEnabled());
    QCOMPARE(view.findChild<QTabWidget*>()->currentIndex(), 1);  // the JSON tab
    QVERIFY2(view.validationText().contains(QStringLiteral("invalid JSON, line ")),
             qPrintable(view.validationText()));
    QCOMPARE(view.jsonEditor()->toPlainText().toUtf8(), text);  // the text as the file has it
    QVERIFY(!view.runButton()->isEnabled());
    view.jsonEditor()->setPlainText(QString::fromUtf8(fileText(catalogFile("quickstart.json"))));
    view.revalidateNow();
    QVERIFY(view.form()->isEnabled());
    QVERIFY(view.runButton()->isEnabled());
  }

  void temperatureZeroIsWarnedAtItsField() {
    DesignerView view(contextWith(m_userDir.path()));
    QVERIFY(view.openWorkload(catalogFile("quickstart.json")));
    view.revalidateNow();
    QVERIFY(view.messageAt("requests.sampling.temperature").isEmpty());
    typeInto(view.form()->binder()->editorAt("requests.sampling.temperature"), QStringLiteral("0"));
    view.revalidateNow();
    QVERIFY2(view.messageAt("requests.sampling.temperature").contains(QStringLiteral("temperature 0")),
             qPrintable(view.messageAt("requests.sampling.temperature")));
    QVERIFY(view.runButton()->isEnabled());  // a warning, not an error
    const auto& warnings = view.warnings();
    QVERIFY(std::any_of(warnings.begin(), warnings.end(),
                        [](const auto& w) { return w.path == "requests.sampling.temperature"; }));
  }

  void switchingKindsAndShapesRewritesTheirObjects() {
    DesignerView view(contextWith(m_userDir.path()));
    QVERIFY(view.openWorkload(catalogFile("quickstart.json")));
    FieldBinder* binder = view.form()->binder();
    chooseInCombo(binder->editorAt("requests.input_tokens.dist"), QStringLiteral("uniform"));
    const OrderedJson input = view.document()->json()["requests"]["input_tokens"];
    QCOMPARE(QString::fromStdString(input["dist"].get<std::string>()), QStringLiteral("uniform"));
    QVERIFY(!input.contains("median") && !input.contains("sigma"));
    QCOMPARE(input["min"].get<int>(), 128);  // around the old median of 256
    QCOMPARE(input["max"].get<int>(), 384);

    chooseInCombo(binder->editorAt("session.shape"), QStringLiteral("tree"));
    QCOMPARE(view.document()->json()["session"]["branching"].get<int>(), 2);
    view.revalidateNow();
    QVERIFY2(view.form()->sessionPicture()->caption().contains(QStringLiteral("7.00 requests")),
             qPrintable(view.form()->sessionPicture()->caption()));
    chooseInCombo(binder->editorAt("session.shape"), QStringLiteral("single"));
    QVERIFY(!view.document()->json()["session"].contains("branching"));

    chooseInCombo(binder->editorAt("load.arrival"), QStringLiteral("trace"));
    QVERIFY(!view.document()->json()["load"].contains("stages"));
    QVERIFY(view.document()->json()["load"].contains("trace"));
    chooseInCombo(binder->editorAt("load.arrival"), QStringLiteral("poisson"));
    QVERIFY(view.document()->json()["load"].contains("stages"));
    QVERIFY(!view.document()->json()["load"].contains("trace"));
  }

  void loadPreviewBarsAreRatesAndSaySo() {
    DesignerView view(contextWith(m_userDir.path()));
    QVERIFY(view.openWorkload(catalogFile("quickstart.json")));
    view.revalidateNow();
    const RateChartWidget* chart = view.form()->rateChart();
    const int sessions = chart->caption().section(QLatin1Char(' '), 0, 0).toInt();
    QVERIFY2(sessions > 0, qPrintable(chart->caption()));
    // A bar is arrivals ÷ bin width: summed back over its bins, the sessions of the caption.
    double counted = 0;
    for (const auto& bar : chart->arrivalBars()) counted += bar.rate * chart->binS();
    QVERIFY2(qAbs(counted - sessions) < 1e-6 * sessions + 1e-9,
             qPrintable(QString::number(counted)));
    QCOMPARE(chart->legend(),
             QStringLiteral("line: planned sessions/s · bars: arrivals/s in %1 s bins")
                 .arg(chart->binS(), 0, 'g', 3));
    QCOMPARE(RateChartWidget::axisUnit(), QStringLiteral("sessions/s"));
  }

  // QA 23b: a trace's caption said "peak 2.47 sessions/s", its mean, under bars reaching 23/s.
  void aTracesPreviewGivesItsMeanAndItsBusiestBar() {
    DesignerView view(contextWith(m_userDir.path()));
    QVERIFY(view.openWorkload(catalogFile("azure_code_replay.json")));
    view.revalidateNow();
    const RateChartWidget* chart = view.form()->rateChart();
    double busiest = 0;
    for (const auto& bar : chart->arrivalBars()) busiest = std::max(busiest, bar.rate);
    QVERIFY(busiest > 0);
    const QString caption = chart->caption();
    QVERIFY2(!caption.contains(QStringLiteral("peak")), qPrintable(caption));
    QVERIFY2(caption.contains(QStringLiteral(" · mean ")), qPrintable(caption));
    QVERIFY2(caption.endsWith(QStringLiteral(": %1 sessions/s").arg(busiest, 0, 'g', 4)),
             qPrintable(caption));
  }

  // QA 23b: after a file outside the catalog was opened, the entry opened before stayed
  // highlighted with its description, beside another workload.
  void aFileOutsideTheCatalogLeavesNoEntryHighlighted() {
    DesignerView view(contextWith(m_userDir.path()));
    QVERIFY(view.openWorkload(catalogFile("quickstart.json")));
    QVERIFY(!view.catalogDescription().isEmpty());
    QTemporaryDir elsewhere;  // neither the catalog nor the user's workloads
    const QString mine = elsewhere.filePath(QStringLiteral("outside.json"));
    QVERIFY(QFile::copy(catalogFile("quickstart.json"), mine));
    QVERIFY(view.openWorkload(mine));
    auto* list = view.findChild<QListView*>();
    QVERIFY(list);
    QVERIFY(!list->currentIndex().isValid());
    QVERIFY(view.catalogDescription().isEmpty());
  }

  void saveRevertAndRun() {
    DesignerView view(contextWith(m_userDir.path()));
    QVERIFY(view.openWorkload(catalogFile("poisson_ramp.json")));
    typeInto(view.form()->binder()->editorAt("name"), QStringLiteral("my ramp"));
    QVERIFY(view.document()->isDirty());
    const QString target = m_userDir.filePath(QStringLiteral("sub/my_ramp.json"));
    QVERIFY(view.saveTo(target));
    QVERIFY(!view.document()->isDirty());
    QCOMPARE(view.document()->path(), target);
    QCOMPARE(readJson(target)["name"].get<std::string>(), std::string("my ramp"));

    QSignalSpy runs(&view, &DesignerView::runRequested);
    view.revalidateNow();
    QVERIFY(view.runButton()->isEnabled());
    QTest::mouseClick(view.runButton(), Qt::LeftButton);
    QCOMPARE(runs.count(), 1);
    QCOMPARE(runs.at(0).at(1).toString(), target);
    QCOMPARE(runs.at(0).at(0).toByteArray(), view.currentJson());

    // A new copy from the catalog is unsaved and named as a copy.
    view.newFromCatalog(0);
    QVERIFY(view.document()->path().isEmpty());
    QVERIFY(QString::fromStdString(view.document()->json()["name"].get<std::string>()).endsWith(QStringLiteral("(copy)")));
  }

 private:
  QTemporaryDir m_userDir;
};

QTEST_MAIN(DesignerTest)
#include "designer_test.moc"
