#pragma once
// How late a mock loop wrote its streamed tokens, against the instants they were due
// (`GET /mock/timing`): the reference's own error, so that a benchmark of a client's timing
// can tell the mock's µs from the client's.
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/metrics/latency_histogram.h"

namespace plumbline::mock {

/// One loop's lateness histograms (written by that loop, read by any, under a lock that is
/// never contended on the loop's side but by a reader of /mock/timing).
class TokenLateness {
 public:
  /// A token written `lateNs` after it was due (negative: early, kept as 0 and counted).
  void record(bool first, int64_t lateNs);
  /// A stream's first token, its request received at `receivedNs` (its arrival, or its read:
  /// MockLoop::handleCompletion) and written at `writtenNs` (CLOCK_MONOTONIC),
  /// kept for `GET /mock/timing/requests` (the first kMaxFirstWrites of the server's life).
  void recordFirstWrite(int64_t receivedNs, int64_t writtenNs);
  /// Adds this loop's histograms to `first` and `later`, and its early writes to `early`.
  void mergeInto(metrics::LatencyHistogram& first, metrics::LatencyHistogram& later, uint64_t& early) const;
  /// Appends this loop's first writes to `out`.
  void appendFirstWrites(std::vector<std::pair<int64_t, int64_t>>& out) const;

  static constexpr size_t kMaxFirstWrites = size_t{1} << 18;  ///< 4 MiB a loop at most

 private:
  mutable std::mutex m_mutex;
  metrics::LatencyHistogram m_first;  ///< each stream's first token
  metrics::LatencyHistogram m_later;  ///< every later token
  uint64_t m_early = 0;
  std::vector<std::pair<int64_t, int64_t>> m_firstWrites;  ///< (received, written)
};

/// `{"first_token_late_us":{count,p50,p90,p99,max},"later_token_late_us":{...},"early_writes":n}`
/// (µs with three decimals); "late" is when the write began minus due, the due instant counted from
/// when the request arrived (or, for a connection's first request, was read).
std::string tokenLatenessJson(const metrics::LatencyHistogram& first, const metrics::LatencyHistogram& later,
                              uint64_t early);

/// One line per stream's first token, ordered by arrival: "RECEIVED_NS WRITTEN_NS\n"
/// (CLOCK_MONOTONIC), for a benchmark joining them with its client's own records.
std::string firstWritesText(std::vector<std::pair<int64_t, int64_t>> writes);

}  // namespace plumbline::mock
