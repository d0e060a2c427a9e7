#pragma once
// The embedded target's accept shortages, as the run sees them. An `embedded` mock is the
// harness's own child process: when it runs out of descriptors it stops accepting, and the
// requests waiting on it time out with no reply. That is the harness's limit, not the server's,
// so those requests become harness_limit failures and the verdict names the mock's limit.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/metrics/request_record.h"

namespace plumbline::mock {
struct AcceptShortage;
}

namespace plumbline::engine {

class EmbeddedShortageWatch {
 public:
  /// `shortage` is the embedded mock's shared board; null (a URL target) makes every call a no-op.
  explicit EmbeddedShortageWatch(const mock::AcceptShortage* shortage = nullptr)
      : m_shortage(shortage) {}

  /// The run's t0 on CLOCK_MONOTONIC: the mock stamps its pauses on that clock.
  void setT0(int64_t t0MonoNs) { m_t0 = t0MonoNs; }
  /// Reads the mock's counters at `nowNs` (run time). Returns a live notice the first time it
  /// ran out ("the embedded mock ran out of file descriptors (limit 256) at 1.2 s..."), else "".
  std::string poll(int64_t nowNs);
  /// Whether the mock was pausing accepts at any time in [fromNs, toNs].
  bool overlaps(int64_t fromNs, int64_t toNs) const;
  /// A request that timed out with no reply byte while the mock could not accept is the
  /// harness's failure: its class becomes harness_limit. Returns true when it did.
  bool reclassify(metrics::RequestRecord& r);
  /// The verdict's reason; empty when the mock never ran out.
  std::string reason() const;
  uint64_t reclassified() const { return m_reclassified; }

 private:
  std::string whatRanOut() const;

  const mock::AcceptShortage* m_shortage;
  int64_t m_t0 = 0;
  uint64_t m_seenPauses = 0;
  int64_t m_lastPollNs = 0;
  std::vector<std::pair<int64_t, int64_t>>
      m_spans;  ///< [from, to] run times the mock paused in, in order
  uint64_t m_reclassified = 0;
};

}  // namespace plumbline::engine
