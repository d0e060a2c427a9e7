#pragma once
// `plumbline mock`: an OpenAI-compatible server with scripted timing, for testing
// the harness and as the `embedded` target. N event loops share one listening socket.
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/mock/mock_config.h"

namespace plumbline::mock {

class EngineScheduler;
class MockLoop;
class MockStatsBoard;
class SharedAcceptShortage;

/// A running mock server. Binds in the constructor (so the port is known before
/// any thread starts); serves from start() until stop() or destruction.
class MockServer {
 public:
  /// Throws std::runtime_error when the address cannot be bound.
  explicit MockServer(const MockSettings& settings);
  ~MockServer();
  MockServer(const MockServer&) = delete;
  MockServer& operator=(const MockServer&) = delete;

  int port() const { return m_port; }
  /// "http://HOST:PORT"
  std::string baseUrl() const;
  void start();
  /// The counters behind /mock/stats.
  const MockStatsBoard& stats() const { return *m_board; }
  /// Stops every loop and joins its thread; idempotent.
  void stop();

 private:
  MockSettings m_settings;
  int m_listenFd = -1;
  int m_port = 0;
  std::unique_ptr<MockStatsBoard> m_board;
  std::unique_ptr<SharedAcceptShortage> m_shortage;  ///< shared with the run embedding this mock
  std::unique_ptr<EngineScheduler> m_engine;  ///< before the loops: they use it until they are gone
  std::vector<std::unique_ptr<MockLoop>> m_loops;
  std::vector<std::thread> m_threads;
};

/// Entry point of `plumbline mock`: resolves the options, prints the base URL as the
/// first line of stdout, serves until SIGTERM/SIGINT, then prints /mock/stats's final JSON
/// as its last line. Returns the process exit code
/// (0 clean stop, 1 cannot serve, 2 invalid options, with a one-line message on stderr).
int runMockServer(const MockConfig& config);

}  // namespace plumbline::mock
