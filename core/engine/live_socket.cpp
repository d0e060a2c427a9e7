#include "core/engine/live_socket.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/engine/live_server.h"

namespace plumbline::engine {

namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw LiveServerError("--live " + path + ": " + why);
}

sockaddr_un addressOf(const std::string& path) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path, path.data(), path.size());
  return a;
}

/// True if a process accepts connections at path.
bool someoneListens(const sockaddr_un& a) {
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const bool ok = connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0;
  close(fd);
  return ok;
}

}  // namespace

int listenOnUnixSocket(const std::string& path) {
  if (path.empty()) refuse("''", "the socket path is empty");
  if (path.size() >= sizeof(sockaddr_un::sun_path))
    refuse(path, "the path is " + std::to_string(path.size()) + " bytes; a Unix socket path must be under " +
                     std::to_string(sizeof(sockaddr_un::sun_path)));
  const sockaddr_un a = addressOf(path);
  struct stat st{};
  if (lstat(path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) refuse(path, "a file that is not a socket exists there; not replacing it");
    if (someoneListens(a)) refuse(path, "another process is serving this socket");
    if (unlink(path.c_str()) != 0) refuse(path, std::string("cannot remove the stale socket: ") + std::strerror(errno));
  }
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) refuse(path, std::string("cannot create a socket: ") + std::strerror(errno));
  if (bind(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0) {
    const int err = errno;
    close(fd);
    refuse(path, std::string("cannot listen there: ") + std::strerror(err) +
                     (err == ENOENT ? " (its directory does not exist)" : ""));
  }
  if (listen(fd, 64) != 0) {
    const int err = errno;
    close(fd);
    unlink(path.c_str());
    refuse(path, std::string("cannot listen there: ") + std::strerror(err));
  }
  return fd;
}

}  // namespace plumbline::engine
