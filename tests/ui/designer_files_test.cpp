// The designer resolves a workload's files (trace, dataset, tokenizer) where `plumbline plan`
// and `plumbline run` resolve them: against the workload file's folder, whatever the studio's
// working directory, and a run started from it executes a copy that resolves them the same way.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <string>
#include <thread>

#include "core/workload/workload_error.h"
#include "core/workload/workload_loader.h"
#include "tests/ui/designer_catalog.h"
#include "ui/designer/catalog_model.h"
#include "ui/designer/designer_form.h"
#include "ui/designer/designer_view.h"
#include "ui/designer/field_binder.h"
#include "ui/designer/rate_chart_widget.h"
#include "ui/designer/workload_document.h"

using namespace plumbline::ui;
using namespace plumbline::ui::designer;
using namespace plumbline::ui::designer::testing;

namespace {

/// Writes three rows of an Azure trace into the pipe at `fifo` once its reader has opened it
/// (within 20 s), and closes it.
bool writeTraceInto(const QString& fifo) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  int fd = -1;
  while ((fd = ::open(fifo.toLocal8Bit().constData(), O_WRONLY | O_NONBLOCK)) < 0 &&
         errno == ENXIO && std::chrono::steady_clock::now() < deadline)
    QTest::qWait(10);  // no reader yet
  if (fd < 0) return false;
  const std::string rows =
      "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:00:00.0000000,100,10\n"
      "2023-11-16 18:00:01.0000000,200,20\n2023-11-16 18:00:02.0000000,300,30\n";
  const bool written = ::write(fd, rows.data(), rows.size()) == static_cast<ssize_t>(rows.size());
  ::close(fd);
  return written;
}

/// Writes `name` in `dir`: the catalog's Azure code replay reading its trace from `trace`, made a
/// pipe here (its read lasts until something writes it). Empty when it could not.
QString pipedWorkload(const QTemporaryDir& dir, const QString& trace, const QString& name) {
  if (mkfifo(trace.toLocal8Bit().constData(), 0600) != 0) return {};
  OrderedJson workload =
      OrderedJson::parse(fileText(catalogFile("azure_code_replay.json")).toStdString());
  workload["load"]["trace"]["file"] = trace.toStdString();
  const QString path = dir.filePath(name);
  QFile out(path);
  if (!out.open(QIODevice::WriteOnly)) return {};
  out.write(QByteArray::fromStdString(workload.dump(2)));
  return path;
}

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

  // A workload's files are read by its validation, and a first read took seconds on the GUI
  // thread (a 300k-row Mooncake trace: 2.9 s, the studio frozen). It is read on another thread:
  // Run waits for the answer, the status says what is read, and an edit made meanwhile is what
  // the answer shown is of. The trace here is a pipe, so that its read lasts until the test
  // writes the rows.
  void aWorkloadsFilesAreReadOffTheGuiThread() {
    const QString trace = m_user.filePath(QStringLiteral("trace.csv"));
    const QString path = pipedWorkload(m_user, trace, QStringLiteral("piped.json"));
    QVERIFY(!path.isEmpty());

    DesignerView view(contextWith(m_user.path()));
    QVERIFY(view.openWorkload(path));
    QVERIFY(view.validating());  // open came back before the read
    QVERIFY(!view.runButton()->isEnabled());
    QCOMPARE(view.validationText(), QStringLiteral("not checked yet: its files are being read"));
    // The GUI thread runs meanwhile: after a moment the status names the file.
    QTRY_COMPARE_WITH_TIMEOUT(view.statusText(), QStringLiteral("… checking: reading ") + trace,
                              20'000);
    // The chart no longer shows the workload before (the new one's default): it waits, and
    // says for what.
    QCOMPARE(view.form()->rateChart()->caption(),
             QStringLiteral("the trace's arrivals are drawn once its file is read"));

    // An edit while it reads: the answer shown is of the edited text, whose error comes before
    // the trace.
    view.document()->setValue("target.timeout_s", -1);
    QTest::qWait(300);  // past the edit pause: asked again
    QVERIFY(writeTraceInto(trace));
    QTRY_VERIFY_WITH_TIMEOUT(!view.validating() && view.validationText().startsWith(
                                                       QStringLiteral("target.timeout_s: ")),
                             20'000);
    QVERIFY(!view.runButton()->isEnabled());
    QVERIFY(!view.form()->binder()->messageAt("target.timeout_s").isEmpty());
    // Nor is the trace read for the load's chart (a pipe would hold the GUI thread for good).
    QCOMPARE(view.form()->rateChart()->caption(),
             QStringLiteral("the trace's arrivals are drawn once the workload is valid"));

    view.document()->setValue("target.timeout_s", 600);
    QTRY_VERIFY_WITH_TIMEOUT(view.validating(), 20'000);
    // While the fixed text is read, the error it fixed is not shown at its field.
    QTRY_COMPARE_WITH_TIMEOUT(view.statusText(), QStringLiteral("… checking: reading ") + trace,
                              20'000);
    QCOMPARE(view.form()->binder()->messageAt("target.timeout_s"), QString());
    QVERIFY(writeTraceInto(trace));
    QTRY_VERIFY_WITH_TIMEOUT(!view.validating(), 20'000);
    QVERIFY2(view.validationText().isEmpty(), qPrintable(view.validationText()));
    QVERIFY(view.runButton()->isEnabled());
    QVERIFY2(view.statusText().startsWith(QStringLiteral("✔ valid")),
             qPrintable(view.statusText()));
  }

  // Closing the studio while a workload's files are read does not wait for the read: a trace on
  // a pipe nobody writes held it open for good. Here the pipe is written 5 s after the close
  // began, and the close must have ended before.
  void closingDoesNotWaitForAReadThatHasNotEnded() {
    const QString trace = m_user.filePath(QStringLiteral("never.csv"));
    const QString path = pipedWorkload(m_user, trace, QStringLiteral("never.json"));
    QVERIFY(!path.isEmpty());
    auto* view = new DesignerView(contextWith(m_user.path()));
    QVERIFY(view->openWorkload(path));
    QTRY_COMPARE_WITH_TIMEOUT(view->statusText(), QStringLiteral("… checking: reading ") + trace,
                              20'000);
    std::atomic<bool> closed{false};
    bool closedBeforeTheWrite = false;
    std::thread writer([&] {
      std::this_thread::sleep_for(std::chrono::seconds(5));
      closedBeforeTheWrite = closed;
      const int fd = ::open(trace.toLocal8Bit().constData(), O_WRONLY);  // the reader waits in open
      if (fd >= 0) ::close(fd);  // an empty trace: the read ends
    });
    delete view;
    closed = true;
    writer.join();
    QVERIFY(closedBeforeTheWrite);
  }

  void openedFileRunsFromACopyElsewhere() {
    DesignerView view(contextWith(m_user.path()));
    QVERIFY(view.openWorkload(catalogFile("mooncake_conversation_replay.json")));
    QTRY_VERIFY_WITH_TIMEOUT(!view.validating(), 20'000);  // its trace is read on another thread
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
