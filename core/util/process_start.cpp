#include "core/util/process_start.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <string>

namespace plumbline::util {

namespace {

int64_t clockNs(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace

std::optional<int64_t> statStartTicks(const char* line, int64_t size) {
  int64_t i = size - 1;
  while (i >= 0 && line[i] != ')') --i;
  if (i < 0) return std::nullopt;
  // After "pid (comm)" come fields 3 (state) … 22 (starttime), separated by single spaces.
  int field = 2;
  ++i;
  while (i < size && field < 22) {
    if (line[i] == ' ') ++field;
    ++i;
  }
  if (field != 22) return std::nullopt;
  int64_t ticks = 0;
  int64_t digits = 0;
  for (; i < size && line[i] >= '0' && line[i] <= '9' && digits < 19; ++i, ++digits)
    ticks = ticks * 10 + (line[i] - '0');
  if (digits == 0 || (i < size && line[i] != ' ' && line[i] != '\n')) return std::nullopt;
  return ticks;
}

std::optional<int64_t> processStartWallNs(int64_t pid) {
  if (pid <= 0) return std::nullopt;
  const std::string path = "/proc/" + std::to_string(pid) + "/stat";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  char buf[1024];
  const ssize_t n = ::read(fd, buf, sizeof buf);
  ::close(fd);
  if (n <= 0) return std::nullopt;
  const auto ticks = statStartTicks(buf, n);
  const long hz = sysconf(_SC_CLK_TCK);
  if (!ticks || hz <= 0) return std::nullopt;
  const int64_t sinceBootNs = *ticks / hz * 1'000'000'000 + *ticks % hz * 1'000'000'000 / hz;
  return clockNs(CLOCK_REALTIME) - clockNs(CLOCK_BOOTTIME) + sinceBootNs;
}

}  // namespace plumbline::util
