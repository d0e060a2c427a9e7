// plumbline: the command-line entry point. Subcommands live in core/; this file only wires CLI11.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "core/engine/run_command.h"
#include "core/engine/worker.h"
#include "core/mock/mock_server.h"
#include "core/store/default_paths.h"
#include "core/store/runs_command.h"
#include "core/workload/plan_command.h"

namespace {

/// `plumbline run`: a workload against a target, stored, with a verdict.
void addRunCommand(CLI::App& app, int& exitCode) {
  auto opt = std::make_shared<plumbline::engine::RunOptions>();
  CLI::App* cmd = app.add_subcommand("run", "run a workload against a target and give the verdict");
  cmd->add_option("workload", opt->workloadPath, "workload file (JSON)")->required();
  cmd->add_option("--target", opt->target, "a base URL (http://host:port) or 'embedded'");
  cmd->add_option("--db", opt->dbPath, "database file (default: " + plumbline::store::defaultDatabasePath() + ")");
  cmd->add_option("--name", opt->name, "a name for this run (default: the workload's)");
  cmd->add_option("--workers", opt->workers, "worker processes (default: one per core)")->check(CLI::Range(1, 256));
  cmd->add_option("--rate", opt->rate, "replace the stages with one stage of this rate (sessions/s)");
  cmd->add_option("--duration", opt->durationS, "... lasting this many seconds");
  cmd->add_option("--summary-json", opt->summaryJson, "write the summary as JSON to FILE, or - for stdout");
  cmd->add_option("--api-key-file", opt->apiKeyFile, "read the API key from this file (else target.api_key_env)");
  cmd->add_option("--grace", opt->graceS, "seconds in-flight requests may finish after a stop (default 10)");
  cmd->add_flag("--quiet", opt->quiet, "no status line and no summary table");
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

/// `plumbline runs list | show ID | export ID --format csv|json`.
void addRunsCommand(CLI::App& app, int& exitCode) {
  auto db = std::make_shared<std::string>(plumbline::store::defaultDatabasePath());
  CLI::App* runs = app.add_subcommand("runs", "list, show and export stored runs");
  runs->add_option("--db", *db, "database file")->capture_default_str();
  runs->require_subcommand(1);
  runs->fallthrough();  // `runs list --db F` as well as `runs --db F list`
  runs->add_subcommand("list", "all runs, newest first")->fallthrough()->callback([db, &exitCode] {
    exitCode = plumbline::store::runsList(*db, std::cout, std::cerr);
  });
  auto id = std::make_shared<int64_t>(0);
  CLI::App* show = runs->add_subcommand("show", "one run: verdict first, then its figures")->fallthrough();
  show->add_option("id", *id, "run id")->required();
  show->callback([db, id, &exitCode] { exitCode = plumbline::store::runsShow(*db, *id, std::cout, std::cerr); });
  auto format = std::make_shared<std::string>("json");
  CLI::App* exp = runs->add_subcommand("export", "one run with its windows and requests")->fallthrough();
  exp->add_option("id", *id, "run id")->required();
  exp->add_option("--format", *format, "csv (one line per request) or json")->check(CLI::IsMember({"csv", "json"}));
  exp->callback([db, id, format, &exitCode] {
    exitCode = plumbline::store::runsExport(*db, *id, *format, std::cout, std::cerr);
  });
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
  cmd->add_option("--config", config->configPath,
                  "MOCK.json: preset, ttft_ms, itl_ms, threads, natural_length_mean, engine {...}, faults "
                  "{class: rate}, fault_seed, stall_ms, trickle_itl_ms, retry_after_s");
  cmd->add_option("--threads", config->threads, "event loops (default: hardware cores)");
  cmd->add_option("--record-requests", config->recordRequests,
                  "FILE: write one JSON line per completion request received (arrival_ns, api, body)");
  cmd->callback([config, &exitCode] { exitCode = plumbline::mock::runMockServer(*config); });
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"plumbline: honest load generation for LLM serving endpoints"};
  app.require_subcommand(1);
  int exitCode = 0;
  addRunCommand(app, exitCode);
  addPlanCommand(app, exitCode);
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
