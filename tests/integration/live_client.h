#pragma once
// A live-telemetry client for integration tests: connects to `plumbline run --live SOCKET`
// and collects every message on a thread, optionally after a pause (a slow reader).
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/live/live_stream.h"

namespace plumbline::test {

/// A connected Unix socket, retrying until timeoutMs (the run may not listen yet); -1 if none.
inline int connectUnix(const std::string& path, int timeoutMs) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  while (std::chrono::steady_clock::now() < deadline) {
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0) return fd;
    close(fd);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return -1;
}

class LiveClient {
 public:
  explicit LiveClient(std::string path, int pauseBeforeReadingMs = 0)
      : m_thread([this, path = std::move(path), pauseBeforeReadingMs] { run(path, pauseBeforeReadingMs); }) {}
  ~LiveClient() { join(); }
  LiveClient(const LiveClient&) = delete;
  LiveClient& operator=(const LiveClient&) = delete;

  /// Waits until the server closed the stream (bounded by the run's own timeout).
  void join() {
    if (m_thread.joinable()) m_thread.join();
  }
  bool connected() const { return m_connected; }
  const std::vector<live::LiveMessage>& messages() const { return m_messages; }
  const std::string& error() const { return m_error; }
  size_t count() {
    std::lock_guard lock(m_mutex);
    return m_messages.size();
  }

  template <typename T>
  std::vector<T> all() const {
    std::vector<T> out;
    for (const auto& m : m_messages)
      if (const T* t = std::get_if<T>(&m)) out.push_back(*t);
    return out;
  }

 private:
  void run(const std::string& path, int pauseMs) {
    const int fd = connectUnix(path, 30'000);
    if (fd < 0) {
      m_error = "could not connect to " + path;
      return;
    }
    m_connected = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(pauseMs));
    live::LiveStreamReader reader;
    char buf[8192];
    try {
      for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n <= 0) break;
        reader.feed(std::string_view(buf, static_cast<size_t>(n)));
        while (auto m = reader.next()) {
          std::lock_guard lock(m_mutex);
          m_messages.push_back(std::move(*m));
        }
      }
    } catch (const live::LiveProtocolError& e) {
      m_error = e.what();
    }
    close(fd);
  }

  std::mutex m_mutex;
  std::vector<live::LiveMessage> m_messages;
  std::string m_error;
  std::atomic<bool> m_connected{false};
  std::thread m_thread;
};

}  // namespace plumbline::test
