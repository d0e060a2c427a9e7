// plumbline-studio [--db FILE] [--open WORKLOAD.json [--start] [--rate R] [--duration S]]
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QThreadPool>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string_view>

#include "core/store/default_paths.h"
#include "ui/common/ui_stall_monitor.h"
#include "ui/designer/designer_view.h"
#include "ui/live/live_view.h"
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

/// --help or --version: text only, which must not need a display (QApplication aborts
/// without one; QCoreApplication does not).
bool asksForTextOnly(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--") break;
    if (a == "-h" || a == "--help" || a == "-?" || a == "--help-all" || a == "-v" ||
        a == "--version")
      return true;
  }
  return false;
}

/// No display to open windows on: a platform plugin that needs one (xcb, wayland, or the default)
/// and neither DISPLAY nor WAYLAND_DISPLAY set, nor a -platform argument. QApplication would
/// abort in the plugin; the arguments are still checked and the reason said instead.
bool hasNoDisplay(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--") break;
    if (a == "-platform" || a == "--platform" || a.rfind("-platform=", 0) == 0) return false;
  }
  const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
  const bool needsDisplay =
      platform.isEmpty() || platform.startsWith("xcb") || platform.startsWith("wayland");
  return needsDisplay && qEnvironmentVariableIsEmpty("DISPLAY") &&
         qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

}  // namespace

int main(int argc, char** argv) {
  const bool noDisplay = hasNoDisplay(argc, argv);
  const std::unique_ptr<QCoreApplication> application =
      asksForTextOnly(argc, argv) || noDisplay ? std::make_unique<QCoreApplication>(argc, argv)
                                               : std::make_unique<QApplication>(argc, argv);
  QCoreApplication& app = *application;
  // Qt 6.4's raster engine splits big fills across QThreadPool::globalInstance(), one thread a
  // core: each paint burst then takes every core for a moment, the cores a run being watched
  // needs for its sends. One pool thread keeps painting to one core at a time (measured at
  // 5,000 rps, 30 s runs ABAB: studio CPU 7-10 % lower; send-lag windows over 1 ms 0 and 2
  // against 5 and 3). The studio runs nothing else on that pool.
  QThreadPool::globalInstance()->setMaxThreadCount(1);
  QCoreApplication::setApplicationName(QStringLiteral("plumbline-studio"));
  QCoreApplication::setOrganizationName(QStringLiteral("plumbline"));
  QCoreApplication::setApplicationVersion(QStringLiteral(PLUMBLINE_VERSION));

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("Plumbline Studio: design, run and compare LLM serving benchmarks"));
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption dbOption(QStringLiteral("db"), QStringLiteral("Runs database."),
                                    QStringLiteral("FILE"));
  const QCommandLineOption openOption(QStringLiteral("open"),
                                      QStringLiteral("Workload to open, ready to run."),
                                      QStringLiteral("WORKLOAD.json"));
  const QCommandLineOption startOption(QStringLiteral("start"),
                                       QStringLiteral("Start the opened workload immediately."));
  const QCommandLineOption rateOption(QStringLiteral("rate"),
                                      QStringLiteral("Replace the stages with one stage of this rate."),
                                      QStringLiteral("R"));
  const QCommandLineOption durationOption(QStringLiteral("duration"),
                                          QStringLiteral("... lasting this many seconds."),
                                          QStringLiteral("S"));
  parser.addOption(dbOption);
  parser.addOption(openOption);
  parser.addOption(startOption);
  parser.addOption(rateOption);
  parser.addOption(durationOption);
  parser.process(app);  // --help and --version print and exit here, as does an unknown option
  if (noDisplay) {
    std::fprintf(
        stderr,
        "plumbline-studio: needs a display (DISPLAY and WAYLAND_DISPLAY are not set): run it on a "
        "desktop, under xvfb-run, or use the CLI (plumbline run WORKLOAD.json)\n");
    return 1;
  }
  auto positive = [&](const QCommandLineOption& o) -> std::optional<double> {
    if (!parser.isSet(o)) return std::nullopt;
    bool ok = false;
    const double v = parser.value(o).toDouble(&ok);
    if (!ok || v <= 0) {
      std::fprintf(stderr, "plumbline-studio: --%s must be a number > 0, got '%s'\n",
                   qPrintable(o.names().constFirst()), qPrintable(parser.value(o)));
      std::exit(2);
    }
    return v;
  };
  const std::optional<double> rate = positive(rateOption);
  const std::optional<double> duration = positive(durationOption);
  if (parser.isSet(startOption) && !parser.isSet(openOption)) {
    std::fprintf(stderr, "plumbline-studio: --start needs --open WORKLOAD.json\n");
    return 2;
  }

  // Measures the UI thread's responsiveness for the whole session.
  plumbline::ui::UiStallMonitor stalls;
  stalls.start();
  if (const QString statsPath = qEnvironmentVariable("PLUMBLINE_STUDIO_STATS"); !statsPath.isEmpty())
    stalls.setStatsFile(statsPath);

  plumbline::ui::StudioContext context;
  context.dbPath = parser.isSet(dbOption)
                       ? parser.value(dbOption)
                       : QString::fromStdString(plumbline::store::defaultDatabasePath());
  context.plumblineBin = QCoreApplication::applicationDirPath() + QStringLiteral("/plumbline");
  context.catalogDir = findCatalogDir();
  context.userWorkloadDir =
      QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/workloads");

  plumbline::ui::MainWindow window(context);
  window.liveView()->setLoadOverride(rate, duration);
  bool ready = false;  // a valid workload is prepared on Live run
  if (parser.isSet(openOption)) {
    if (!QFileInfo(parser.value(openOption)).isReadable()) {
      std::fprintf(stderr, "plumbline-studio: --open %s: cannot read the file\n", qPrintable(parser.value(openOption)));
      return 2;
    }
    ready = window.openWorkload(parser.value(openOption));
    if (!ready && parser.isSet(startOption))
      std::fprintf(stderr,
                   "plumbline-studio: --start: %s is not a valid workload (%s): not started\n",
                   qPrintable(parser.value(openOption)),
                   qPrintable(window.designerView()->validationText()));
  }
  window.show();
  if (parser.isSet(startOption)) {
    if (ready) window.liveView()->start();
  } else {
    window.liveView()->attachToRunningRun();  // a run left going by an earlier session
  }
  return QApplication::exec();
}
