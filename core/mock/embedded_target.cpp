#include "core/mock/embedded_target.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

namespace plumbline::mock {
namespace {

constexpr int kStartTimeoutMs = 5000;
constexpr auto kStopGrace = std::chrono::seconds(3);

std::vector<std::string> mockArguments(const EmbeddedTargetOptions& options, int shortageFd) {
  std::vector<std::string> args{options.executable, "mock",          "--listen",
                                "127.0.0.1:0",      "--shortage-fd", std::to_string(shortageFd)};
  if (!options.preset.empty()) args.insert(args.end(), {"--preset", options.preset});
  if (options.ttftMs) args.insert(args.end(), {"--ttft-ms", std::to_string(*options.ttftMs)});
  if (options.itlMs) args.insert(args.end(), {"--itl-ms", std::to_string(*options.itlMs)});
  if (options.thinkingTokens)
    args.insert(args.end(), {"--thinking-tokens", std::to_string(*options.thinkingTokens)});
  if (options.tokensPerEvent)
    args.insert(args.end(), {"--tokens-per-event", std::to_string(*options.tokensPerEvent)});
  if (options.threads > 0) args.insert(args.end(), {"--threads", std::to_string(options.threads)});
  return args;
}

/// Runs in the forked child: only async-signal-safe calls until execv.
[[noreturn]] void execChild(int writeFd, int shortageFd, pid_t parent,
                            const std::vector<char*>& argv) {
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) _exit(127);  // the parent died before prctl took effect
  // Its own process group: a terminal's Ctrl-C reaches the run, which stops sending and lets
  // in-flight requests finish; the target must still be serving them.
  setpgid(0, 0);
  if (dup2(writeFd, STDOUT_FILENO) < 0) _exit(127);
  if (fcntl(shortageFd, F_SETFD, 0) != 0) _exit(127);  // the one descriptor the mock inherits
  execv(argv[0], argv.data());
  _exit(127);
}

/// waitpid with a deadline; returns true (and the status) once the child is reaped.
bool reapWithin(pid_t pid, std::chrono::milliseconds limit, int& status) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (true) {
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

EmbeddedTarget::EmbeddedTarget(const EmbeddedTargetOptions& options) {
  const std::vector<std::string> args = mockArguments(options, m_shortage.fd());
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("embedded target: pipe: ") + std::strerror(errno));
  const pid_t parent = getpid();
  m_pid = fork();
  if (m_pid == 0) execChild(fds[1], m_shortage.fd(), parent, argv);
  close(fds[1]);
  m_stdout = fds[0];
  if (m_pid < 0) {
    close(m_stdout);
    throw std::runtime_error(std::string("embedded target: fork: ") + std::strerror(errno));
  }
  try {
    const std::string line = readFirstLine(kStartTimeoutMs);
    if (line.rfind("http://127.0.0.1:", 0) != 0) {
      throw std::runtime_error("embedded target: " + options.executable + " mock printed '" + line +
                               "' instead of its address");
    }
    m_baseUrl = line;
  } catch (...) {
    stop();
    throw;
  }
}

EmbeddedTarget::~EmbeddedTarget() { stop(); }

std::string EmbeddedTarget::readFirstLine(int timeoutMs) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  std::string line;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) throw std::runtime_error("embedded target: no address from the mock within 5 s");
    pollfd pfd{m_stdout, POLLIN, 0};
    const int ready = poll(&pfd, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char c = 0;
    const ssize_t n = read(m_stdout, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("embedded target: the mock exited before printing its address");
    if (c == '\n') return line;
    line += c;
    if (line.size() > 512) throw std::runtime_error("embedded target: the mock printed an over-long first line");
  }
}

int EmbeddedTarget::stop() {
  if (m_pid <= 0) return -1;
  int status = 0;
  kill(m_pid, SIGTERM);
  if (!reapWithin(m_pid, kStopGrace, status)) {
    kill(m_pid, SIGKILL);
    reapWithin(m_pid, std::chrono::seconds(5), status);
  }
  m_pid = -1;
  if (m_stdout >= 0) close(m_stdout);
  m_stdout = -1;
  return status;
}

}  // namespace plumbline::mock
