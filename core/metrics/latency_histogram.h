#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace plumbline::metrics {

/// Log-linear histogram of non-negative nanosecond values, HDR-style: each power of two is
/// split into kSubBuckets linear buckets, so any recorded value is reported within a
/// relative error of 1/kSubBuckets (< 1%). Constant memory, mergeable, serialisable.
/// Values below 1 µs land in exact 1 ns... (see .cpp); values above ~73 min clamp to the max.
class LatencyHistogram {
 public:
  static constexpr int kSubBucketBits = 7;  ///< 128 sub-buckets per power of two
  LatencyHistogram();

  void record(int64_t valueNs);
  void recordN(int64_t valueNs, uint64_t count);
  void merge(const LatencyHistogram& other);
  void clear();

  uint64_t count() const { return m_count; }
  int64_t min() const;
  int64_t max() const;
  double mean() const;
  /// Value at quantile q in [0, 1] (q = 0.99 for p99). 0 when empty.
  int64_t percentile(double q) const;

  /// Compact binary form (sparse bucket list with a version byte), for the database and frames.
  std::string serialize() const;
  /// Throws std::invalid_argument naming the problem on malformed input.
  static LatencyHistogram deserialize(const std::string& bytes);

  /// Non-empty buckets as (representative value, count), ascending; for CDFs.
  std::vector<std::pair<int64_t, uint64_t>> buckets() const;

  bool operator==(const LatencyHistogram& other) const;

 private:
  std::vector<uint64_t> m_counts;
  uint64_t m_count = 0;
  int64_t m_min;
  int64_t m_max;
  long double m_sum = 0;
};

}  // namespace plumbline::metrics
