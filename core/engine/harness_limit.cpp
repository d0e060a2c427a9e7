#include "core/engine/harness_limit.h"

#include <sys/resource.h>

#include <cerrno>
#include <fstream>

namespace plumbline::engine {

HarnessLimit harnessLimitOf(int err) {
  switch (err) {
    case EMFILE: return HarnessLimit::FileDescriptors;
    case ENFILE: return HarnessLimit::SystemFiles;
    case EADDRNOTAVAIL: return HarnessLimit::EphemeralPorts;
    default: return HarnessLimit::None;
  }
}

namespace {

std::string fileDescriptorLimit() {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return "limit unknown";
  return rl.rlim_cur == RLIM_INFINITY ? "no limit set" : "limit " + std::to_string(rl.rlim_cur);
}

std::string firstLineOf(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  for (char& c : line)
    if (c == '\t') c = ' ';
  return line.empty() ? "unknown" : line;
}

}  // namespace

std::string describeHarnessLimit(HarnessLimit limit, uint32_t workerId) {
  const std::string where = " in worker " + std::to_string(workerId);
  switch (limit) {
    case HarnessLimit::FileDescriptors:
      return "file descriptors exhausted" + where + " (" + fileDescriptorLimit() + ")";
    case HarnessLimit::SystemFiles:
      // The table is the machine's, shared by every process: full when this worker opened one.
      return "the machine's file table full (fs.file-max " + firstLineOf("/proc/sys/fs/file-max") +
             ", shared by every process) when worker " + std::to_string(workerId) +
             " opened a connection";
    case HarnessLimit::EphemeralPorts:
      return "ephemeral ports exhausted" + where + " (net.ipv4.ip_local_port_range " +
             firstLineOf("/proc/sys/net/ipv4/ip_local_port_range") + ")";
    case HarnessLimit::LoopHeld:
      return "requests not written before their timeout" + where +
             ": its event loop was held (stopped, or without a CPU) after their connections were "
             "ready, so the target never got them";
    case HarnessLimit::None: break;
  }
  return "no harness limit";
}

std::string connectionShortfall(int64_t perWorker, int64_t maxInFlight, uint64_t limit) {
  if (limit <= kWorkerSpareDescriptors || static_cast<uint64_t>(perWorker) + kWorkerSpareDescriptors <= limit) return "";
  const uint64_t usable = limit - kWorkerSpareDescriptors;
  const uint64_t workers = (static_cast<uint64_t>(maxInFlight) + usable - 1) / usable;
  return "max_in_flight " + std::to_string(maxInFlight) + " allows " + std::to_string(perWorker) +
         " connections per worker, more than its descriptor limit " + std::to_string(limit) +
         " holds: beyond ~" + std::to_string(usable) + " open at once, requests fail as harness_limit "
         "(--workers " + std::to_string(workers) + " would hold them all)";
}

uint64_t raiseFileDescriptorLimit() {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return 0;
  if (rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    getrlimit(RLIMIT_NOFILE, &rl);
  }
  return rl.rlim_cur;
}

}  // namespace plumbline::engine
