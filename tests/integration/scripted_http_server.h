#pragma once
// A raw TCP server on 127.0.0.1 for the native client's fault tests: reads each request
// (head and Content-Length body) and answers with whatever bytes a script returns for it,
// or closes the connection when the script says so. Counts every request it received.
// One thread per connection; the destructor closes everything and joins.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace plumbline::test {

/// How a ScriptedHttpServer behaves besides its script.
struct ScriptedServerOptions {
  /// When not empty, sent on each connection as soon as it is accepted, before any request (a
  /// server that speaks first, as a TLS server answers a hello).
  std::string greeting;
  /// Answers no connect until openGate(): its accept queue is kept full, so the kernel drops the
  /// clients' SYNs (they retransmit one 1 s after the first, then 2 s after that).
  bool gated = false;
};

class ScriptedHttpServer {
 public:
  /// What to send back, and whether to close the connection after it.
  struct Reply {
    std::string bytes;
    bool close = false;
  };
  /// (index of the request on its connection, index over all connections, its head) ->
  /// the reply; nullopt closes the connection without answering.
  using Script = std::function<std::optional<Reply>(int onConnection, int overall, const std::string& head)>;

  using Options = ScriptedServerOptions;

  explicit ScriptedHttpServer(Script script, Options options = {})
      : m_script(std::move(script)),
        m_greeting(std::move(options.greeting)),
        m_gateOpen(!options.gated) {
    m_listen = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (m_listen < 0 || bind(m_listen, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        listen(m_listen, options.gated ? 0 : 64) != 0)
      throw std::runtime_error("scripted server: cannot listen on 127.0.0.1");
    socklen_t len = sizeof addr;
    getsockname(m_listen, reinterpret_cast<sockaddr*>(&addr), &len);
    m_port = ntohs(addr.sin_port);
    if (options.gated) fillAcceptQueue(addr);
    m_acceptor = std::thread([this] { acceptLoop(); });
  }
  ~ScriptedHttpServer() {
    m_stopping = true;
    m_acceptor.join();
    for (auto& t : m_threads) t.join();
    for (const int fd : m_fillers) close(fd);
    close(m_listen);
  }
  ScriptedHttpServer(const ScriptedHttpServer&) = delete;
  ScriptedHttpServer& operator=(const ScriptedHttpServer&) = delete;

  /// A gated server starts answering connects (the SYNs it dropped complete when retransmitted).
  void openGate() {
    listen(m_listen, 64);  // a queue of 64 from now (a backlog of 0 drops handshakes' last ACK)
    m_gateOpen = true;
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port) + "/v1/chat/completions"; }
  uint16_t port() const { return m_port; }
  int requests() const { return m_requests.load(); }
  int connections() const { return m_connections.load(); }
  std::vector<std::string> heads() const {
    std::lock_guard lock(m_mutex);
    return m_heads;
  }

 private:
  bool waitReadable(int fd) {
    while (!m_stopping) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 50) > 0) return true;
    }
    return false;
  }

  /// A backlog of 0 holds one connection: two from here keep the queue full.
  void fillAcceptQueue(const sockaddr_in& addr) {
    for (int i = 0; i < 2; ++i) {
      const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
      if (fd < 0) throw std::runtime_error("scripted server: cannot open a socket");
      connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);  // in progress, or queued
      m_fillers.push_back(fd);
    }
    pollfd p{m_fillers[0], POLLOUT, 0};
    if (poll(&p, 1, 1000) != 1)
      throw std::runtime_error("scripted server: cannot fill its accept queue");
  }

  void acceptLoop() {
    while (!m_gateOpen && !m_stopping) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    while (waitReadable(m_listen)) {
      const int fd = accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) continue;
      ++m_connections;
      m_threads.emplace_back([this, fd] { serve(fd); });
    }
  }

  void serve(int fd) {
    if (!m_greeting.empty() && send(fd, m_greeting.data(), m_greeting.size(), MSG_NOSIGNAL) < 0)
      return (void)close(fd);
    std::string in;
    char buf[16384];
    for (int onConnection = 0;; ++onConnection) {
      size_t headEnd;
      while ((headEnd = in.find("\r\n\r\n")) == std::string::npos) {
        if (!waitReadable(fd)) return (void)close(fd);
        const ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) return (void)close(fd);
        in.append(buf, static_cast<size_t>(n));
      }
      const std::string head = in.substr(0, headEnd + 4);
      size_t length = 0;
      if (const size_t at = head.find("Content-Length: "); at != std::string::npos)
        length = std::stoul(head.substr(at + 16));
      while (in.size() < head.size() + length) {
        if (!waitReadable(fd)) return (void)close(fd);
        const ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) return (void)close(fd);
        in.append(buf, static_cast<size_t>(n));
      }
      in.erase(0, head.size() + length);
      const int overall = m_requests++;
      {
        std::lock_guard lock(m_mutex);
        m_heads.push_back(head);
      }
      const std::optional<Reply> reply = m_script(onConnection, overall, head);
      if (!reply) return (void)close(fd);
      if (!reply->bytes.empty() && send(fd, reply->bytes.data(), reply->bytes.size(), MSG_NOSIGNAL) < 0)
        return (void)close(fd);
      if (reply->close) return (void)close(fd);
    }
  }

  Script m_script;
  const std::string m_greeting;
  std::atomic<bool> m_gateOpen;
  std::vector<int> m_fillers;  ///< a gated server's own connections that keep its queue full
  int m_listen = -1;
  uint16_t m_port = 0;
  std::atomic<bool> m_stopping{false};
  std::atomic<int> m_requests{0};
  std::atomic<int> m_connections{0};
  mutable std::mutex m_mutex;
  std::vector<std::string> m_heads;
  std::thread m_acceptor;
  std::vector<std::thread> m_threads;  ///< touched by the acceptor only, then joined
};

}  // namespace plumbline::test
