#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "core/util/rng.h"
#include "core/workload/length_dist_parser.h"
#include "core/workload/length_sampling.h"
#include "core/workload/planner.h"
#include "core/workload/workload_error.h"
#include "ks_test.h"

using namespace plumbline::workload;
using plumbline::testing::ksCritical;
using plumbline::testing::ksStatistic;
using plumbline::testing::normalCdf;
using plumbline::util::Rng;

namespace {

constexpr size_t kSamples = 20000;

LengthDist dist(const char* text) { return parseLengthDist(nlohmann::json::parse(text), "d"); }

std::vector<double> rawDraws(const LengthDist& d, uint64_t seed = 11) {
  Rng rng(seed);
  std::vector<double> out(kSamples);
  for (auto& x : out) x = drawLength(d, rng);
  return out;
}

}  // namespace

TEST(LengthDist, FixedAlwaysGivesItsValue) {
  const auto d = dist(R"({"dist": "fixed", "value": 128})");
  Rng rng(1);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(sampleLength(d, rng), 128u);
}

std::string distErrorOf(const char* text) {
  try {
    dist(text);
  } catch (const WorkloadError& error) {
    return error.what();
  }
  return "accepted";
}

// A length the file asks for is the length sent, or the file is refused: 5000 with max 2048 ran
// as 2048, 2.5 as 3, 2,000,000 as 1,000,000 (the default max), all without a word.
TEST(LengthDist, AFixedLengthIsSentAsWrittenOrRefused) {
  const auto d = dist(R"({"dist": "fixed", "value": 2048, "min": 16, "max": 2048})");
  Rng rng(1);
  EXPECT_EQ(sampleLength(d, rng), 2048u);
  EXPECT_EQ(distErrorOf(R"({"dist": "fixed", "value": 5000, "max": 2048})"),
            "d.value: 5000 is above max 2048; every draw above max is cut to it");
  EXPECT_EQ(distErrorOf(R"({"dist": "fixed", "value": 2000000})"),
            "d.value: 2000000 is above max 1000000 (the default: set 'max' to allow more); every "
            "draw above max is cut to it");
  EXPECT_EQ(dist(R"({"dist": "fixed", "value": 2000000, "max": 4000000})").p1, 2000000);
  EXPECT_EQ(distErrorOf(R"({"dist": "fixed", "value": 8, "min": 16})"),
            "d.value: 8 is below min 16; every draw below min is raised to it");
  EXPECT_EQ(distErrorOf(R"({"dist": "fixed", "value": 2.5})"),
            "d.value: expected a whole number of tokens, got 2.5");
  EXPECT_EQ(distErrorOf(R"({"dist": "fixed", "value": 128.0000000000001})"),
            "d.value: expected a whole number of tokens, got 128.00000000000011");
  EXPECT_EQ(dist(R"({"dist": "fixed", "value": 3.0})").p1, 3);  // 3.0 is a whole number
}

// A distribution centred outside its clamps has most draws cut to a clamp.
TEST(LengthDist, ADistributionCentredOutsideItsClampsIsRefused) {
  EXPECT_EQ(distErrorOf(R"({"dist": "lognormal", "median": 4096, "sigma": 0.5, "max": 2048})"),
            "d.median: 4096 is above max 2048; every draw above max is cut to it");
  EXPECT_EQ(distErrorOf(R"({"dist": "normal", "mean": 10, "stddev": 2, "min": 16})"),
            "d.mean: 10 is below min 16; every draw below min is raised to it");
  EXPECT_EQ(distErrorOf(R"({"dist": "exponential", "mean": 3e6})"),
            "d.mean: 3000000 puts the median (2079441.5) above max 1000000 (the default: set 'max' "
            "to allow more); every draw above max is cut to it");
  // An exponential's median is mean × ln 2: mean 100 with min 80 had p50 at 80.
  EXPECT_EQ(
      distErrorOf(R"({"dist": "exponential", "mean": 100, "min": 80})"),
      "d.mean: 100 puts the median (69.3) below min 80; every draw below min is raised to it");
  EXPECT_EQ(distErrorOf(R"({"dist": "exponential", "mean": 100, "min": 60})"), "accepted");
  EXPECT_EQ(distErrorOf(R"({"dist": "normal", "mean": 0.5, "stddev": 2})"),
            "d.mean: 0.5 is below min 1 (the default); every draw below min is raised to it");
  // Clamps that cut a tail only are what they are for.
  EXPECT_EQ(
      distErrorOf(R"({"dist": "lognormal", "median": 256, "sigma": 2, "min": 16, "max": 300})"),
      "accepted");
}

TEST(LengthDist, UniformMatchesItsCdf) {
  const auto d = dist(R"({"dist": "uniform", "min": 10, "max": 100})");
  const auto sample = rawDraws(d);
  const double lo = 9.5, hi = 100.5;
  const double ks =
      ksStatistic(sample, [&](double x) { return std::clamp((x - lo) / (hi - lo), 0.0, 1.0); });
  EXPECT_LT(ks, ksCritical(sample.size()));
}

TEST(LengthDist, UniformGivesEveryWholeCountEvenly) {
  const auto d = dist(R"({"dist": "uniform", "min": 1, "max": 4})");
  Rng rng(3);
  std::vector<int> counts(6, 0);
  const int n = 40000;
  for (int i = 0; i < n; ++i) ++counts[sampleLength(d, rng)];
  EXPECT_EQ(counts[0], 0);
  EXPECT_EQ(counts[5], 0);
  for (int k = 1; k <= 4; ++k) EXPECT_NEAR(counts[k], n / 4, 5 * std::sqrt(n * 0.25 * 0.75));
}

TEST(LengthDist, NormalMatchesItsCdf) {
  const auto d = dist(R"({"dist": "normal", "mean": 256, "stddev": 64})");
  const auto sample = rawDraws(d);
  EXPECT_LT(ksStatistic(sample, [](double x) { return normalCdf(x, 256, 64); }),
            ksCritical(sample.size()));
}

TEST(LengthDist, LognormalMatchesItsCdf) {
  const auto d = dist(R"({"dist": "lognormal", "median": 512, "sigma": 0.7})");
  const auto sample = rawDraws(d);
  EXPECT_LT(ksStatistic(
                sample,
                [](double x) { return x <= 0 ? 0.0 : normalCdf(std::log(x), std::log(512), 0.7); }),
            ksCritical(sample.size()));
}

TEST(LengthDist, ExponentialMatchesItsCdf) {
  const auto d = dist(R"({"dist": "exponential", "mean": 128})");
  const auto sample = rawDraws(d);
  EXPECT_LT(ksStatistic(sample, [](double x) { return x <= 0 ? 0.0 : 1.0 - std::exp(-x / 128); }),
            ksCritical(sample.size()));
}

TEST(LengthDist, KsRejectsAWrongDistribution) {
  // Guards the helper itself: exponential draws must not pass as a normal of the same mean.
  const auto sample = rawDraws(dist(R"({"dist": "exponential", "mean": 128})"));
  EXPECT_GT(ksStatistic(sample, [](double x) { return normalCdf(x, 128, 128); }),
            ksCritical(sample.size()));
}

TEST(LengthDist, ClampsBoundEverySampleAndHoldTheTailMass) {
  const auto d =
      dist(R"({"dist": "lognormal", "median": 256, "sigma": 0.6, "min": 16, "max": 512})");
  Rng rng(5);
  int atMax = 0;
  const int n = 50000;
  for (int i = 0; i < n; ++i) {
    const uint32_t v = sampleLength(d, rng);
    ASSERT_GE(v, 16u);
    ASSERT_LE(v, 512u);
    atMax += v == 512;
  }
  // P(draw >= 511.5), the mass the clamp folds onto 512.
  const double p = 1.0 - normalCdf(std::log(511.5), std::log(256), 0.6);
  EXPECT_NEAR(atMax, n * p, 5 * std::sqrt(n * p * (1 - p)));
}

TEST(LengthDist, NeverBelowOneEvenUnclamped) {
  const auto d = dist(R"({"dist": "normal", "mean": 2, "stddev": 10})");
  Rng rng(9);
  for (int i = 0; i < 10000; ++i) ASSERT_GE(sampleLength(d, rng), 1u);
}

TEST(LengthDist, RoundsToNearest) {
  LengthDist d;
  d.clampMin = 1;
  d.clampMax = 100;
  EXPECT_EQ(clampAndRound(7.49, d), 7u);
  EXPECT_EQ(clampAndRound(7.5, d), 8u);
  EXPECT_EQ(clampAndRound(0.2, d), 1u);
  EXPECT_EQ(clampAndRound(1e9, d), 100u);
}

TEST(LengthDist, ParsesEveryKind) {
  EXPECT_EQ(dist(R"({"dist": "fixed", "value": 3})").kind, DistKind::Fixed);
  const auto u = dist(R"({"dist": "uniform", "min": 2, "max": 9})");
  EXPECT_EQ(u.kind, DistKind::Uniform);
  EXPECT_EQ(u.clampMin, 2);
  EXPECT_EQ(u.clampMax, 9);
  const auto n = dist(R"({"dist": "normal", "mean": 5, "stddev": 0, "min": 1, "max": 10})");
  EXPECT_EQ(n.kind, DistKind::Normal);
  EXPECT_DOUBLE_EQ(n.p1, 5);
  EXPECT_EQ(dist(R"({"dist": "lognormal", "median": 5, "sigma": 1})").kind, DistKind::Lognormal);
  const auto e = dist(R"({"dist": "exponential", "mean": 5})");
  EXPECT_EQ(e.kind, DistKind::Exponential);
  EXPECT_EQ(e.clampMin, 1);
  EXPECT_EQ(e.clampMax, 1'000'000);
  EXPECT_EQ(e.source["mean"], 5);
}
