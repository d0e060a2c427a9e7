#pragma once
// When received bytes reached this machine, not when the loop got round to reading them: the
// kernel stamps each segment on arrival (SO_TIMESTAMPNS), and a read returns the stamp of the
// last segment it took. A client that timestamps tokens this way does not add its own
// wake-up latency, or the work its loop was doing, to the latencies it reports.
#include <sys/types.h>

#include <cstddef>
#include <cstdint>

namespace plumbline::net {

/// Asks the kernel to stamp what arrives on `fd`; false if it refused (stamps then stay -1).
bool enableArrivalStamps(int fd);

/// recv() that also reports, in `arrivalRealNs`, when the last segment of what it read arrived
/// (CLOCK_REALTIME ns), or -1 when the kernel gave no stamp. Same return value and errno as recv.
ssize_t recvWithArrival(int fd, char* buf, size_t len, int64_t& arrivalRealNs);

/// When the last of the bytes queued on `fd` (and not yet read) arrived, CLOCK_REALTIME ns, or
/// -1 (nothing queued, no stamp, or more than `scanLen` bytes ahead of it: then the stamp is of
/// the segment holding byte `scanLen`). Reads nothing: MSG_PEEK with MSG_TRUNC walks the queue
/// without copying; `scratch` (`scanLen` bytes) is only there to make the request valid.
/// `queued`, when given, is set to how many bytes wait (at most `scanLen`; 0 when none or error).
int64_t peekArrival(int fd, char* scratch, size_t scanLen, size_t* queued = nullptr);

/// A kernel stamp (CLOCK_REALTIME) on CLOCK_MONOTONIC, given both clocks read now. The two
/// clocks differ by an offset that only a clock step changes, so the conversion is exact
/// unless the wall clock was set in between; a stamp that is missing, after now, or older
/// than `maxAgeNs` (a step, or a stamp of something else) gives nowMonoNs: the read instant.
int64_t arrivalOnMonotonic(int64_t arrivalRealNs, int64_t nowRealNs, int64_t nowMonoNs, int64_t maxAgeNs);

/// Benchmark-only switch `name` (PLUMBLINE_ARRIVAL_STAMPS): unset or "1" on, "0" off (the
/// read instant instead, to measure what stamps remove). Throws std::invalid_argument naming
/// `name` for any other value.
bool arrivalStampsFromEnv(const char* name, const char* value);

}  // namespace plumbline::net
