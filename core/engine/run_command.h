#pragma once
#include <cstdint>
#include <cstddef>
#include <optional>
#include <string>

namespace plumbline::engine {

/// Options of `plumbline run` (see DESIGN.md "Binaries and their contract").
struct RunOptions {
  std::string workloadPath;
  std::string target;              ///< empty: the workload's target.url; else a URL or "embedded"
  std::string dbPath;              ///< empty: the default database
  std::string name;                ///< empty: the workload's name
  uint32_t workers = 0;            ///< 0: one per core
  std::optional<double> rate;
  std::optional<double> durationS;
  std::string summaryJson;         ///< empty: none; "-": stdout
  std::string apiKeyFile;          ///< a file holding the API key (first line)
  double graceS = 10.0;
  bool quiet = false;
  std::string onWorkerLoss = "redistribute";  ///< or "stop" (see CoordinatorOptions::stopOnWorkerLoss)
  std::string liveSocket;          ///< --live: serve live telemetry on this Unix socket path
  size_t liveClientBuffer = size_t{4} << 20;  ///< unread bytes per live client before ticks drop
};

/// Runs a workload end to end. Returns the process exit code: 0 a valid run, 1 a failure
/// of the tool, 2 invalid input, 3 the verdict is harness_limited.
int runCommand(const RunOptions& options);

}  // namespace plumbline::engine
