#pragma once
// Finding a run's own child processes (workers, the embedded mock) for tests that kill one.
#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <sstream>
#include <string>
#include <vector>

namespace plumbline::test {

/// The bytes of a /proc file, or what could be read before the process went away ("" if it was
/// gone). With plain read(): libstdc++'s filebuf throws out of an istreambuf_iterator when a
/// read fails (ESRCH once the process has exited), which ended a watcher thread with terminate.
inline std::string readProcFile(const std::string& path) {
  std::string out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char buffer[4096];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    out.append(buffer, static_cast<size_t>(got));
  }
  ::close(fd);
  return out;
}

/// PIDs listed in /proc/PID/task/PID/children (none once `pid` has gone).
inline std::vector<pid_t> childPids(pid_t pid) {
  std::istringstream list(
      readProcFile("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children"));
  std::vector<pid_t> out;
  pid_t child = 0;
  while (list >> child) out.push_back(child);
  return out;
}

/// PIDs of the processes whose parent is `parent` and whose command line contains `needle`.
inline std::vector<pid_t> childrenOf(pid_t parent, const std::string& needle) {
  std::vector<pid_t> out;
  for (const pid_t pid : childPids(parent)) {
    std::string line = readProcFile("/proc/" + std::to_string(pid) + "/cmdline");
    std::replace(line.begin(), line.end(), '\0', ' ');
    if (line.find(needle) != std::string::npos) out.push_back(pid);
  }
  return out;
}

}  // namespace plumbline::test
