#pragma once
// A child process for integration tests: started with posix_spawn, output to a file, waited
// for with a deadline and killed by its PID if it overruns.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace plumbline::test {

class ChildProcess {
 public:
  ChildProcess(const std::vector<std::string>& args, const std::string& outputPath) : m_output(outputPath) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, outputPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const int rc = posix_spawn(&m_pid, argv[0], &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) throw std::runtime_error("posix_spawn failed");
  }
  ~ChildProcess() {
    if (m_pid > 0 && !m_reaped) {
      kill(m_pid, SIGKILL);
      waitpid(m_pid, nullptr, 0);
    }
  }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return m_pid; }
  void signal(int sig) const { kill(m_pid, sig); }

  /// Exit code (128 + signal if killed by one); -1 if it did not end in time (then killed).
  int wait(int timeoutMs) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    int status = 0;
    while (waitpid(m_pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(m_pid, SIGKILL);
        waitpid(m_pid, &status, 0);
        m_reaped = true;
        return -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    m_reaped = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  std::string output() const {
    std::ifstream in(m_output);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

 private:
  pid_t m_pid = -1;
  bool m_reaped = false;
  std::string m_output;
};

/// The first line a child printed (a mock prints its address first), waited for up to
/// timeoutMs; empty if none came.
inline std::string firstLineOf(const ChildProcess& child, int timeoutMs = 5000) {
  for (int waited = 0; waited < timeoutMs; waited += 10) {
    const std::string out = child.output();
    if (const auto eol = out.find('\n'); eol != std::string::npos) return out.substr(0, eol);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return "";
}

/// A fresh temporary directory, removed with its contents at the end of the test.
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/plumbline-test-XXXXXX";
    m_path = mkdtemp(tmpl);
  }
  ~TempDir() { std::system(("rm -rf '" + m_path + "'").c_str()); }
  const std::string& path() const { return m_path; }
  std::string file(const std::string& name) const { return m_path + "/" + name; }

 private:
  std::string m_path;
};

}  // namespace plumbline::test
