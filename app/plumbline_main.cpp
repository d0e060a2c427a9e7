// plumbline: the command-line entry point. Subcommands live in core/; this file only wires CLI11.
#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdint>
#include <iostream>
#include <memory>
#include <vector>

#include "core/compare/compare_command.h"
#include "core/engine/run_command.h"
#include "core/engine/worker.h"
#include "core/live/live_tap.h"
#include "core/mock/mock_server.h"
#include "core/store/default_paths.h"
#include "core/store/runs_command.h"
#include "core/store/runs_edit_command.h"
#include "core/workload/plan_command.h"

namespace {

/// An option given as "" (an unset shell variable, say) is a mistake, not "the default".
const CLI::Validator kNotEmpty(
    [](const std::string& value) {
      return value.empty() ? std::string("must not be empty") : std::string();
    },
    "NOT EMPTY");

/// Run ids are SQLite rowids, 1 to 2^63-1. CLI11 read "99999999999999999999" as 2^63-1 (its
/// conversion saturates): a run that does not exist was then "not found" under another id.
const CLI::Validator kRunId(
    [](const std::string& value) {
      int64_t id = 0;
      const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), id);
      const std::string shown = "'" + value.substr(0, 40) + (value.size() > 40 ? "...'" : "'");
      if (error == std::errc::result_out_of_range) return shown + ": run ids go up to 2^63-1";
      if (error != std::errc() || end != value.data() + value.size() || id < 1)
        return shown + " is not a run id: a whole number >= 1 (see `plumbline runs list`)";
      return std::string();
    },
    "ID");

/// `plumbline run`: a workload against a target, stored, with a verdict.
void addRunCommand(CLI::App& app, int& exitCode) {
  auto opt = std::make_shared<plumbline::engine::RunOptions>();
  CLI::App* cmd = app.add_subcommand("run", "run a workload against a target and give the verdict");
  cmd->add_option("workload", opt->workloadPath, "workload file (JSON)")->required();
  cmd->add_option("--target", opt->target, "a base URL (http://host:port) or 'embedded'")
      ->check(kNotEmpty);
  cmd->add_option("--db", opt->dbPath,
                  "database file (default: " + plumbline::store::defaultDatabasePath() + ")")
      ->check(kNotEmpty);
  cmd->add_option("--name", opt->name, "a name for this run (default: the workload's)")
      ->check(kNotEmpty);
  cmd->add_option("--workers", opt->workers, "worker processes (default: one per core)")->check(CLI::Range(1, 256));
  cmd->add_option("--rate", opt->rate, "replace the stages with one stage of this rate (sessions/s)");
  cmd->add_option("--duration", opt->durationS, "... lasting this many seconds");
  cmd->add_option("--summary-json", opt->summaryJson,
                  "write the summary as JSON to FILE, or - for stdout")
      ->check(kNotEmpty);
  cmd->add_option("--api-key-file", opt->apiKeyFile, "read the API key from this file (else target.api_key_env)");
  cmd->add_option("--grace", opt->graceS, "seconds in-flight requests may finish after a stop (default 10)");
  cmd->add_option("--on-worker-loss", opt->onWorkerLoss,
                  "when a worker process dies: redistribute (its sessions not yet due go to the others; default) "
                  "or stop (the run stops as on SIGINT)")
      ->check(CLI::IsMember({"redistribute", "stop"}));
  cmd->add_flag("--quiet", opt->quiet, "no status line and no summary table");
  cmd->add_option(
      "--live", opt->liveSocket,
      "serve live telemetry on this Unix socket path (see README); plumbline-studio finds a "
      "run on opening only at $XDG_RUNTIME_DIR/plumbline/live-*.sock (no XDG_RUNTIME_DIR: "
      "/tmp/plumbline-UID/live-*.sock)");
  cmd->add_option("--live-client-buffer", opt->liveClientBuffer, "unread bytes per live client before its ticks drop")
      ->group("");  // hidden: tests shrink it to see ticks dropped
  cmd->callback([opt, &exitCode] { exitCode = plumbline::engine::runCommand(*opt); });
}

/// `plumbline worker --fd N` (internal): started by the coordinator over a socket pair.
void addWorkerCommand(CLI::App& app, int& exitCode) {
  auto fd = std::make_shared<int>(-1);
  CLI::App* cmd = app.add_subcommand("worker", "internal: a worker process of a run");
  cmd->group("");  // hidden from --help
  cmd->add_option("--fd", *fd, "control socket file descriptor")->required();
  cmd->callback([fd, &exitCode] { exitCode = plumbline::engine::runWorkerProcess(*fd); });
}

/// `plumbline live-tap SOCKET [--raw FILE]` (hidden): print a run's live stream as JSON lines.
void addLiveTapCommand(CLI::App& app, int& exitCode) {
  auto opt = std::make_shared<plumbline::live::LiveTapOptions>();
  CLI::App* cmd = app.add_subcommand("live-tap", "print a run's live telemetry as JSON lines");
  cmd->group("");  // hidden from --help: a tool for fixtures and debugging
  cmd->add_option("socket", opt->socketPath, "the socket given to run --live")->required();
  cmd->add_option("--raw", opt->rawPath, "also save the raw bytes to FILE");
  cmd->add_option("--wait", opt->waitS, "keep trying to connect this many seconds");
  cmd->callback([opt, &exitCode] { exitCode = plumbline::live::liveTapCommand(*opt, std::cout, std::cerr); });
}

/// `plumbline plan FILE [--json]`: validate and preview; sends nothing.
void addPlanCommand(CLI::App& app, int& exitCode) {
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("plan", "validate a workload and show what would be sent");
  cmd->add_option("workload", *path, "workload file (JSON)")->required();
  cmd->add_flag("--json", *json, "print the preview as JSON");
  cmd->callback([path, json, &exitCode] {
    exitCode = plumbline::workload::planCommand(*path, *json, std::cout, std::cerr);
  });
}

/// `plumbline runs compare | rename | notes | tag | untag | delete`.
void addRunsCompareAndEditCommands(CLI::App* runs, const std::shared_ptr<std::string>& db, int& exitCode) {
  auto ids = std::make_shared<std::vector<int64_t>>();
  auto slo = std::make_shared<plumbline::compare::Slo>();
  auto format = std::make_shared<std::string>("text");
  CLI::App* cmp = runs->add_subcommand("compare", "2 to 4 runs side by side: warnings first, then deltas")->fallthrough();
  cmp->add_option("ids", *ids, "run ids; the first is the baseline")->required()->check(kRunId);
  cmp->add_option("--slo-ttft-ms", slo->ttftMs, "goodput: TTFT limit in ms (from the planned time)");
  cmp->add_option("--slo-ttfa-ms", slo->ttfaMs,
                  "goodput: time to first answer token limit in ms (from the planned time; a "
                  "reasoning model's first tokens are thinking); a stream with no answer fails it");
  cmp->add_option("--slo-itl-ms", slo->itlMs, "goodput: mean inter-token gap limit in ms");
  cmp->add_option(
      "--slo-e2e-ms", slo->e2eMs,
      "goodput: end-to-end limit in ms (from the planned time); the one a non-streaming "
      "run is judged on (it has no TTFT, TTFA or gaps)");
  cmp->add_option("--format", *format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmp->callback([db, ids, slo, format, &exitCode] {
    exitCode = plumbline::compare::runsCompare(*db, *ids, *slo, *format, std::cout, std::cerr);
  });

  auto id = std::make_shared<int64_t>(0);
  auto text = std::make_shared<std::string>();
  auto tags = std::make_shared<std::vector<std::string>>();
  CLI::App* rename = runs->add_subcommand("rename", "give a run a new name")->fallthrough();
  rename->add_option("id", *id, "run id")->required()->check(kRunId);
  rename->add_option("name", *text, "the new name")->required();
  rename->callback([db, id, text, &exitCode] {
    exitCode = plumbline::store::runsRename(*db, *id, *text, std::cout, std::cerr);
  });
  CLI::App* notes = runs->add_subcommand("notes", "set a run's notes (empty text clears them)")->fallthrough();
  notes->add_option("id", *id, "run id")->required()->check(kRunId);
  notes->add_option("text", *text, "the notes")->required();
  notes->callback([db, id, text, &exitCode] {
    exitCode = plumbline::store::runsNotes(*db, *id, *text, std::cout, std::cerr);
  });
  for (bool remove : {false, true}) {
    CLI::App* tag = runs->add_subcommand(remove ? "untag" : "tag", remove ? "remove tags from a run" : "add tags to a run")
                        ->fallthrough();
    tag->add_option("id", *id, "run id")->required()->check(kRunId);
    tag->add_option("tags", *tags, "tags")->required();
    tag->callback([db, id, tags, remove, &exitCode] {
      exitCode = plumbline::store::runsTag(*db, *id, *tags, remove, std::cout, std::cerr);
    });
  }
  CLI::App* del = runs->add_subcommand("delete", "delete a run with its requests, windows and histograms")->fallthrough();
  del->add_option("id", *id, "run id")->required()->check(kRunId);
  del->callback([db, id, &exitCode] { exitCode = plumbline::store::runsDelete(*db, *id, std::cout, std::cerr); });
}

/// `plumbline runs list | show ID | export ID --format csv|json`.
void addRunsCommand(CLI::App& app, int& exitCode) {
  auto db = std::make_shared<std::string>(plumbline::store::defaultDatabasePath());
  CLI::App* runs = app.add_subcommand("runs", "list, show, compare, edit and export stored runs");
  CLI::Option* dbOption = runs->add_option("--db", *db, "database file")->capture_default_str();
  runs->require_subcommand(1);
  runs->fallthrough();  // `runs list --db F` as well as `runs --db F list`
  runs->add_subcommand("list", "all runs, oldest first (the newest last, next to the prompt)")
      ->fallthrough()
      ->callback([db, dbOption, &exitCode] {
        exitCode = plumbline::store::runsList(*db, dbOption->count() > 0, std::cout, std::cerr);
      });
  auto id = std::make_shared<int64_t>(0);
  CLI::App* show = runs->add_subcommand("show", "one run: verdict first, then its figures")->fallthrough();
  show->add_option("id", *id, "run id")->required()->check(kRunId);
  show->callback([db, id, &exitCode] { exitCode = plumbline::store::runsShow(*db, *id, std::cout, std::cerr); });
  auto format = std::make_shared<std::string>("json");
  CLI::App* exp = runs->add_subcommand("export", "one run with its windows and requests")->fallthrough();
  exp->add_option("id", *id, "run id")->required()->check(kRunId);
  exp->add_option("--format", *format, "csv (one line per request) or json")->check(CLI::IsMember({"csv", "json"}));
  exp->callback([db, id, format, &exitCode] {
    exitCode = plumbline::store::runsExport(*db, *id, *format, std::cout, std::cerr);
  });
  addRunsCompareAndEditCommands(runs, db, exitCode);
}

/// `plumbline mock`: options into a MockConfig, then the server (runs until SIGTERM).
void addMockCommand(CLI::App& app, int& exitCode) {
  auto config = std::make_shared<plumbline::mock::MockConfig>();
  CLI::App* cmd = app.add_subcommand("mock", "serve an OpenAI-compatible mock endpoint with scripted timing");
  cmd->add_option("--listen", config->listen, "IPV4:PORT to listen on (port 0 = ephemeral)");
  cmd->add_option("--preset", config->preset,
                  "instant (no delays), default (fixed 50 ms TTFT, 10 ms ITL), gpu-8b (simulated 8B model on one "
                  "GPU), overloaded, flaky (gpu-8b with faults)");
  cmd->add_option("--ttft-ms", config->ttftMs, "fixed time to first token in ms (instant/default timing only)");
  cmd->add_option("--itl-ms", config->itlMs, "fixed inter-token latency in ms (instant/default timing only)");
  cmd->add_option(
      "--thinking-tokens", config->thinkingTokens,
      "the first N tokens of each chat reply are reasoning_content (a model that thinks first)");
  cmd->add_option("--tokens-per-event", config->tokensPerEvent,
                  "after its first token a stream sends N tokens an event, as a server streaming "
                  "every N tokens (instant/default timing only; default 1)");
  cmd->add_option("--config", config->configPath,
                  "MOCK.json: preset, ttft_ms, itl_ms, thinking_tokens, tokens_per_event, threads, "
                  "natural_length_mean, engine {...}, faults "
                  "{class: rate}, fault_seed, stall_ms, trickle_itl_ms, retry_after_s");
  cmd->add_option("--threads", config->threads, "event loops (default: hardware cores)");
  cmd->add_flag("--reuse-port", config->reusePort,
                "SO_REUSEPORT: several mock processes on one port share its connections (beyond one process's fd limit)");
  cmd->add_option(
      "--realtime", config->realtimePriority,
      "PRIO: run the event loops SCHED_FIFO at PRIO (1-99), so that on a machine shared with the "
      "client its token writes never wait behind the client for a CPU (timing-accuracy benchmarks; "
      "needs CAP_SYS_NICE or ulimit -r >= PRIO)");
  cmd->add_option(
      "--slice-us", config->sliceUs,
      "US: each event loop asks the kernel for a US µs scheduler slice (100-100000; Linux 6.12+, "
      "unprivileged): woken for a token write, a loop takes its CPU from a client with a longer "
      "slice at once (timing-accuracy benchmarks, without --realtime's power to starve the "
      "client)");
  cmd->add_option("--record-requests", config->recordRequests,
                  "FILE: write one JSON line per completion request received (arrival_ns, api, body)");
  // Internal: the run that starts this mock as its embedded target reads its accept shortages.
  cmd->add_option("--shortage-fd", config->shortageFd, "FD: an inherited accept-shortage board")
      ->group("");
  cmd->callback([config, &exitCode] { exitCode = plumbline::mock::runMockServer(*config); });
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"plumbline: honest load generation for LLM serving endpoints"};
  app.require_subcommand(1);
  int exitCode = 0;
  addRunCommand(app, exitCode);
  addPlanCommand(app, exitCode);
  addLiveTapCommand(app, exitCode);
  addRunsCommand(app, exitCode);
  addMockCommand(app, exitCode);
  addWorkerCommand(app, exitCode);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Usage errors exit 2 (DESIGN.md), whatever CLI11's own code; --help stays 0.
    return app.exit(e) == 0 ? 0 : 2;
  }
  return exitCode;
}
