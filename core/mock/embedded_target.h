#pragma once
// The `embedded` target: a `plumbline mock` child process on an ephemeral port.
#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>

#include "core/mock/accept_shortage.h"

namespace plumbline::mock {

struct EmbeddedTargetOptions {
  std::string executable;  ///< path of the plumbline binary, normally /proc/self/exe
  std::string preset;      ///< empty = the mock's default preset
  std::optional<double> ttftMs;
  std::optional<double> itlMs;
  int threads = 0;  ///< 0 = the mock's default (hardware cores)
  /// Last, with an initializer: callers brace-initialise the fields above in order.
  std::optional<int64_t> thinkingTokens = std::nullopt;
  std::optional<int64_t> tokensPerEvent = std::nullopt;
};

/// Starts `EXECUTABLE mock --listen 127.0.0.1:0 --shortage-fd N …` and waits (≤ 5 s) for
/// the base URL it prints first. The child gets SIGTERM if this process dies. Errors throw
/// std::runtime_error.
class EmbeddedTarget {
 public:
  explicit EmbeddedTarget(const EmbeddedTargetOptions& options);
  ~EmbeddedTarget();
  EmbeddedTarget(const EmbeddedTarget&) = delete;
  EmbeddedTarget& operator=(const EmbeddedTarget&) = delete;

  /// "http://127.0.0.1:PORT"
  const std::string& baseUrl() const { return m_baseUrl; }
  pid_t pid() const { return m_pid; }
  /// What the mock records when it cannot accept a connection (out of descriptors): it is the
  /// harness's own process, so the run names that as its limit.
  const AcceptShortage& acceptShortage() const { return m_shortage.get(); }
  /// SIGTERM, up to 3 s grace, then SIGKILL; reaps. Returns the wait status, or -1
  /// when already stopped.
  int stop();

 private:
  std::string readFirstLine(int timeoutMs);

  SharedAcceptShortage m_shortage;
  pid_t m_pid = -1;
  int m_stdout = -1;
  std::string m_baseUrl;
};

}  // namespace plumbline::mock
