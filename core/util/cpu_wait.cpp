#include "core/util/cpu_wait.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>

namespace plumbline::util {

CpuWait::CpuWait() {
  m_fd = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  if (m_fd >= 0 && totalNs() < 0) {  // present but not what we read: say "unknown" from now on
    ::close(m_fd);
    m_fd = -1;
  }
}

CpuWait::~CpuWait() {
  if (m_fd >= 0) ::close(m_fd);
}

int64_t CpuWait::totalNs() const {
  if (m_fd < 0) return -1;
  char buf[128];
  const ssize_t n = ::pread(m_fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return -1;
  return parseWaitNs(buf, static_cast<long>(n));
}

int64_t CpuWait::parseWaitNs(const char* text, long length) {
  if (text == nullptr || length <= 0) return -1;
  // "<digits> <digits> <digits>\n": the second number is the wait.
  long i = 0;
  const auto number = [&](int64_t& out) {
    const long start = i;
    out = 0;
    for (; i < length && text[i] >= '0' && text[i] <= '9'; ++i) {
      if (out > (INT64_MAX - 9) / 10) return false;
      out = out * 10 + (text[i] - '0');
    }
    return i > start;
  };
  int64_t onCpu = 0, waited = 0, slices = 0;
  if (!number(onCpu) || i >= length || text[i++] != ' ') return -1;
  if (!number(waited) || i >= length || text[i++] != ' ') return -1;
  if (!number(slices)) return -1;
  if (i < length && text[i] != '\n') return -1;
  return waited;
}

}  // namespace plumbline::util
