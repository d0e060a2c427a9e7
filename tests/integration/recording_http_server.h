#pragma once
// A tiny HTTP/1.1 server on 127.0.0.1 for integration tests that need to see what a client
// SENT: it records every request's header block and answers each POST with a fixed,
// non-streamed chat completion (keep-alive, Content-Length), or, made with Reply::EchoKey401, with
// a 401 whose body echoes the Authorization header's key as sent, JSON-escaped ('/' as "\/") and
// percent-encoded, as careless servers do. One thread per connection; stop() (or the destructor)
// closes the listener and every connection and joins them.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace plumbline::test {

class RecordingHttpServer {
 public:
  enum class Reply { Completion, EchoKey401 };
  explicit RecordingHttpServer(Reply reply = Reply::Completion) : m_reply(reply) {
    m_listen = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    if (m_listen < 0 || bind(m_listen, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        listen(m_listen, 64) != 0)
      throw std::runtime_error("recording server: cannot listen on 127.0.0.1");
    socklen_t len = sizeof addr;
    getsockname(m_listen, reinterpret_cast<sockaddr*>(&addr), &len);
    m_port = ntohs(addr.sin_port);
    m_acceptor = std::thread([this] { acceptLoop(); });
  }
  ~RecordingHttpServer() { stop(); }
  RecordingHttpServer(const RecordingHttpServer&) = delete;
  RecordingHttpServer& operator=(const RecordingHttpServer&) = delete;

  std::string baseUrl() const { return "http://127.0.0.1:" + std::to_string(m_port); }

  /// Every request's header block (request line included), in arrival order.
  std::vector<std::string> requests() const {
    std::lock_guard lock(m_mutex);
    return m_requests;
  }
  /// When each request's header block was whole here (CLOCK_REALTIME ns), in the same order.
  std::vector<int64_t> arrivalsWallNs() const {
    std::lock_guard lock(m_mutex);
    return m_arrivalsWallNs;
  }

  void stop() {
    if (m_stopping.exchange(true)) return;
    m_acceptor.join();
    std::vector<std::thread> threads;
    {
      std::lock_guard lock(m_mutex);
      threads.swap(m_connections);
    }
    for (auto& t : threads) t.join();
    close(m_listen);
  }

 private:
  void acceptLoop() {
    while (!m_stopping) {
      pollfd p{m_listen, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) continue;
      const int fd = accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) continue;
      std::lock_guard lock(m_mutex);
      m_connections.emplace_back([this, fd] { serve(fd); });
    }
  }

  /// Reads until `buf` holds `want` bytes (or a header end when want == 0); false at EOF/stop.
  bool readMore(int fd, std::string& buf) {
    while (!m_stopping) {
      pollfd p{fd, POLLIN, 0};
      const int r = poll(&p, 1, 50);
      if (r == 0) continue;
      char chunk[4096];
      const ssize_t n = r > 0 ? read(fd, chunk, sizeof chunk) : -1;
      if (n <= 0) return false;
      buf.append(chunk, static_cast<size_t>(n));
      return true;
    }
    return false;
  }

  void serve(int fd) {
    std::string buf;
    for (;;) {
      size_t headerEnd;
      while ((headerEnd = buf.find("\r\n\r\n")) == std::string::npos)
        if (!readMore(fd, buf)) return (void)close(fd);
      timespec now{};
      clock_gettime(CLOCK_REALTIME, &now);
      const std::string head = buf.substr(0, headerEnd);
      size_t bodyLen = 0;
      for (const char* name : {"\r\nContent-Length:", "\r\ncontent-length:"}) {
        const size_t at = head.find(name);
        if (at != std::string::npos) bodyLen = std::strtoul(head.c_str() + at + std::string(name).size(), nullptr, 10);
      }
      while (buf.size() < headerEnd + 4 + bodyLen)
        if (!readMore(fd, buf)) return (void)close(fd);
      buf.erase(0, headerEnd + 4 + bodyLen);
      {
        std::lock_guard lock(m_mutex);
        m_requests.push_back(head);
        m_arrivalsWallNs.push_back(int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec);
      }
      const bool echo = m_reply == Reply::EchoKey401;
      const std::string body =
          echo
              ? echoedKeyBody(head)
              : R"({"id":"r","object":"chat.completion","model":"m","choices":[{"index":0,)"
                R"("message":{"role":"assistant","content":"hello there"},"finish_reason":"stop"}],)"
                R"("usage":{"prompt_tokens":8,"completion_tokens":2,"total_tokens":10}})";
      const std::string reply =
          std::string(echo ? "HTTP/1.1 401 Unauthorized" : "HTTP/1.1 200 OK") +
          "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
          "\r\n\r\n" + body;
      if (write(fd, reply.data(), reply.size()) != static_cast<ssize_t>(reply.size())) return (void)close(fd);
    }
  }

  /// {"error": "bad key KEY", "json": "KEY with / as \/", "query": "KEY percent-encoded",
  /// "quote": "KEY as Python's urllib.parse.quote writes it (keeps '/'), hex in lower case"}.
  static std::string echoedKeyBody(const std::string& head) {
    const std::string field = "\r\nAuthorization: Bearer ";
    const size_t at = head.find(field);
    std::string key;
    if (at != std::string::npos)
      key = head.substr(at + field.size(), head.find("\r\n", at + 2) - at - field.size());
    std::string json, percent, quote;
    for (const char c : key) {
      if (c == '/') json += '\\';
      json += c;
      if (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_') {
        percent += c;
        quote += c;
      } else {
        char hex[4];
        std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
        percent += hex;
        if (c == '/') {
          quote += c;
        } else {
          std::snprintf(hex, sizeof hex, "%%%02x", static_cast<unsigned char>(c));
          quote += hex;
        }
      }
    }
    return R"({"error": "bad key )" + key + R"(", "json": ")" + json + R"(", "query": ")" +
           percent + R"(", "quote": ")" + quote + R"("})";
  }

  Reply m_reply = Reply::Completion;
  int m_listen = -1;
  uint16_t m_port = 0;
  std::atomic<bool> m_stopping{false};
  std::thread m_acceptor;
  mutable std::mutex m_mutex;
  std::vector<std::thread> m_connections;
  std::vector<std::string> m_requests;
  std::vector<int64_t> m_arrivalsWallNs;
};

}  // namespace plumbline::test
