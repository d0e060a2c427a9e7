#include "core/mock/accept_shortage.h"

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace plumbline::mock {

namespace {
[[noreturn]] void throwShortageBoardError(const char* what) {
  throw std::runtime_error(std::string("accept shortage board: ") + what + ": " +
                           std::strerror(errno));
}

int64_t mockSoftFileLimit() {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return -1;
  return static_cast<int64_t>(rl.rlim_cur);
}
}  // namespace

void AcceptShortage::record(int err, uint64_t waiting, int64_t nowNs) {
  int64_t none = -1;
  // The first pause says what ran out and at which limit; the loops race for it only once.
  if (firstNs.compare_exchange_strong(none, nowNs, std::memory_order_relaxed)) {
    firstErrno.store(err, std::memory_order_relaxed);
    fdLimit.store(mockSoftFileLimit(), std::memory_order_relaxed);
  }
  uint64_t most = mostWaiting.load(std::memory_order_relaxed);
  while (waiting > most &&
         !mostWaiting.compare_exchange_weak(most, waiting, std::memory_order_relaxed)) {
  }
  lastNs.store(nowNs, std::memory_order_relaxed);
  pauses.fetch_add(1, std::memory_order_release);  // last: a reader that sees it sees the rest
}

SharedAcceptShortage::SharedAcceptShortage() {
  m_fd = memfd_create("plumbline-accept-shortage", MFD_CLOEXEC);
  if (m_fd < 0) throwShortageBoardError("memfd_create");
  if (ftruncate(m_fd, sizeof(AcceptShortage)) != 0) {
    const int err = errno;
    close(m_fd);
    errno = err;
    throwShortageBoardError("ftruncate");
  }
  map();
  new (m_shared) AcceptShortage{};
}

SharedAcceptShortage::SharedAcceptShortage(int fd) : m_fd(fd) { map(); }

void SharedAcceptShortage::map() {
  void* p = mmap(nullptr, sizeof(AcceptShortage), PROT_READ | PROT_WRITE, MAP_SHARED, m_fd, 0);
  if (p == MAP_FAILED) {
    const int err = errno;
    close(m_fd);
    errno = err;
    throwShortageBoardError("mmap");
  }
  m_shared = static_cast<AcceptShortage*>(p);
}

SharedAcceptShortage::~SharedAcceptShortage() {
  munmap(m_shared, sizeof(AcceptShortage));
  close(m_fd);
}

}  // namespace plumbline::mock
