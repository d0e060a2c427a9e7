#include <gtest/gtest.h>

#include <cmath>

#include "core/workload/length_dist_parser.h"
#include "core/workload/length_histogram.h"

using namespace plumbline::workload;
using json = nlohmann::json;

namespace {
LengthDist lengthDist(const char* text) { return parseLengthDist(json::parse(text), "d"); }
uint64_t total(const LengthHistogram& h) {
  uint64_t n = 0;
  for (const auto& bin : h.bins) n += bin.count;
  return n;
}
}  // namespace

TEST(LengthHistogram, FixedIsOneBinAtTheValue) {
  const auto h = lengthHistogram(lengthDist(R"({"dist":"fixed","value":128})"), 1);
  EXPECT_EQ(h.draws, 20000u);
  ASSERT_EQ(h.bins.size(), 1u);
  EXPECT_EQ(h.bins[0].count, 20000u);
  EXPECT_EQ(h.p50, 128u);
  EXPECT_EQ(h.p99, 128u);
  EXPECT_DOUBLE_EQ(h.mean, 128);
}

TEST(LengthHistogram, UniformBinsAreFlatAndCoverEveryDraw) {
  const auto h = lengthHistogram(lengthDist(R"({"dist":"uniform","min":1,"max":400})"), 3, 20000, 40);
  ASSERT_EQ(h.bins.size(), 40u);
  EXPECT_EQ(total(h), 20000u);
  EXPECT_EQ(h.min, 1u);
  EXPECT_EQ(h.max, 400u);
  for (const auto& bin : h.bins) EXPECT_NEAR(static_cast<double>(bin.count), 500, 120);
  EXPECT_NEAR(h.p50, 200, 10);
  EXPECT_NEAR(h.p90, 360, 10);
  EXPECT_NEAR(h.p99, 396, 5);
}

TEST(LengthHistogram, LognormalPercentilesMatchTheDistribution) {
  // median 512, sigma 0.7: p90 = 512·e^(0.7·1.2816) ≈ 1254, p99 = 512·e^(0.7·2.3263) ≈ 2611.
  const auto h = lengthHistogram(lengthDist(R"({"dist":"lognormal","median":512,"sigma":0.7})"), 5);
  EXPECT_NEAR(h.p50, 512, 512 * 0.04);
  EXPECT_NEAR(h.p90, 512 * std::exp(0.7 * 1.2816), 1254 * 0.05);
  EXPECT_NEAR(h.p99, 512 * std::exp(0.7 * 2.3263), 2611 * 0.08);
  EXPECT_EQ(total(h), 20000u);
}

TEST(LengthHistogram, ClampsBoundTheBins) {
  const auto h = lengthHistogram(lengthDist(R"({"dist":"normal","mean":64,"stddev":50,"min":8,"max":100})"), 2);
  EXPECT_EQ(h.min, 8u);
  EXPECT_EQ(h.max, 100u);
  EXPECT_GE(h.bins.front().low, 8);
  EXPECT_LE(h.bins.back().high, 101);
  EXPECT_GT(h.bins.back().count, 1000u);  // the clamp piles the upper tail onto 100
}

TEST(LengthHistogram, NarrowRangeNeverHasEmptyBinsFromBinning) {
  const auto h = lengthHistogram(lengthDist(R"({"dist":"uniform","min":10,"max":14})"), 1, 20000, 40);
  ASSERT_EQ(h.bins.size(), 5u);
  for (const auto& bin : h.bins) EXPECT_GT(bin.count, 3000u);
}

TEST(LengthHistogram, SameSeedSameHistogram) {
  const auto d = lengthDist(R"({"dist":"exponential","mean":100})");
  const auto a = lengthHistogram(d, 9), b = lengthHistogram(d, 9);
  ASSERT_EQ(a.bins.size(), b.bins.size());
  for (size_t i = 0; i < a.bins.size(); ++i) EXPECT_EQ(a.bins[i].count, b.bins[i].count);
}

TEST(LengthHistogram, LongTailIsFoldedIntoTheLastBin) {
  // A clamp far past the body: bins stop at p99.9 and the last one holds the rest.
  const auto h = lengthHistogram(lengthDist(R"({"dist":"lognormal","median":100,"sigma":1.0,"max":100000})"), 4);
  EXPECT_TRUE(h.tailFolded);
  EXPECT_LT(h.bins.back().high, h.max);
  EXPECT_EQ(total(h), 20000u);
  EXPECT_GE(h.bins.back().count, 20u);  // at least the 0.1% beyond p99.9
  const auto fixed = lengthHistogram(lengthDist(R"({"dist":"fixed","value":7})"), 4);
  EXPECT_FALSE(fixed.tailFolded);
}

// QA 23b: uniform 32-128 (97 lengths) in 40 bins of 2 or 3 lengths each drew a comb, bins
// alternating by up to 50 %. Every bin holds the same whole number of lengths.
TEST(LengthHistogram, EveryBinHoldsTheSameNumberOfWholeLengths) {
  const auto h =
      lengthHistogram(lengthDist(R"({"dist":"uniform","min":32,"max":128})"), 7, 20000, 40);
  ASSERT_GE(h.bins.size(), 2u);
  const double width = h.bins.front().high - h.bins.front().low;
  EXPECT_EQ(width, std::floor(width));
  for (const auto& bin : h.bins) EXPECT_EQ(bin.high - bin.low, width);
  EXPECT_EQ(h.bins.front().low, 32);
  EXPECT_GT(h.bins.back().high, 128);  // the last bin holds 128
  EXPECT_EQ(total(h), 20000u);
  // Flat: each full bin holds width/97 of the draws, within sampling noise.
  const double expected = 20000.0 * width / 97;
  for (size_t i = 0; i + 1 < h.bins.size(); ++i)
    EXPECT_NEAR(static_cast<double>(h.bins[i].count), expected, expected * 0.15) << "bin " << i;
}
