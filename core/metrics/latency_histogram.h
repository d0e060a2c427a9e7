#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace plumbline::metrics {

/// Log-linear histogram of non-negative nanosecond values, HDR-style: each power of two is
/// split into kSubBuckets linear buckets, so any recorded value is reported within a
/// relative error of 1/kSubBuckets (< 1%). Constant memory, mergeable, serialisable.
/// Values below 256 ns are kept exactly; negative values clamp to 0 and values above
/// kMaxValue (~73 min) clamp to kMaxValue. min/max/mean are of the clamped values.
/// The bucket array is allocated on the first record, so an unused histogram is cheap.
class LatencyHistogram {
 public:
  static constexpr int kSubBucketBits = 7;  ///< 128 sub-buckets per power of two
  static constexpr int64_t kSubBuckets = int64_t{1} << kSubBucketBits;
  static constexpr int kMaxValueBits = 42;
  static constexpr int64_t kMaxValue = (int64_t{1} << kMaxValueBits) - 1;
  /// Buckets 0..255 hold one value each; every further power of two adds kSubBuckets.
  static constexpr size_t kBucketCount =
      static_cast<size_t>((kMaxValueBits - kSubBucketBits + 1) * kSubBuckets);
  static constexpr uint8_t kFormatVersion = 1;

  LatencyHistogram();

  void record(int64_t valueNs);
  void recordN(int64_t valueNs, uint64_t count);
  void merge(const LatencyHistogram& other);
  void clear();

  uint64_t count() const { return m_count; }
  bool empty() const { return m_count == 0; }
  int64_t min() const;  ///< 0 when empty
  int64_t max() const;  ///< 0 when empty
  double mean() const;
  /// Value at quantile q in [0, 1] (q = 0.99 for p99). 0 when empty. Nearest rank: the
  /// bucket holding the ceil(q * count)-th smallest value, reported as its midpoint clamped
  /// to [min, max]; q <= 0 gives min, q >= 1 gives max.
  int64_t percentile(double q) const;

  /// Compact binary form (sparse bucket list with a version byte), for the database and frames.
  std::string serialize() const;
  /// Throws std::invalid_argument naming the problem on malformed input.
  static LatencyHistogram deserialize(const std::string& bytes);

  /// Non-empty buckets as (representative value, count), ascending; for CDFs.
  std::vector<std::pair<int64_t, uint64_t>> buckets() const;

  bool operator==(const LatencyHistogram& other) const;

 private:
  __extension__ typedef unsigned __int128 Sum;  // v < 2^42, count < 2^64: no overflow

  static size_t bucketIndex(int64_t clampedNs);
  static int64_t bucketLowest(size_t index);
  static int64_t bucketMidpoint(size_t index);
  int64_t representative(size_t index) const;
  /// [first, end) of the buckets that can be non-empty: those of min to max ({0, 0} if empty).
  std::pair<size_t, size_t> usedBuckets() const;
  void ensureCounts();
  /// first and last: the lowest and highest non-empty bucket read.
  void validateDecoded(size_t first, size_t last) const;

  std::vector<uint64_t> m_counts;  ///< empty until the first record, then kBucketCount
  uint64_t m_count = 0;
  int64_t m_min;
  int64_t m_max;
  Sum m_sum = 0;
};

}  // namespace plumbline::metrics
