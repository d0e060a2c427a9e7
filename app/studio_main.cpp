// plumbline-studio [--db FILE] [--open WORKLOAD.json]
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include "core/store/default_paths.h"
#include "ui/main_window.h"

namespace {

/// The shipped catalog: next to an installed binary, else the source tree it was built from.
QString findCatalogDir() {
  const QString appDir = QCoreApplication::applicationDirPath();
  const QStringList candidates = {QString(appDir + QStringLiteral("/../share/plumbline/workloads")),
                                  QStringLiteral(PLUMBLINE_SOURCE_DIR "/workloads")};
  for (const QString& candidate : candidates) {
    if (QFileInfo(candidate).isDir()) return QDir(candidate).canonicalPath();
  }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("plumbline-studio"));
  QApplication::setOrganizationName(QStringLiteral("plumbline"));
  QApplication::setApplicationVersion(QStringLiteral(PLUMBLINE_VERSION));

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("Plumbline Studio: design, run and compare LLM serving benchmarks"));
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption dbOption(QStringLiteral("db"), QStringLiteral("Runs database."),
                                    QStringLiteral("FILE"));
  const QCommandLineOption openOption(QStringLiteral("open"),
                                      QStringLiteral("Workload to open, ready to run."),
                                      QStringLiteral("WORKLOAD.json"));
  parser.addOption(dbOption);
  parser.addOption(openOption);
  parser.process(app);

  plumbline::ui::StudioContext context;
  context.dbPath = parser.isSet(dbOption)
                       ? parser.value(dbOption)
                       : QString::fromStdString(plumbline::store::defaultDatabasePath());
  context.plumblineBin = QCoreApplication::applicationDirPath() + QStringLiteral("/plumbline");
  context.catalogDir = findCatalogDir();
  context.userWorkloadDir =
      QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/workloads");

  plumbline::ui::MainWindow window(context);
  if (parser.isSet(openOption)) window.openWorkload(parser.value(openOption));
  window.show();
  return QApplication::exec();
}
