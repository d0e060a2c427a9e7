#include "core/net/socket_state.h"

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>

namespace plumbline::net {
namespace {
/// Whether poll() says at once that `fd` is ready for `wanted`, or has failed or hung up.
bool readyNow(int fd, short wanted) {
  pollfd p{fd, wanted, 0};
  return poll(&p, 1, 0) == 1 && (p.revents & (wanted | POLLERR | POLLHUP)) != 0;
}
}  // namespace

int connectError(int fd) {
  int err = 0;
  socklen_t len = sizeof err;
  if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
  return err;
}

bool connectSettled(int fd) { return readyNow(fd, POLLOUT); }

bool readWaiting(int fd) { return readyNow(fd, POLLIN); }

}  // namespace plumbline::net
