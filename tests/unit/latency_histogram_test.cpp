#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "core/metrics/latency_histogram.h"

using plumbline::metrics::LatencyHistogram;

namespace {

/// Nearest-rank percentile over sorted values, the definition percentile() documents.
int64_t exactPercentile(const std::vector<int64_t>& sorted, double q) {
  if (q <= 0) return sorted.front();
  if (q >= 1) return sorted.back();
  auto rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(sorted.size())));
  rank = std::clamp<uint64_t>(rank, 1, sorted.size());
  return sorted[rank - 1];
}

/// Log-uniform values across 1 µs .. 10 min.
std::vector<int64_t> logUniformValues(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> exponent(std::log(1e3), std::log(600e9));
  std::vector<int64_t> v(n);
  for (auto& x : v) x = static_cast<int64_t>(std::exp(exponent(rng)));
  return v;
}

LatencyHistogram histogramOf(const std::vector<int64_t>& values) {
  LatencyHistogram h;
  for (auto v : values) h.record(v);
  return h;
}

}  // namespace

TEST(LatencyHistogram, EmptyReportsZeros) {
  LatencyHistogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.min(), 0);
  EXPECT_EQ(h.max(), 0);
  EXPECT_EQ(h.mean(), 0);
  EXPECT_EQ(h.percentile(0.99), 0);
  EXPECT_TRUE(h.buckets().empty());
}

TEST(LatencyHistogram, SmallValuesAreExact) {
  LatencyHistogram h;
  for (int64_t v = 0; v < 256; ++v) h.record(v);
  auto b = h.buckets();
  ASSERT_EQ(b.size(), 256u);
  for (int64_t v = 0; v < 256; ++v) EXPECT_EQ(b[static_cast<size_t>(v)].first, v);
}

TEST(LatencyHistogram, EveryPercentileWithinOnePercent) {
  auto values = logUniformValues(200000, 7);
  LatencyHistogram h = histogramOf(values);
  std::sort(values.begin(), values.end());
  EXPECT_EQ(h.min(), values.front());
  EXPECT_EQ(h.max(), values.back());
  for (int i = 0; i <= 1000; ++i) {
    double q = i / 1000.0;
    auto exact = static_cast<double>(exactPercentile(values, q));
    auto reported = static_cast<double>(h.percentile(q));
    ASSERT_LE(std::abs(reported - exact) / exact, 0.01) << "q=" << q;
  }
  for (double q : {0.5, 0.9, 0.99, 0.999, 0.9999}) {
    auto exact = static_cast<double>(exactPercentile(values, q));
    EXPECT_LE(std::abs(static_cast<double>(h.percentile(q)) - exact) / exact, 1.0 / 256);
  }
}

TEST(LatencyHistogram, MeanIsExact) {
  LatencyHistogram h;
  h.record(1000);
  h.recordN(3000, 3);
  EXPECT_DOUBLE_EQ(h.mean(), 2500.0);
  EXPECT_EQ(h.count(), 4u);
}

TEST(LatencyHistogram, ClampsOutOfRangeValues) {
  LatencyHistogram h;
  h.record(-5);
  h.record(std::numeric_limits<int64_t>::max());
  EXPECT_EQ(h.min(), 0);
  EXPECT_EQ(h.max(), LatencyHistogram::kMaxValue);
  EXPECT_EQ(h.percentile(1.0), LatencyHistogram::kMaxValue);
  EXPECT_EQ(h.count(), 2u);
}

TEST(LatencyHistogram, MergeEqualsRecordingTheUnion) {
  auto a = logUniformValues(5000, 1), b = logUniformValues(7000, 2);
  LatencyHistogram merged = histogramOf(a);
  merged.merge(histogramOf(b));
  std::vector<int64_t> both = a;
  both.insert(both.end(), b.begin(), b.end());
  EXPECT_EQ(merged, histogramOf(both));
  LatencyHistogram empty;
  empty.merge(merged);
  EXPECT_EQ(empty, merged);
}

TEST(LatencyHistogram, SerializeRoundTrips) {
  for (auto h : {LatencyHistogram(), histogramOf({0}), histogramOf(logUniformValues(3000, 3))}) {
    auto back = LatencyHistogram::deserialize(h.serialize());
    EXPECT_EQ(back, h);
    EXPECT_EQ(back.serialize(), h.serialize());
    EXPECT_EQ(back.percentile(0.99), h.percentile(0.99));
  }
}

TEST(LatencyHistogram, TruncatedAtEveryByteThrows) {
  std::string blob = histogramOf(logUniformValues(500, 4)).serialize();
  for (size_t n = 0; n < blob.size(); ++n)
    EXPECT_THROW(LatencyHistogram::deserialize(blob.substr(0, n)), std::invalid_argument) << n;
  EXPECT_THROW(LatencyHistogram::deserialize(blob + '\0'), std::invalid_argument);
}

TEST(LatencyHistogram, MalformedBlobsThrow) {
  std::string good = histogramOf({1000, 2000}).serialize();
  std::string badVersion = good;
  badVersion[0] = 2;
  EXPECT_THROW(LatencyHistogram::deserialize(badVersion), std::invalid_argument);
  // Varint longer than 64 bits as the bucket count.
  EXPECT_THROW(LatencyHistogram::deserialize(std::string("\x01") + std::string(11, '\xff') + '\x01'),
               std::invalid_argument);
  // Bucket index beyond the array: N=1, delta=5000, count=1, min, max, sum.
  EXPECT_THROW(LatencyHistogram::deserialize(std::string("\x01\x01\x88\x27\x01\x00\x00\x00\x00", 9)),
               std::invalid_argument);
  // Two buckets whose counts overflow uint64.
  std::string overflow("\x01\x02\x01", 3);
  overflow += std::string(9, '\xff') + '\x01';
  overflow += '\x01';
  overflow += std::string(9, '\xff') + '\x01';
  overflow += std::string("\x01\x02\x00\x00", 4);
  EXPECT_THROW(LatencyHistogram::deserialize(overflow), std::invalid_argument);
  // min/max not matching the buckets: one value 5 claimed as min 9.
  EXPECT_THROW(LatencyHistogram::deserialize(std::string("\x01\x01\x05\x01\x09\x09\x09\x00", 8)),
               std::invalid_argument);
  EXPECT_NO_THROW(LatencyHistogram::deserialize(std::string("\x01\x01\x05\x01\x05\x05\x05\x00", 8)));
}

TEST(LatencyHistogram, MalformedMessagesNameTheProblem) {
  try {
    LatencyHistogram::deserialize(std::string("\x07", 1));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("version"), std::string::npos);
  }
}

TEST(LatencyHistogram, ClearEmpties) {
  LatencyHistogram h = histogramOf({5, 6});
  h.clear();
  EXPECT_EQ(h, LatencyHistogram());
  EXPECT_EQ(h.count(), 0u);
}

TEST(LatencyHistogram, ClearedThenReusedEqualsFresh) {
  // clear() keeps the bucket array and zeroes only the used range: nothing may survive it.
  const std::vector<int64_t> first = logUniformValues(500, 3), second = logUniformValues(300, 4);
  LatencyHistogram reused = histogramOf(first);
  reused.clear();
  EXPECT_EQ(reused.serialize(), LatencyHistogram().serialize());
  EXPECT_EQ(reused.percentile(0.99), 0);
  for (auto v : second) reused.record(v);
  const LatencyHistogram fresh = histogramOf(second);
  EXPECT_EQ(reused, fresh);
  EXPECT_EQ(reused.serialize(), fresh.serialize());
  EXPECT_EQ(reused.buckets(), fresh.buckets());
  EXPECT_EQ(reused.percentile(0.5), fresh.percentile(0.5));
}

TEST(LatencyHistogram, MergeAndSerializeAgreeWithAFullScan) {
  // merge() and serialize() walk only [bucket of min, bucket of max]; values at both ends of
  // the range and a merge into a histogram with a wider range must lose nothing.
  LatencyHistogram narrow = histogramOf({0, 1, 255, 256, LatencyHistogram::kMaxValue});
  LatencyHistogram wide = histogramOf(logUniformValues(1000, 5));
  LatencyHistogram merged = wide;
  merged.merge(narrow);
  std::vector<int64_t> all = logUniformValues(1000, 5);
  for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{255}, int64_t{256}, LatencyHistogram::kMaxValue}) all.push_back(v);
  EXPECT_EQ(merged, histogramOf(all));
  EXPECT_EQ(LatencyHistogram::deserialize(merged.serialize()), merged);
  EXPECT_EQ(merged.count(), 1005u);
}
