#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace plumbline::engine {

/// A started worker process and the coordinator's end of its socket pair.
struct WorkerProcess {
  uint32_t id = 0;
  pid_t pid = -1;
  int fd = -1;
};

/// Starts `EXE worker --fd 3` n times, each on its own socket pair and in its own process
/// group (a terminal's Ctrl-C reaches the coordinator only; it stops workers over the
/// protocol). Workers die with the coordinator (PR_SET_PDEATHSIG). Throws std::runtime_error.
std::vector<WorkerProcess> spawnWorkers(const std::string& executable, uint32_t n);

/// Waits for a worker to exit (up to timeoutMs), then kills it. Returns its wait status text.
std::string reapWorker(pid_t pid, int timeoutMs);

/// Whether a worker process has ended, without reaping it (reapWorker still reads its status).
bool workerExited(pid_t pid);

/// The path of the running executable (/proc/self/exe).
std::string selfExecutable();

}  // namespace plumbline::engine
