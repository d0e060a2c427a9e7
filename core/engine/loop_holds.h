#pragma once
// The spans in which a worker's event loop ran nothing else, kept to mark the requests in flight.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <utility>

namespace plumbline::engine {

/// A worker's event-loop holds as its loop-delay probe finds them: from when the probe was due to
/// when it ran, the loop busy or the worker without a CPU. Bytes that arrived meanwhile wait in
/// the socket, and one read takes them all with the arrival time of the last (the kernel stamps
/// a TCP read with its last segment's), so a request in flight across a hold can have its TTFT,
/// inter-token gaps and end pushed late by up to the hold. Holds do not overlap and come in order.
class LoopHolds {
 public:
  static constexpr int64_t kFloorNs = 1'000'000;  ///< shorter holds are not kept

  /// A hold over [startNs, endNs] of run time; ignored when shorter than kFloorNs.
  void add(int64_t startNs, int64_t endNs);
  /// The longest hold that overlapped [fromNs, toNs]; 0 when none did.
  int64_t longestOverlapping(int64_t fromNs, int64_t toNs) const;
  /// Forgets the holds that ended before ns.
  void forgetBefore(int64_t ns);
  size_t size() const { return m_holds.size(); }

 private:
  std::deque<std::pair<int64_t, int64_t>> m_holds;  ///< (start, end), in order
};

}  // namespace plumbline::engine
