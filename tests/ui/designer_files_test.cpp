// The designer resolves a workload's files (trace, dataset, tokenizer) where `plumbline plan`
// and `plumbline run` resolve them: against the workload file's folder, whatever the studio's
// working directory, and a run started from it executes a copy that resolves them the same way.
#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "core/workload/workload_error.h"
#include "core/workload/workload_loader.h"
#include "tests/ui/designer_catalog.h"
#include "ui/designer/catalog_model.h"
#include "ui/designer/designer_view.h"
#include "ui/designer/workload_document.h"

using namespace plumbline::ui;
using namespace plumbline::ui::designer;
using namespace plumbline::ui::designer::testing;

namespace {

QString problem(const Validation& v) {
  return v.error ? v.error->path + QStringLiteral(": ") + v.error->message : QString();
}

/// What `plumbline run COPY` does with the JSON the studio hands it: the copy sits elsewhere.
QString errorOfRunCopy(const QByteArray& json, const QString& copyDir) {
  try {
    plumbline::workload::parseWorkload(nlohmann::json::parse(json.toStdString()),
                                       copyDir.toStdString());
    return {};
  } catch (const plumbline::workload::WorkloadError& e) {
    return QString::fromStdString(e.what());
  }
}

int catalogRow(const CatalogModel& model, const QString& fileName) {
  for (int row = 0; row < model.rowCount(); ++row)
    if (model.index(row).data(CatalogModel::PathRole).toString().endsWith(fileName)) return row;
  return -1;
}

}  // namespace

class DesignerFilesTest : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    QVERIFY(m_elsewhere.isValid());
    m_cwd = QDir::currentPath();
    QVERIFY(QDir::setCurrent(m_elsewhere.path()));  // not workloads/: the QA finding's studio
  }
  void cleanup() { QDir::setCurrent(m_cwd); }

  void catalogReplaysAreValidFromAnyFolder_data() {
    QTest::addColumn<QString>("file");
    for (const char* name : {"mooncake_conversation_replay.json", "azure_conv_replay.json",
                             "chat_sharegpt_sample.json", "multi_turn_sharegpt.json"})
      QTest::newRow(name) << catalogFile(name);
  }

  void catalogReplaysAreValidFromAnyFolder() {
    QFETCH(QString, file);
    WorkloadDocument document;
    QVERIFY(!document.load(file));
    QCOMPARE(document.baseDir(), kCatalog);
    const Validation v = document.validate();
    QVERIFY2(!v.error, qPrintable(problem(v)));
  }

  void openedFileRunsFromACopyElsewhere() {
    DesignerView view(contextWith(m_user.path()));
    QVERIFY(view.openWorkload(catalogFile("mooncake_conversation_replay.json")));
    QVERIFY2(view.runButton()->isEnabled(), qPrintable(problem(view.document()->validate())));
    QSignalSpy runs(&view, &DesignerView::runRequested);
    QTest::mouseClick(view.runButton(), Qt::LeftButton);
    QCOMPARE(runs.count(), 1);
    const QString copyDir = m_elsewhere.filePath(QStringLiteral("run"));
    QCOMPARE(errorOfRunCopy(runs.at(0).at(0).toByteArray(), copyDir), QString());
  }

  void unsavedCopyResolvesAgainstItsCatalogEntry() {
    DesignerView view(contextWith(m_user.path()));
    CatalogModel catalog(kCatalog, QString());
    const int row = catalogRow(catalog, QStringLiteral("/azure_conv_replay.json"));
    QVERIFY(row >= 0);
    view.newFromCatalog(row);
    QVERIFY(view.document()->path().isEmpty());
    QCOMPARE(view.document()->baseDir(), kCatalog);
    view.revalidateNow();
    QVERIFY2(view.runButton()->isEnabled(), qPrintable(problem(view.document()->validate())));

    // Unsaved, the run's copy cannot say where it came from: its files go there absolute.
    QSignalSpy runs(&view, &DesignerView::runRequested);
    QTest::mouseClick(view.runButton(), Qt::LeftButton);
    QCOMPARE(runs.count(), 1);
    QVERIFY(runs.at(0).at(1).toString().isEmpty());
    const QByteArray sent = runs.at(0).at(0).toByteArray();
    QVERIFY2(sent.contains(QDir(kCatalog)
                               .absoluteFilePath(QStringLiteral("traces/azure_llm_2023_conv.csv"))
                               .toUtf8()),
             sent.constData());
    QCOMPARE(errorOfRunCopy(sent, m_elsewhere.path()), QString());
    QVERIFY(!view.document()->text().contains(kCatalog.toUtf8()));  // the document is unchanged
  }

  void savingElsewhereKeepsNamingTheSameFiles() {
    WorkloadDocument document;
    QVERIFY(!document.load(catalogFile("chat_sharegpt_sample.json")));
    const QString target = m_user.filePath(QStringLiteral("mine/chat.json"));
    QVERIFY(QDir().mkpath(QFileInfo(target).absolutePath()));
    QVERIFY(!document.saveTo(target));
    QCOMPARE(document.baseDir(), QFileInfo(target).absolutePath());
    const Validation v = document.validate();
    QVERIFY2(!v.error, qPrintable(problem(v)));
    const QByteArray saved = fileText(target);
    QVERIFY(saved.contains(
        QDir(kCatalog).absoluteFilePath(QStringLiteral("datasets/sample_chat.json")).toUtf8()));
    QVERIFY(!document.isDirty());

    // Saved again into its own folder, nothing is rewritten.
    WorkloadDocument same;
    QVERIFY(!same.load(catalogFile("mooncake_conversation_replay.json")));
    const QByteArray before = same.text();
    const QString copy = m_user.filePath(QStringLiteral("mooncake.json"));
    QVERIFY(QFile::copy(catalogFile("mooncake_conversation_replay.json"), copy) ||
            QFile::exists(copy));
    QVERIFY(!same.load(copy));
    QVERIFY(!same.saveTo(copy));
    QCOMPARE(fileText(copy), before);
  }

  void newWorkloadResolvesWhereSaveSuggests() {
    DesignerView view(contextWith(m_user.path()));
    QVERIFY(view.document()->path().isEmpty());
    QCOMPARE(view.document()->baseDir(), m_user.path());
  }

 private:
  QTemporaryDir m_elsewhere;
  QTemporaryDir m_user;
  QString m_cwd;
};

QTEST_MAIN(DesignerFilesTest)
#include "designer_files_test.moc"
