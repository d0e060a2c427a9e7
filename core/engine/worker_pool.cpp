#include "core/engine/worker_pool.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "core/util/clock.h"

namespace plumbline::engine {

std::string selfExecutable() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) throw std::runtime_error(std::string("cannot find own executable: ") + std::strerror(errno));
  return std::string(buf, static_cast<size_t>(n));
}

std::vector<WorkerProcess> spawnWorkers(const std::string& executable, uint32_t n) {
  std::vector<WorkerProcess> out;
  const pid_t parent = getpid();
  for (uint32_t i = 0; i < n; ++i) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
      throw std::runtime_error(std::string("socketpair: ") + std::strerror(errno));
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
      prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (getppid() != parent) _exit(1);
      setpgid(0, 0);
      if (dup2(sv[1], 3) < 0) _exit(1);  // dup2 clears close-on-exec on fd 3
      const char* argv[] = {executable.c_str(), "worker", "--fd", "3", nullptr};
      execv(executable.c_str(), const_cast<char* const*>(argv));
      _exit(127);
    }
    close(sv[1]);
    out.push_back({i, pid, sv[0]});
  }
  return out;
}

bool workerExited(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == pid;
}

std::string reapWorker(pid_t pid, int timeoutMs) {
  const int64_t deadline = util::monotonicNs() + int64_t{timeoutMs} * 1'000'000;
  int status = 0;
  for (;;) {
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0) return "already reaped";
    if (util::monotonicNs() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return "killed after not exiting";
    }
    usleep(2000);
  }
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("killed by signal ") + strsignal(WTERMSIG(status));
  return "ended";
}

}  // namespace plumbline::engine
