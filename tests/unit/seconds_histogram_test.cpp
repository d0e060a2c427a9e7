#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/util/rng.h"
#include "core/workload/seconds_histogram.h"
#include "core/workload/session_graph.h"
#include "core/workload/session_parser.h"

using namespace plumbline::workload;
using json = nlohmann::json;

namespace {
SecondsDist secondsDist(const char* text) { return parseSecondsDist(json::parse(text), "d"); }
uint64_t total(const SecondsHistogram& h) {
  uint64_t n = 0;
  for (const auto& bin : h.bins) n += bin.count;
  return n;
}
}  // namespace

TEST(SecondsHistogram, FixedIsOneBinAtTheValue) {
  const auto h = secondsHistogram(secondsDist(R"({"dist":"fixed","value":0.25})"), 1);
  EXPECT_EQ(h.draws, 20000u);
  ASSERT_EQ(h.bins.size(), 1u);
  EXPECT_EQ(h.bins[0].count, 20000u);
  EXPECT_DOUBLE_EQ(h.p50, 0.25);
  EXPECT_DOUBLE_EQ(h.p99, 0.25);
  EXPECT_NEAR(h.mean, 0.25, 1e-9);
}

TEST(SecondsHistogram, ExponentialKeepsFractionsAndMatchesItsQuantiles) {
  const auto h = secondsHistogram(secondsDist(R"({"dist":"exponential","mean":2.0})"), 7);
  EXPECT_EQ(total(h), 20000u);
  EXPECT_FALSE(h.bins.empty());
  EXPECT_NEAR(h.mean, 2.0, 0.1);
  EXPECT_NEAR(h.p50, 2.0 * std::log(2.0), 0.08);   // median of an exponential: mean · ln 2
  EXPECT_NEAR(h.p90, 2.0 * std::log(10.0), 0.25);
  EXPECT_GT(h.p99, h.p90);
  EXPECT_TRUE(h.tailFolded);  // the longest draws are folded into the last bin
}

TEST(SecondsHistogram, ClampsAreApplied) {
  const auto h = secondsHistogram(secondsDist(R"({"dist":"lognormal","median":0.5,"sigma":0.8,"min":0.1,"max":2})"), 3);
  EXPECT_GE(h.min, 0.1);
  EXPECT_LE(h.max, 2.0);
  EXPECT_DOUBLE_EQ(h.max, 2.0);  // some draws hit the upper clamp
}

TEST(SecondsHistogram, IsTheSameDrawsTheRunWaits) {
  // Percentiles equal those of sampleDelayNs driven by the same seeded generator.
  const SecondsDist d = secondsDist(R"({"dist":"uniform","min":0.2,"max":1.2})");
  const auto h = secondsHistogram(d, 11, 1000);
  plumbline::util::Rng rng(11);
  std::vector<double> draws;
  for (int i = 0; i < 1000; ++i) draws.push_back(static_cast<double>(sampleDelayNs(d, rng)) / 1e9);
  std::sort(draws.begin(), draws.end());
  EXPECT_DOUBLE_EQ(h.p50, draws[499]);
  EXPECT_DOUBLE_EQ(h.p90, draws[899]);
  EXPECT_DOUBLE_EQ(h.p99, draws[989]);
  EXPECT_DOUBLE_EQ(h.min, draws.front());
  EXPECT_DOUBLE_EQ(h.max, draws.back());
}

TEST(SecondsHistogram, NoDrawsIsEmpty) {
  EXPECT_TRUE(secondsHistogram(secondsDist(R"({"dist":"fixed","value":1})"), 1, 0).bins.empty());
}
