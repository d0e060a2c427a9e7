#include "core/metrics/latency_histogram.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace plumbline::metrics {

namespace {

constexpr int64_t kNoMin = std::numeric_limits<int64_t>::max();

int64_t clampValue(int64_t v) { return std::clamp<int64_t>(v, 0, LatencyHistogram::kMaxValue); }

void putVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

/// Reads the serialised form; every failure names what was being read.
class BlobReader {
 public:
  explicit BlobReader(const std::string& bytes) : m_bytes(bytes) {}

  uint8_t byte(const char* what) {
    if (m_pos >= m_bytes.size()) fail("truncated", what);
    return static_cast<uint8_t>(m_bytes[m_pos++]);
  }
  uint64_t varint(const char* what) {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      uint8_t b = byte(what);
      if (shift == 63 && b > 1) fail("varint overflows 64 bits", what);
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return v;
    }
    fail("varint longer than 10 bytes", what);
  }
  bool atEnd() const { return m_pos == m_bytes.size(); }

  [[noreturn]] static void fail(const std::string& problem, const char* what) {
    throw std::invalid_argument("latency histogram: " + problem + " (" + what + ")");
  }

 private:
  const std::string& m_bytes;
  size_t m_pos = 0;
};

}  // namespace

LatencyHistogram::LatencyHistogram() : m_min(kNoMin), m_max(0) {}

size_t LatencyHistogram::bucketIndex(int64_t clampedNs) {
  auto u = static_cast<uint64_t>(clampedNs);
  int msb = 63 - __builtin_clzll(u | 1);
  int shift = std::max(0, msb - kSubBucketBits);
  // Below 2^8 shift is 0 and the index is the value; above, (u >> shift) is in [128, 256).
  return static_cast<size_t>(shift) * kSubBuckets + static_cast<size_t>(u >> shift);
}

int64_t LatencyHistogram::bucketLowest(size_t index) {
  if (index < 2 * kSubBuckets) return static_cast<int64_t>(index);
  auto shift = static_cast<int>(index / kSubBuckets) - 1;
  auto sub = static_cast<int64_t>(index) - int64_t{shift} * kSubBuckets;
  return sub << shift;
}

int64_t LatencyHistogram::bucketMidpoint(size_t index) {
  if (index < 2 * kSubBuckets) return static_cast<int64_t>(index);
  auto shift = static_cast<int>(index / kSubBuckets) - 1;
  return bucketLowest(index) + ((int64_t{1} << shift) >> 1);
}

int64_t LatencyHistogram::representative(size_t index) const {
  return std::clamp(bucketMidpoint(index), m_min, m_max);
}

std::pair<size_t, size_t> LatencyHistogram::usedBuckets() const {
  if (m_count == 0) return {0, 0};
  return {bucketIndex(m_min), bucketIndex(m_max) + 1};
}

void LatencyHistogram::ensureCounts() {
  if (m_counts.empty()) m_counts.assign(kBucketCount, 0);
}

void LatencyHistogram::record(int64_t valueNs) { recordN(valueNs, 1); }

void LatencyHistogram::recordN(int64_t valueNs, uint64_t count) {
  if (count == 0) return;
  ensureCounts();
  int64_t v = clampValue(valueNs);
  m_counts[bucketIndex(v)] += count;
  m_count += count;
  m_min = std::min(m_min, v);
  m_max = std::max(m_max, v);
  m_sum += static_cast<Sum>(v) * count;
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  if (other.m_count == 0) return;
  ensureCounts();
  const auto [first, end] = other.usedBuckets();
  for (size_t i = first; i < end; ++i) m_counts[i] += other.m_counts[i];
  m_count += other.m_count;
  m_min = std::min(m_min, other.m_min);
  m_max = std::max(m_max, other.m_max);
  m_sum += other.m_sum;
}

void LatencyHistogram::clear() {
  // Keeps the bucket array: a histogram cleared every stats period or window is not
  // reallocated and zeroed whole each time, only its used range is.
  const auto [first, end] = usedBuckets();
  std::fill(m_counts.begin() + static_cast<std::ptrdiff_t>(first), m_counts.begin() + static_cast<std::ptrdiff_t>(end), 0);
  m_count = 0;
  m_min = kNoMin;
  m_max = 0;
  m_sum = 0;
}

int64_t LatencyHistogram::min() const { return m_count ? m_min : 0; }
int64_t LatencyHistogram::max() const { return m_count ? m_max : 0; }

double LatencyHistogram::mean() const {
  if (m_count == 0) return 0;
  return static_cast<double>(static_cast<long double>(m_sum) / static_cast<long double>(m_count));
}

int64_t LatencyHistogram::percentile(double q) const {
  if (m_count == 0) return 0;
  if (!(q > 0)) return m_min;  // also catches NaN
  if (q >= 1) return m_max;
  auto rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(m_count)));
  rank = std::clamp<uint64_t>(rank, 1, m_count);
  uint64_t seen = 0;
  const auto [first, end] = usedBuckets();
  for (size_t i = first; i < end; ++i) {
    seen += m_counts[i];
    if (seen >= rank) return representative(i);
  }
  return m_max;
}

std::vector<std::pair<int64_t, uint64_t>> LatencyHistogram::buckets() const {
  std::vector<std::pair<int64_t, uint64_t>> out;
  const auto [first, end] = usedBuckets();
  for (size_t i = first; i < end; ++i)
    if (m_counts[i]) out.emplace_back(representative(i), m_counts[i]);
  return out;
}

bool LatencyHistogram::operator==(const LatencyHistogram& other) const {
  if (m_count != other.m_count) return false;
  if (m_count == 0) return true;
  return m_min == other.m_min && m_max == other.m_max && m_sum == other.m_sum &&
         m_counts == other.m_counts;
}

// Format v1: version byte; varint bucket count N; N x (varint index delta from the previous
// non-empty bucket, the first from 0; varint count); varint min; varint max; varint sum low
// 64 bits; varint sum high 64 bits. Nothing may follow.
std::string LatencyHistogram::serialize() const {
  const auto [first, end] = usedBuckets();
  const auto begin = m_counts.begin() + static_cast<std::ptrdiff_t>(first);
  const auto nonEmpty = static_cast<uint64_t>(
      std::count_if(begin, m_counts.begin() + static_cast<std::ptrdiff_t>(end), [](uint64_t c) { return c != 0; }));
  std::string out;
  out.reserve(2 + 6 * nonEmpty + 4 * 10);
  out.push_back(static_cast<char>(kFormatVersion));
  putVarint(out, nonEmpty);
  size_t previous = 0;
  for (size_t i = first; i < end; ++i) {
    if (!m_counts[i]) continue;
    putVarint(out, i - previous);
    putVarint(out, m_counts[i]);
    previous = i;
  }
  putVarint(out, static_cast<uint64_t>(min()));
  putVarint(out, static_cast<uint64_t>(max()));
  putVarint(out, static_cast<uint64_t>(m_sum));
  putVarint(out, static_cast<uint64_t>(m_sum >> 64));
  return out;
}

LatencyHistogram LatencyHistogram::deserialize(const std::string& bytes) {
  BlobReader in(bytes);
  uint8_t version = in.byte("version");
  if (version != kFormatVersion)
    BlobReader::fail("unsupported version " + std::to_string(version), "version");
  uint64_t n = in.varint("bucket count");
  if (n > kBucketCount) BlobReader::fail("more buckets than exist", "bucket count");
  LatencyHistogram h;
  size_t index = 0, first = 0;
  for (uint64_t k = 0; k < n; ++k) {
    uint64_t delta = in.varint("bucket index");
    if (k > 0 && delta == 0) BlobReader::fail("bucket indices not ascending", "bucket index");
    if (delta >= kBucketCount - index) BlobReader::fail("bucket index out of range", "bucket index");
    index += static_cast<size_t>(delta);
    if (k == 0) first = index;
    uint64_t c = in.varint("bucket count value");
    if (c == 0) BlobReader::fail("empty bucket listed", "bucket count value");
    if (c > std::numeric_limits<uint64_t>::max() - h.m_count)
      BlobReader::fail("total count overflows", "bucket count value");
    h.ensureCounts();
    h.m_counts[index] = c;
    h.m_count += c;
  }
  uint64_t lo = in.varint("min"), hi = in.varint("max");
  if (lo > static_cast<uint64_t>(kMaxValue) || hi > static_cast<uint64_t>(kMaxValue))
    BlobReader::fail("min/max out of range", "min/max");
  uint64_t sumLow = in.varint("sum"), sumHigh = in.varint("sum");
  if (!in.atEnd()) BlobReader::fail("trailing bytes", "end");
  h.m_sum = (static_cast<Sum>(sumHigh) << 64) | sumLow;
  if (h.m_count > 0) {
    h.m_min = static_cast<int64_t>(lo);
    h.m_max = static_cast<int64_t>(hi);
  }
  h.validateDecoded(first, index);
  return h;
}

void LatencyHistogram::validateDecoded(size_t first, size_t last) const {
  if (m_count == 0) {
    if (m_sum != 0) BlobReader::fail("sum without values", "sum");
    return;
  }
  if (m_min > m_max || bucketIndex(m_min) != first || bucketIndex(m_max) != last)
    BlobReader::fail("min/max disagree with the buckets", "min/max");
  if (m_sum < static_cast<Sum>(m_min) * m_count || m_sum > static_cast<Sum>(m_max) * m_count)
    BlobReader::fail("sum outside [min, max] x count", "sum");
}

}  // namespace plumbline::metrics
