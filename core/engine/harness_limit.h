#pragma once
#include <cstdint>
#include <string>

namespace plumbline::engine {

/// Limits of the machine that stop the harness itself from getting a request to the target. A
/// request that hits one is the harness's failure, not the server's: it is recorded with class
/// harness_limit, it is not counted as offered to the target, and the verdict names the limit
/// (issue 6, "Scale" and "Honesty").
enum class HarnessLimit : uint8_t {
  None = 0,
  FileDescriptors = 1,  ///< this process's RLIMIT_NOFILE (EMFILE)
  SystemFiles = 2,      ///< the system-wide file table (ENFILE, fs.file-max)
  EphemeralPorts = 3,   ///< no local port left for a new connection (EADDRNOTAVAIL)
  /// The worker's event loop was held (stopped, or without a CPU) past a request's timeout
  /// after its connection was ready and before it could write the request.
  LoopHeld = 4,
};

/// Which limit an errno from socket() or connect() means, if any.
HarnessLimit harnessLimitOf(int err);

/// One line naming the limit, where, and its size, e.g.
/// "file descriptors exhausted in worker 2 (limit 20000)" (the verdict's reason, once per
/// worker and limit).
std::string describeHarnessLimit(HarnessLimit limit, uint32_t workerId);

/// Descriptors a worker needs besides its connections (control socket, epoll, log...).
inline constexpr uint64_t kWorkerSpareDescriptors = 64;

/// When `perWorker` connections cannot fit in a worker's descriptor limit `limit`: a note
/// saying how many workers would; empty when they fit.
std::string connectionShortfall(int64_t perWorker, int64_t maxInFlight, uint64_t limit);

/// Raises this process's soft RLIMIT_NOFILE to its hard limit (workers hold one descriptor
/// per connection); returns the soft limit now in force.
uint64_t raiseFileDescriptorLimit();

}  // namespace plumbline::engine
