// Telling a change between two runs from sampling noise (QA 24 D3): two runs of one workload
// showed "inter-token p99 −11.4 %" in green, and a p99 of 50 samples (their slowest) was judged.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "core/compare/compare_report.h"
#include "core/compare/comparison.h"
#include "core/compare/percentile_interval.h"
#include "metric_row_lookup.h"
#include "store_test_support.h"
#include "tests/fixtures/run_fixture.h"

namespace plumbline::compare {
namespace {

using fixtures::FixtureRun;
using store::testing::TempDir;

using testing::metricRow;

metrics::LatencyHistogram millisecondsFrom1To(int n) {
  metrics::LatencyHistogram h;
  for (int i = 1; i <= n; ++i) h.record(int64_t{i} * 1'000'000);
  return h;
}

TEST(PercentileInterval, RanksAreTheBinomialsAndMatchTheExactTables) {
  // n = 50, the median: the exact binomial 95% interval is the 18th to the 33rd value.
  const QuantileRanks median = quantileRanks(50, 0.5);
  EXPECT_EQ(median.low, 18);
  EXPECT_EQ(median.high, 33);
  // A p99 of 50 samples has no upper bound: the true one may lie above the slowest.
  EXPECT_GT(quantileRanks(50, 0.99).high, 50);
  EXPECT_EQ(samplesToBound(0.5), 8u);
  EXPECT_EQ(samplesToBound(0.9), 53u);
  EXPECT_EQ(samplesToBound(0.99), 563u);
  const QuantileRanks p99 = quantileRanks(563, 0.99);
  EXPECT_GE(p99.low, 1);
  EXPECT_LE(p99.high, 563);
  EXPECT_GT(quantileRanks(562, 0.99).high, 562);
}

TEST(PercentileInterval, TheIntervalIsTheValuesAtThoseRanks) {
  const auto median = percentileInterval(millisecondsFrom1To(50), 0.5);
  ASSERT_TRUE(median);
  EXPECT_EQ(median->samples, 50u);
  ASSERT_TRUE(median->bounded());
  EXPECT_NEAR(*median->low, 18, 18 / 128.0);  // the histogram holds a value to 1/128
  EXPECT_NEAR(*median->high, 33, 33 / 128.0);
  const auto p99 = percentileInterval(millisecondsFrom1To(50), 0.99);
  ASSERT_TRUE(p99);
  EXPECT_FALSE(p99->high);
  EXPECT_FALSE(p99->bounded());
  EXPECT_FALSE(percentileInterval(metrics::LatencyHistogram(), 0.5));
}

TEST(PercentileInterval, AChangeIsBeyondNoiseOnlyPastBothMargins) {
  const PercentileInterval a{9.0, 11.0, 1000}, b{19.0, 21.0, 1000};
  EXPECT_EQ(beyondNoise(10, a, 20, b), true);   // 10 apart, margins 1 and 1
  EXPECT_EQ(beyondNoise(10, a, 11, a), false);  // 1 apart, √2 of margin
  EXPECT_EQ(beyondNoise(10, a, 10, a), false);
  const PercentileInterval open{9.0, std::nullopt, 50};
  EXPECT_FALSE(beyondNoise(10, open, 20, b));  // the baseline may be anywhere above 10
  EXPECT_FALSE(beyondNoise(20, b, 10, open));  // falling: how far the value may be above itself
  const PercentileInterval noFloor{std::nullopt, 11.0, 50};
  EXPECT_EQ(beyondNoise(20, b, 10, noFloor), true);  // its lower end does not matter
  // Shares: 2 errors of 1,000 against none is noise; half of 50 against none is not.
  EXPECT_EQ(shareBeyondNoise(0, 1000, 2, 1000), false);
  EXPECT_EQ(shareBeyondNoise(0, 50, 25, 50), true);
  EXPECT_EQ(shareBeyondNoise(0, 50, 0, 50), false);
  EXPECT_FALSE(shareBeyondNoise(0, 0, 1, 50));
  // Means over 800 requests each (CV 1): 1.96·√(2/800) ≈ 9.8 % is noise, 12 % is not.
  EXPECT_EQ(meanBeyondNoise(60, 800, 63, 800), false);
  EXPECT_EQ(meanBeyondNoise(60, 800, 67.2, 800), true);
  EXPECT_FALSE(meanBeyondNoise(60, 0, 67.2, 800));
}

TEST(CompareNoise, TwoSamplesOfOneServerAreWithinNoiseAndAShiftedOneIsWorse) {
  TempDir dir;
  const std::string path = dir.file("runs.db");
  FixtureRun first, second, slower;
  first.stages = second.stages = slower.stages = {{20, 40}};  // 800 requests each
  first.ttftSpreadSeed = 1;
  second.ttftSpreadSeed = 2;
  slower.ttftSpreadSeed = 3;
  slower.ttftMs = 60;  // a fifth slower, and a spread a fifth wider
  const int64_t a = fixtures::writeFixtureRun(path, first);
  const int64_t b = fixtures::writeFixtureRun(path, second);
  const int64_t c = fixtures::writeFixtureRun(path, slower);
  const Comparison same = buildComparison(store::RunReader(path), {a, b}, Slo{});
  for (const char* key : {"ttft_p50_ms", "ttft_p90_ms", "ttft_p99_ms"}) {
    const MetricRow& row = metricRow(same, key);
    ASSERT_TRUE(row.values[0] && row.values[1]) << key;
    ASSERT_EQ(row.intervals.size(), 2u) << key;
    EXPECT_TRUE(row.intervals[0] && row.intervals[0]->bounded()) << key;
    EXPECT_FALSE(isBeyondNoise(row.judgement(1))) << key;
    EXPECT_EQ(row.direction(1), 0) << key;
  }
  for (const char* key : {"ttft_p90_ms", "ttft_p99_ms"}) {
    const MetricRow& row = metricRow(same, key);
    // The seeds differ by more than the histograms resolve: without the intervals, coloured.
    EXPECT_GT(std::fabs(*row.values[1] - *row.values[0]), *row.values[0] / 128) << key;
    EXPECT_EQ(row.judgement(1), Judgement::WithinNoise) << key;
  }
  EXPECT_EQ(noiseSummary(same).rfind("No figure changed beyond sampling noise (95%)", 0), 0u)
      << noiseSummary(same);
  const Comparison worse = buildComparison(store::RunReader(path), {a, c}, Slo{});
  for (const char* key : {"ttft_p50_ms", "ttft_p90_ms"})
    EXPECT_EQ(metricRow(worse, key).judgement(1), Judgement::Worse) << key;
  EXPECT_NE(noiseSummary(worse).find("TTFT p50 worse in #" + std::to_string(c)), std::string::npos)
      << noiseSummary(worse);
  std::ostringstream json;
  json << comparisonToJson(worse).dump();
  EXPECT_NE(json.str().find("\"judgement\":[\"baseline\",\"worse\"]"), std::string::npos);
  EXPECT_NE(json.str().find("\"interval_95\":[{\"high\":"), std::string::npos);
}

TEST(CompareNoise, APercentileItsSamplesCannotBoundIsNotJudgedAndTheReportSaysSo) {
  TempDir dir;
  const std::string path = dir.file("runs.db");
  FixtureRun shortRun, longer;  // 50 and 100 requests: their p99s are their slowest
  shortRun.ttftSpreadSeed = 1;
  longer.ttftSpreadSeed = 2;
  longer.stages = {{10, 10}};
  const int64_t a = fixtures::writeFixtureRun(path, shortRun);
  const int64_t b = fixtures::writeFixtureRun(path, longer);
  const Comparison c = buildComparison(store::RunReader(path), {a, b}, Slo{});
  const MetricRow& p99 = metricRow(c, "ttft_p99_ms");
  ASSERT_EQ(p99.intervals.size(), 2u);
  ASSERT_TRUE(p99.intervals[0] && p99.intervals[1]);
  EXPECT_FALSE(p99.intervals[0]->bounded());  // 50 samples
  EXPECT_FALSE(p99.intervals[1]->bounded());  // 100
  EXPECT_EQ(p99.judgement(1), Judgement::TooFewSamples);
  EXPECT_EQ(p99.direction(1), 0);
  // The gaps of one stream vary together: a gap percentile's samples are the streams.
  const MetricRow& gaps = metricRow(c, "itl_p99_ms");
  ASSERT_EQ(gaps.intervals.size(), 2u);
  ASSERT_TRUE(gaps.intervals[0]);
  EXPECT_EQ(gaps.intervals[0]->samples, 50u);
  EXPECT_EQ(gaps.intervals[0]->values, 50u * 19);
  EXPECT_FALSE(gaps.intervals[0]->bounded());
  std::ostringstream text;
  printComparison(c, text);
  EXPECT_NE(text.str().find("too few samples)"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("not judged, too few samples: TTFT p90, TTFT p99"), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("TTFT p90 from #" + std::to_string(a) + " 50, #" + std::to_string(b) +
                            " 100 samples; a p99 needs 563, a p90 53"),
            std::string::npos)
      << text.str();
}

TEST(CompareNoise, ErrorSharesAreTestedAsProportions) {
  MetricRow errors{"error_rate_pct", "errors (% of sent)", true, {0.0, 0.2}};
  errors.percentage = true;
  errors.shares = {std::pair<uint64_t, uint64_t>{0, 1000}, std::pair<uint64_t, uint64_t>{2, 1000}};
  EXPECT_EQ(errors.judgement(1), Judgement::WithinNoise);
  errors.values[1] = 50.0;
  errors.shares[1] = std::pair<uint64_t, uint64_t>{500, 1000};
  EXPECT_EQ(errors.judgement(1), Judgement::Worse);
}

TEST(CompareNoise, GoodputIsAShareOfThePlannedTestedLikeTheErrors) {
  TempDir dir;
  const std::string path = dir.file("runs.db");
  FixtureRun all, oneSlow, halfFailing;
  oneSlow.slowShare = 0.02;  // 1 of 50 at 10× TTFT: past a 100 ms limit
  halfFailing.errorEvery = 2;
  const int64_t a = fixtures::writeFixtureRun(path, all);
  const int64_t b = fixtures::writeFixtureRun(path, oneSlow);
  const int64_t c = fixtures::writeFixtureRun(path, halfFailing);
  const Slo slo{100.0, 20.0};
  const Comparison one = buildComparison(store::RunReader(path), {a, b}, slo);
  EXPECT_EQ(one.goodput.at(1).met, 49u);
  EXPECT_EQ(metricRow(one, "goodput_pct").judgement(1), Judgement::WithinNoise);
  EXPECT_EQ(metricRow(one, "goodput_rps").judgement(1), Judgement::WithinNoise);
  const Comparison half = buildComparison(store::RunReader(path), {a, c}, slo);
  EXPECT_EQ(metricRow(half, "goodput_pct").judgement(1), Judgement::Worse);
  EXPECT_NE(noiseSummary(half).find("goodput (% of planned) worse in #"), std::string::npos)
      << noiseSummary(half);
}

}  // namespace
}  // namespace plumbline::compare
