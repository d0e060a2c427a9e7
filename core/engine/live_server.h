#pragma once
// Serves the live-telemetry stream (core/live/live_protocol.h) on a Unix socket.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/live/live_messages.h"

namespace plumbline::engine {

/// The socket path cannot be used; what() names the path and the reason.
class LiveServerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LiveServerOptions {
  std::string socketPath;
  /// Bytes a client may leave unread. Ticks are dropped once half of it is used, keeping the
  /// rest for Windows, Notices and End; one of those that does not fit disconnects the client.
  /// A late joiner's replay comes on top.
  size_t clientBufferCap = size_t{4} << 20;
  /// How long finish() waits for clients to read the End frame.
  int64_t finishTimeoutMs = 3000;
};

/// Accepts any number of clients on its own thread and streams the run to each: greeting,
/// Hello, the Windows and Notices so far, the latest Tick, then live frames, then End. The
/// publishing calls only queue and wake that thread, so a slow or stuck client can never
/// hold up the caller (the coordinator).
class LiveServer {
 public:
  /// Binds and listens; throws LiveServerError if the path is unusable (its directory is
  /// missing or not writable, it is too long, another process serves it, or it is a file
  /// that is not a socket). A stale socket file left by a dead run is replaced.
  explicit LiveServer(LiveServerOptions options);
  /// Stops serving (without an End if finish() was not called) and removes the socket file.
  ~LiveServer();
  LiveServer(const LiveServer&) = delete;
  LiveServer& operator=(const LiveServer&) = delete;

  void hello(const live::LiveHello& hello);
  void tick(const live::LiveTick& tick);
  void window(const store::WindowRow& window);
  void notice(const live::LiveNotice& notice);
  /// Sends End to every client, waits up to finishTimeoutMs for them to read everything,
  /// then closes the connections and removes the socket file. Idempotent.
  void finish(const live::LiveEnd& end);

  /// Lines for the run's log since the last call (clients disconnected for reading too slowly).
  std::vector<std::string> takeLog();
  /// Clients connected right now (for tests and the log).
  size_t clientCount() const;
  const std::string& socketPath() const;

 private:
  struct State;
  std::unique_ptr<State> m_state;
};

}  // namespace plumbline::engine
