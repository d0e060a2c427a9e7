#pragma once
// A raw HTTP/1.1 client on one kept-alive connection to a local mock: requests written whole
// (or in parts), replies read by their Content-Length. For the tests that need to know which
// connection a request travels on.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>

namespace plumbline::test {

class KeepAliveClient {
 public:
  explicit KeepAliveClient(const std::string& baseUrl) {
    const int port = std::stoi(baseUrl.substr(baseUrl.rfind(':') + 1));
    m_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    if (m_fd < 0 || connect(m_fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) m_fd = -1;
  }
  ~KeepAliveClient() {
    if (m_fd >= 0) close(m_fd);
  }
  KeepAliveClient(const KeepAliveClient&) = delete;
  KeepAliveClient& operator=(const KeepAliveClient&) = delete;
  bool ok() const { return m_fd >= 0; }
  /// A POST to /v1/completions with `body`.
  static std::string request(const std::string& body) {
    return "POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
           "Content-Length: " +
           std::to_string(body.size()) + "\r\n\r\n" + body;
  }
  bool send(const std::string& body) { return sendRaw(request(body)); }
  /// Writes `bytes` as they are (a request, a part of one, or several).
  bool sendRaw(const std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = write(m_fd, bytes.data() + done, bytes.size() - done);
      if (n <= 0) return false;
      done += static_cast<size_t>(n);
    }
    return true;
  }
  /// The status line, headers and body of the next reply (bytes after it are kept for the
  /// next call: pipelined replies), or "" when none came within 5 s.
  std::string reply() {
    std::string& in = m_in;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    for (;;) {
      const size_t head = in.find("\r\n\r\n");
      if (head != std::string::npos) {
        const size_t cl = in.find("Content-Length: ");
        if (cl != std::string::npos && cl < head) {
          const size_t need = head + 4 + std::stoul(in.substr(cl + 16));
          if (in.size() >= need) {
            std::string one = in.substr(0, need);
            in.erase(0, need);
            return one;
          }
        }
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          until - std::chrono::steady_clock::now());
      pollfd p{m_fd, POLLIN, 0};
      if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0) return "";
      char buf[4096];
      const ssize_t n = read(m_fd, buf, sizeof buf);
      if (n <= 0) return "";
      in.append(buf, static_cast<size_t>(n));
    }
  }

 private:
  int m_fd = -1;
  std::string m_in;  ///< read but not yet returned
};

}  // namespace plumbline::test
