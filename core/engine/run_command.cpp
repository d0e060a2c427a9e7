#include "core/engine/run_command.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <new>
#include <system_error>
#include <thread>

#include "core/engine/asked_load.h"
#include "core/engine/coordinator.h"
#include "core/engine/diagnostic_switches.h"
#include "core/engine/early_stop_signal.h"
#include "core/engine/endpoint_url.h"
#include "core/engine/live_run.h"
#include "core/engine/request_driver.h"
#include "core/engine/store_sink.h"
#include "core/engine/terminal_report.h"
#include "core/engine/token_count_basis.h"
#include "core/mock/embedded_target.h"
#include "core/net/base_url.h"
#include "core/store/database_files.h"
#include "core/store/default_paths.h"
#include "core/store/run_writer.h"
#include "core/store/store_error.h"
#include "core/util/clock.h"
#include "core/util/host_name.h"
#include "core/util/label_text.h"
#include "core/workload/planner.h"
#include "core/workload/workload_loader.h"
#include "core/workload/workload_warnings.h"

namespace plumbline::engine {

namespace {

/// A bad flag or input: exit code 2 with this one-line message.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string readApiKey(const RunOptions& opt, const workload::WorkloadSpec& spec) {
  if (!opt.apiKeyFile.empty()) {
    std::error_code ec;
    if (std::filesystem::is_directory(opt.apiKeyFile, ec))
      throw UsageError("--api-key-file " + opt.apiKeyFile + ": is a directory");
    std::ifstream in(opt.apiKeyFile);
    if (!in)
      throw UsageError("--api-key-file " + opt.apiKeyFile +
                       ": cannot read: " + std::strerror(errno));
    std::string key;
    std::getline(in, key);
    while (!key.empty() && (key.back() == '\r' || key.back() == ' ')) key.pop_back();
    if (key.empty()) throw UsageError("--api-key-file " + opt.apiKeyFile + ": empty");
    return key;
  }
  if (spec.target.apiKeyEnv.empty()) return {};
  const char* v = std::getenv(spec.target.apiKeyEnv.c_str());
  if (v == nullptr || *v == '\0') {
    if (spec.target.url == "embedded") return {};  // the embedded target needs no key
    throw UsageError("target.api_key_env: environment variable " + spec.target.apiKeyEnv +
                     (v == nullptr ? " is not set" : " is empty"));
  }
  return v;
}

workload::WorkloadSpec loadSpec(const RunOptions& opt) {
  if (const std::string why =
          util::labelProblem(util::trimmedLabel(opt.name), util::kMaxNameCharacters);
      !opt.name.empty() && !why.empty())
    throw UsageError("--name " + why);  // the rules of `runs rename`
  workload::WorkloadSpec spec = workload::loadWorkloadFile(opt.workloadPath);
  if (opt.rate && *opt.rate <= 0) throw UsageError("--rate must be > 0");
  if (opt.durationS && *opt.durationS <= 0) throw UsageError("--duration must be > 0");
  workload::overrideLoad(spec, opt.rate, opt.durationS);
  if (!opt.target.empty()) {
    if (opt.target != "embedded") {
      if (const std::string problem = net::baseUrlProblem(opt.target); !problem.empty())
        throw UsageError("--target: " + problem);
    }
    spec.target.url = opt.target;
    spec.document["target"]["url"] = opt.target;
  }
  if (opt.workers > 256) throw UsageError("--workers must be between 1 and 256");
  if (opt.graceS < 0) throw UsageError("--grace must be >= 0");
  if (opt.onWorkerLoss != "redistribute" && opt.onWorkerLoss != "stop")
    throw UsageError("--on-worker-loss must be redistribute or stop, not " + opt.onWorkerLoss);
  // A schedule with no arrival in it would be a run of nothing, judged kept_up: refuse it.
  workload::Planner probe(spec);
  if (workload::SessionPlan first; !probe.next(first))
    throw UsageError(
        "the schedule plans no request: no arrival falls in its stages at these rates and "
        "durations (`plumbline plan` shows it); raise a rate or a duration");
  return spec;
}

/// A closed stdout must not be taken by the next file opened (the database would receive the
/// report): it is held open on /dev/null, and whether it was closed is returned.
bool holdClosedStdout() {
  if (fcntl(STDOUT_FILENO, F_GETFD) != -1 || errno != EBADF) return false;
  if (const int fd = open("/dev/null", O_WRONLY); fd >= 0 && fd != STDOUT_FILENO) {
    dup2(fd, STDOUT_FILENO);
    close(fd);
  }
  return true;
}

/// Writes to stdout and says why that failed ("" when it did not): a full disk or a closed
/// stdout must not lose the output without a word.
std::string writeStdout(const std::string& text, bool stdoutClosed) {
  if (stdoutClosed) return "standard output is closed";
  errno = 0;
  std::cout << text << std::flush;
  if (std::cout) return "";
  std::cout.clear();
  return errno != 0 ? std::strerror(errno) : "write failed";
}

void writeSummaryJson(const std::string& path, const nlohmann::json& j, bool stdoutClosed) {
  if (path.empty()) return;
  if (path == "-") {
    if (const std::string why = writeStdout(j.dump(2) + '\n', stdoutClosed); !why.empty())
      throw std::runtime_error("--summary-json -: cannot write: " + why);
    return;
  }
  std::ofstream out(path);
  out << j.dump(2) << '\n';
  if (!out)
    throw std::runtime_error("--summary-json " + path + ": cannot write: " + std::strerror(errno));
}

/// --summary-json must be writable before the run, not found unwritable after it. The file is
/// opened for appending (created if missing, nothing of an existing one lost): the run
/// replaces it at the end. Never the database or another SQLite file: replacing it corrupts it.
void checkSummaryJsonPath(const std::string& path, const std::string& dbPath) {
  if (path.empty() || path == "-") return;
  if (const std::string why = store::databaseClobberedBy(path, dbPath); !why.empty())
    throw UsageError("--summary-json " + path + ": " + why);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw UsageError("--summary-json " + path + ": is a directory");
  const bool existed = std::filesystem::exists(path, ec);
  std::ofstream probe(path, std::ios::app);
  if (!probe)
    throw UsageError("--summary-json " + path + ": cannot write: " + std::strerror(errno));
  probe.close();
  if (!existed) std::filesystem::remove(path, ec);
}

int execute(const RunOptions& opt, std::unique_ptr<LiveRun>& live) {
  const bool stdoutClosed = holdClosedStdout();
  workload::WorkloadSpec spec = loadSpec(opt);
  // What `plumbline plan` and the Designer warn of, said before the run too (the flags applied).
  if (!opt.quiet)
    for (const auto& w : workload::workloadWarnings(spec))
      std::cerr << "plumbline run: warning: " << w.path << ": " << w.message << '\n';
  const std::string dbPath = opt.dbPath.empty() ? store::defaultDatabasePath() : opt.dbPath;
  checkSummaryJsonPath(opt.summaryJson, dbPath);
  const std::string apiKey = readApiKey(opt, spec);
  if (!opt.liveSocket.empty()) {
    if (const std::string why = store::databaseClobberedBy(opt.liveSocket, dbPath); !why.empty())
      throw UsageError("--live " + opt.liveSocket + ": " + why);
    try {
      live = std::make_unique<LiveRun>(opt.liveSocket, opt.liveClientBuffer);
    } catch (const LiveServerError& e) {
      throw UsageError(e.what());
    }
  }
  uint32_t workers =
      opt.workers != 0 ? opt.workers : std::max(1u, std::thread::hardware_concurrency());
  // Each worker holds a whole share of the in-flight cap (QA 23b: 5 over 2 workers let 3 + 3 =
  // 6 fly): a cap below the worker count leaves the extra workers nothing to send with.
  if (spec.load.maxInFlight < static_cast<int64_t>(workers)) {
    const auto capped = static_cast<uint32_t>(std::max<int64_t>(1, spec.load.maxInFlight));
    if (opt.workers != 0 && !opt.quiet)
      std::cerr << "plumbline run: warning: --workers " << workers << ": load.max_in_flight is "
                << spec.load.maxInFlight << ", so " << capped
                << (capped == 1 ? " worker runs" : " workers run")
                << ", each with a request in flight at most\n";
    workers = capped;
  }

  if (std::string why = diagnosticSwitchesError(); !why.empty()) throw UsageError(why);
  std::unique_ptr<mock::EmbeddedTarget> embedded;
  std::string baseUrl = spec.target.url;
  if (baseUrl == "embedded") {
    mock::EmbeddedTargetOptions mo;
    mo.executable = selfExecutable();
    mo.preset = spec.target.mockPreset;
    mo.ttftMs = spec.target.mockTtftMs;
    mo.itlMs = spec.target.mockItlMs;
    mo.thinkingTokens = spec.target.mockThinkingTokens;
    mo.tokensPerEvent = spec.target.mockTokensPerEvent;
    embedded = std::make_unique<mock::EmbeddedTarget>(mo);
    baseUrl = embedded->baseUrl();
  }
  std::string endpoint;
  try {
    endpoint = completionEndpoint(baseUrl, spec.target.api);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("target.url: ") + e.what());
  }
  if (std::string why = httpClientChoiceError(std::getenv(kHttpClientEnv), endpoint); !why.empty())
    throw UsageError(why);

  store::RunInfo info;
  // Taken as `runs rename` takes a name: without the whitespace around it.
  info.name = opt.name.empty() ? spec.name : util::trimmedLabel(opt.name);
  info.workloadName = spec.name;
  info.spec = spec.document;
  info.targetUrl = spec.target.url == "embedded" ? "embedded (" + baseUrl + ")" : redactUrl(spec.target.url);
  info.api = spec.target.api == workload::Api::Chat ? "chat" : "completions";
  info.model = spec.target.model;
  info.toolVersion = PLUMBLINE_VERSION;
  info.host = util::hostName();
  info.cores = std::thread::hardware_concurrency();
  info.workers = workers;
  info.t0WallNs = util::wallClockNs();
  store::RunWriter writer(dbPath, info);

  CoordinatorOptions co;
  co.executable = selfExecutable();
  co.endpointUrl = endpoint;
  co.apiKey = apiKey;
  co.workers = workers;
  co.graceNs = static_cast<int64_t>(opt.graceS * 1e9);
  co.stopOnWorkerLoss = opt.onWorkerLoss == "stop";
  co.statusLine = !opt.quiet && isatty(STDERR_FILENO) != 0;
  co.printNotices = !opt.quiet;
  if (embedded) co.embeddedShortage = &embedded->acceptShortage();
  StoreSink storeSink(writer);
  if (live) {
    live->start(info, writer.runId(), spec, dbPath, storeSink);
    co.observer = live->observer();
  }
  Coordinator coordinator(spec, co, live ? live->sink() : storeSink);
  RunOutcome outcome = coordinator.run();
  if (embedded) embedded->stop();

  outcome.summary.runId = writer.runId();
  describeTokenCounts(spec, outcome.summary);
  outcome.summary.httpClient = timingClientName(endpoint, spec.target.stream);
  outcome.summary.askedLoad = describeAskedLoad(spec);
  outcome.summary.notes = outcome.notes;  // stored with the figures: `runs show` says them too
  nlohmann::json summary = outcome.summary.toJson();
  // A database that could not be written (disk full, an I/O error) loses the records not yet
  // committed, never the figures: the report and --summary-json still say the whole run.
  std::string recordFailure = storeSink.failure();
  int gaveUpOnSignal = 0;  // a stop signal while the last write waited for another's lock
  if (recordFailure.empty()) {
    // The last write may wait minutes for another process's lock: say so, and let a stop
    // signal give the wait up (the report and --summary-json still say the whole run).
    bool told = false;
    auto keepWaiting = [&](double lockWaitS) {
      if (lockWaitS <= 0) return true;
      if (!told && lockWaitS >= 1.0) {
        told = true;
        const std::string text =
            "waiting for another process's lock on " + dbPath +
            " to record the run's last results (up to " +
            std::to_string(store::RunWriter::kBusyPatience.count()) +
            " min; Ctrl-C gives the wait up, the report is printed either way)";
        if (!opt.quiet) std::cerr << "plumbline run: " << text << std::endl;
        if (live) live->notice("warning", text);
      }
      if (gaveUpOnSignal == 0) gaveUpOnSignal = takeEarlyStopSignal();
      return gaveUpOnSignal == 0;
    };
    try {
      writer.finish(summary, histogramBlobs(outcome.totals), !outcome.stoppedEarly, keepWaiting);
    } catch (const store::StoreError& e) {
      recordFailure = e.what();
      if (gaveUpOnSignal != 0)
        outcome.notes.push_back(std::string("received SIG") + sigabbrev_np(gaveUpOnSignal) +
                                " while the last results waited for the database");
      outcome.notes.push_back("the run's last results could not be recorded (" + recordFailure +
                              "); the database keeps what was committed before");
      summary["notes"] = outcome.notes;
    }
  }
  if (const int64_t waitedNs = writer.lockWaitNs(); waitedNs > 0) {
    // Known only once the last write is done, so in the report and --summary-json, not stored.
    char waited[32];
    std::snprintf(waited, sizeof waited, "%.1f s", static_cast<double>(waitedNs) / 1e9);
    outcome.notes.push_back("the database was locked by another process: its writes waited " +
                            std::string(waited) +
                            " in all, holding the results meanwhile; nothing was lost");
    summary["notes"] = outcome.notes;
  }
  if (live) live->finish(!outcome.stoppedEarly, summary, outcome.notes);

  std::string outputFailure;
  if (!opt.quiet) {
    std::string report = formatRunReport(outcome.summary, outcome.notes);
    report += "  run " + std::to_string(writer.runId()) +
              (recordFailure.empty() ? " stored in " : " stored only in part in ") + dbPath + "\n";
    if (opt.summaryJson == "-")
      std::cerr << report << std::flush;
    else if (const std::string why = writeStdout(report, stdoutClosed); !why.empty())
      outputFailure = "the report could not be written to standard output: " + why;
  }
  try {
    writeSummaryJson(opt.summaryJson, summary, stdoutClosed);
  } catch (const std::runtime_error& e) {
    outputFailure += (outputFailure.empty() ? "" : "; ") + std::string(e.what());
  }
  if (!outputFailure.empty()) {  // a failure of the tool; the database holds the run all the same
    std::cerr << "plumbline run: " << outputFailure << " (run " << writer.runId()
              << (recordFailure.empty() ? " is stored in " : " is stored in part in ") << dbPath
              << ")" << std::endl;
    if (recordFailure.empty()) return 1;
  }
  if (!recordFailure.empty()) {  // a failure of the tool: the record is not whole
    std::cerr << "plumbline run: the results could not all be recorded in " << dbPath << ": "
              << recordFailure << std::endl;
    return gaveUpOnSignal != 0 ? 128 + gaveUpOnSignal : 1;
  }
  // Stopped by a signal: the run did not do what was asked, whatever its windows' verdict (a
  // script or CI job that was cancelled must not read as passed). The shell's 128 + signal.
  if (outcome.stopSignal != 0) return 128 + outcome.stopSignal;
  return outcome.summary.verdict.kind == metrics::VerdictKind::KeptUp ? 0 : 3;
}

}  // namespace

int runCommand(const RunOptions& options) {
  catchEarlyStopSignals();  // a stop before the coordinator's loop runs is kept, not fatal
  std::unique_ptr<LiveRun> live;  // a failed run still ends its live stream, with the reason
  auto fail = [&live](int code, const std::string& message) {
    std::cerr << "plumbline run: " << message << std::endl;
    if (live) live->fail(message);
    return code;
  };
  try {
    return execute(options, live);
  } catch (const workload::WorkloadError& e) {
    return fail(2, "invalid workload " + workload::inWorkloadFile(options.workloadPath, e));
  } catch (const store::StoreError& e) {
    return fail(store::exitCodeOf(e.kind()), e.what());
  } catch (const UsageError& e) {
    return fail(2, e.what());
  } catch (const std::bad_alloc&) {
    return fail(
        1,
        "out of memory (a plan this large does not fit: lower the rate, the duration or the "
        "requests per session)");
  } catch (const std::exception& e) {
    return fail(1, std::string("failed: ") + e.what());
  }
}

}  // namespace plumbline::engine
