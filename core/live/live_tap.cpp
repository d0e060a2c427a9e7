#include "core/live/live_tap.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <ostream>
#include <thread>

#include "core/live/live_protocol.h"
#include "core/live/live_stream.h"

namespace plumbline::live {

namespace {

/// A connected socket, or -1 with the reason in why.
int connectWithin(const std::string& path, double waitS, std::string& why) {
  if (path.size() >= sizeof(sockaddr_un::sun_path)) {
    why = "the path is too long for a Unix socket";
    return -1;
  }
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path, path.data(), path.size());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(waitS);
  for (;;) {
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      why = std::strerror(errno);
      return -1;
    }
    if (connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0) return fd;
    why = std::strerror(errno);
    close(fd);
    if (std::chrono::steady_clock::now() >= deadline) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

nlohmann::json line(const LiveMessage& m) {
  return nlohmann::json{
      {"type", protocol::liveFrameTypeName(static_cast<protocol::LiveFrameType>(m.index() + 1))},
      {"data", toJson(m)}};
}

}  // namespace

int liveTapCommand(const LiveTapOptions& opt, std::ostream& out, std::ostream& err) {
  std::string why;
  const int fd = connectWithin(opt.socketPath, opt.waitS, why);
  if (fd < 0) {
    err << "plumbline live-tap: cannot connect to " << opt.socketPath << ": " << why << '\n';
    return 2;
  }
  std::ofstream raw;
  if (!opt.rawPath.empty()) {
    raw.open(opt.rawPath, std::ios::binary | std::ios::trunc);
    if (!raw) {
      close(fd);
      err << "plumbline live-tap: --raw " << opt.rawPath << ": cannot write\n";
      return 2;
    }
  }
  LiveStreamReader reader;
  bool ended = false;
  char buf[65536];
  int code = 1;
  try {
    for (;;) {
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      if (raw) raw.write(buf, n);
      reader.feed(std::string_view(buf, static_cast<size_t>(n)));
      while (auto m = reader.next()) {
        ended = ended || std::holds_alternative<LiveEnd>(*m);
        out << line(*m).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
      }
      out.flush();
    }
    code = ended ? 0 : 1;
    if (!ended) err << "plumbline live-tap: the stream stopped before its end frame\n";
  } catch (const LiveProtocolError& e) {
    err << "plumbline live-tap: invalid stream: " << e.what() << '\n';
    code = 2;
  }
  close(fd);
  return code;
}

}  // namespace plumbline::live
