#include "core/net/arrival_stamp.h"

#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <string>

namespace plumbline::net {

bool enableArrivalStamps(int fd) {
  const int one = 1;
  return setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one) == 0;
}

namespace {
ssize_t recvStamped(int fd, char* buf, size_t len, int flags, int64_t& arrivalRealNs) {
  arrivalRealNs = -1;
  iovec iov{buf, len};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(timespec)) * 2];
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  const ssize_t n = recvmsg(fd, &msg, flags);
  if (n <= 0) return n;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SO_TIMESTAMPNS) continue;
    timespec ts{};
    std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
    arrivalRealNs = static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
  }
  return n;
}
}  // namespace

ssize_t recvWithArrival(int fd, char* buf, size_t len, int64_t& arrivalRealNs) {
  return recvStamped(fd, buf, len, 0, arrivalRealNs);
}

int64_t peekArrival(int fd, char* scratch, size_t scanLen, size_t* queued) {
  int64_t arrivalRealNs = -1;
  ssize_t n = 0;
  do {
    n = recvStamped(fd, scratch, scanLen, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT, arrivalRealNs);
  } while (n < 0 && errno == EINTR);
  if (queued != nullptr) *queued = n > 0 ? static_cast<size_t>(n) : 0;
  return n > 0 ? arrivalRealNs : -1;
}

int64_t arrivalOnMonotonic(int64_t arrivalRealNs, int64_t nowRealNs, int64_t nowMonoNs, int64_t maxAgeNs) {
  if (arrivalRealNs <= 0) return nowMonoNs;
  const int64_t age = nowRealNs - arrivalRealNs;
  if (age < 0 || age > maxAgeNs) return nowMonoNs;
  return nowMonoNs - age;
}

bool arrivalStampsFromEnv(const char* name, const char* value) {
  if (value == nullptr) return true;
  const std::string text(value);
  if (text == "1") return true;
  if (text == "0") return false;
  throw std::invalid_argument(std::string(name) + ": '" + text + "' is neither 0 nor 1");
}

}  // namespace plumbline::net
