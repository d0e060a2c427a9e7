#include "core/net/socket_state.h"

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>

namespace plumbline::net {

int connectError(int fd) {
  int err = 0;
  socklen_t len = sizeof err;
  if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
  return err;
}

bool connectSettled(int fd) {
  pollfd p{fd, POLLOUT, 0};
  return poll(&p, 1, 0) == 1 && (p.revents & (POLLOUT | POLLERR | POLLHUP)) != 0;
}

bool readWaiting(int fd) {
  pollfd p{fd, POLLIN, 0};
  return poll(&p, 1, 0) == 1 && (p.revents & (POLLIN | POLLERR | POLLHUP)) != 0;
}

}  // namespace plumbline::net
