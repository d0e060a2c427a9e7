#include <gtest/gtest.h>

#include <sstream>

#include "core/compare/compare_command.h"
#include "core/compare/compare_report.h"
#include "core/compare/comparison.h"
#include "core/compare/load_latency.h"
#include "core/compare/stored_histograms.h"
#include "core/store/database.h"
#include "metric_row_lookup.h"
#include "store_test_support.h"
#include "tests/fixtures/run_fixture.h"

namespace plumbline::compare {
namespace {

using fixtures::FixtureRun;
using store::testing::TempDir;

const MetricRow& row(const Comparison& c, const std::string& key) {
  return testing::metricRow(c, key);
}

TEST(CompareMetrics, DeltasAreAgainstTheBaseline) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  FixtureRun fast, slow;
  fast.ttftMs = 50;
  slow.ttftMs = 75;
  slow.stages = {{20, 5}};
  int64_t a = fixtures::writeFixtureRun(path, fast);
  int64_t b = fixtures::writeFixtureRun(path, slow);
  Comparison c = buildComparison(store::RunReader(path), {a, b}, Slo{});
  const MetricRow& ttft = row(c, "ttft_p50_ms");
  ASSERT_TRUE(ttft.values[0] && ttft.values[1]);
  // The histogram reports within 1%.
  EXPECT_NEAR(*ttft.values[0], 50, 0.5);
  EXPECT_NEAR(*ttft.values[1], 75, 0.75);
  EXPECT_DOUBLE_EQ(*ttft.absoluteDelta(1), *ttft.values[1] - *ttft.values[0]);
  EXPECT_NEAR(*ttft.relativeDelta(1), 0.5, 0.02);
  EXPECT_EQ(*ttft.absoluteDelta(0), 0);
  EXPECT_EQ(ttft.direction(1), -1);  // slower TTFT is worse
  const MetricRow& rps = row(c, "requested_rps");
  EXPECT_NEAR(*rps.values[0], 10, 0.01);
  EXPECT_NEAR(*rps.values[1], 20, 0.01);
  EXPECT_NEAR(*rps.relativeDelta(1), 1.0, 0.01);
  EXPECT_EQ(rps.direction(1), 0);  // what was asked: neither better nor worse (not coloured)
  // Twice the rate achieved, where twice was asked: each achieved what it was asked for (QA
  // 23b: "achieved −50 %" in red between two runs that both kept up).
  const MetricRow& achieved = row(c, "achieved_rps");
  EXPECT_NEAR(*achieved.relativeDelta(1), 1.0, 0.01);
  EXPECT_EQ(achieved.direction(1), 0);
  EXPECT_EQ(row(c, "completed").direction(1), 0);
  EXPECT_EQ(row(c, "input_tokens_per_s").direction(1), 0);
  EXPECT_EQ(deltaText(rps, 1), "+10, +100.0%");
}

// Better or worse where the figure follows what was asked: the share of it achieved; and a
// latency change below a histogram's resolution (1/128) is neither (QA 23b: +7 µs in red).
TEST(CompareMetrics, AchievedIsJudgedOnItsShareOfWhatWasAskedAndNoiseIsNotColoured) {
  MetricRow achieved{"achieved_rps", "achieved (req/s)", false, {20.0, 10.0}};
  achieved.judgedOn = {1.0, 0.5};  // the second run achieved half of what it was asked
  EXPECT_EQ(achieved.direction(1), -1);
  achieved.judgedOn = {0.5, 1.0};
  EXPECT_EQ(achieved.direction(1), 1);
  MetricRow ttft{"ttft_p50_ms", "TTFT p50 (ms)", true, {50.02, 50.027}};
  ttft.resolution = 1.0 / 128;
  EXPECT_EQ(ttft.direction(1), 0);
  ttft.values[1] = 51.0;  // 2 %: resolved, and worse
  EXPECT_EQ(ttft.direction(1), -1);
}

TEST(CompareMetrics, TimeToFirstAnswerRowsOnlyWhenARunThoughtFirst) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  FixtureRun plain, thinker;
  thinker.thinkMs = 40;
  int64_t a = fixtures::writeFixtureRun(path, plain);
  int64_t b = fixtures::writeFixtureRun(path, thinker);
  int64_t c = fixtures::writeFixtureRun(path, plain);
  Comparison alone = buildComparison(store::RunReader(path), {a, c}, Slo{});
  for (const auto& r : alone.metrics) EXPECT_NE(r.key.rfind("ttfa", 0), 0u) << r.key;  // = TTFT
  Comparison both = buildComparison(store::RunReader(path), {a, b}, Slo{});
  const MetricRow& ttfa = row(both, "ttfa_p50_ms");
  EXPECT_EQ(ttfa.label, "TTFA p50 (ms)");
  ASSERT_TRUE(ttfa.values[0] && ttfa.values[1]);
  EXPECT_NEAR(*ttfa.values[0], 50, 0.5);  // no thinking: the first token was the answer's
  EXPECT_NEAR(*ttfa.values[1], 90, 0.9);
  EXPECT_EQ(ttfa.direction(1), -1);
  EXPECT_TRUE(row(both, "ttfa_p99_ms").values[1]);
  // The answer is a CDF of its own too, then only: the plain run's is its TTFT.
  EXPECT_FALSE(alone.hasAnswerCdfs());
  EXPECT_EQ(alone.cdf(a, kAnswerCdfMetric), nullptr);
  EXPECT_TRUE(both.hasAnswerCdfs());
  ASSERT_NE(both.cdf(a, kAnswerCdfMetric), nullptr);
  ASSERT_NE(both.cdf(b, kAnswerCdfMetric), nullptr);
  EXPECT_NEAR(both.cdf(a, kAnswerCdfMetric)->points.back().valueMs, 50, 0.5);
  EXPECT_NEAR(both.cdf(b, kAnswerCdfMetric)->points.back().valueMs, 90, 0.9);
}

// The charts' TTFA: per window and whole-run, only for a run whose answer came after its first
// token; a model that does not think, and a run stored before ttfa, have nothing apart.
TEST(StoredHistograms, TheAnswerIsApartOnlyWhenARunThoughtFirst) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  FixtureRun plain, thinker;
  thinker.thinkMs = 40;
  const int64_t a = fixtures::writeFixtureRun(path, plain);
  const int64_t b = fixtures::writeFixtureRun(path, thinker);
  const int64_t c = fixtures::writeFixtureRun(path, thinker);
  store::Database::open(path, store::Database::Mode::ReadWrite)
      .exec("DELETE FROM histograms WHERE run_id = " + std::to_string(c) + " AND metric = 'ttfa'");
  const store::RunReader reader(path);
  EXPECT_FALSE(answerDiffersFromFirstToken(reader, a));
  EXPECT_TRUE(answerDiffersFromFirstToken(reader, b));
  EXPECT_FALSE(answerDiffersFromFirstToken(reader, c));
  ASSERT_TRUE(storedHistogram(reader, b, "ttfa", 0));
  EXPECT_FALSE(storedHistogram(reader, b, "no_such_metric"));
}

// Compare overlays the latencies from planned and TTFA over time too, for runs stored before
// v11 from their windows' histograms, as for runs stored since.
TEST(CompareSeries, LatenciesFromPlannedAndTtfaAreOverlaidForRunsStoredBeforeV11Too) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  FixtureRun thinker;
  thinker.thinkMs = 40;
  const int64_t a = fixtures::writeFixtureRun(path, thinker);
  const int64_t b = fixtures::writeFixtureRun(path, thinker);
  store::Database::open(path, store::Database::Mode::ReadWrite)
      .exec(
          "UPDATE windows SET ttfa_p50_ms = NULL, ttfa_p99_ms = NULL, e2e_from_planned_p99_ms = "
          "NULL WHERE run_id = " +
          std::to_string(b));
  const Comparison c = buildComparison(store::RunReader(path), {a, b}, Slo{});
  for (SeriesMetric m : {SeriesMetric::TtftFromPlannedP99Ms, SeriesMetric::E2eFromPlannedP99Ms,
                         SeriesMetric::TtfaP99Ms}) {
    const auto& first = c.series[0][static_cast<size_t>(m)];
    EXPECT_EQ(first.size(), 6u) << seriesMetricName(m);
    EXPECT_EQ(c.series[1][static_cast<size_t>(m)], first) << seriesMetricName(m);
  }
  EXPECT_NEAR(c.series[0][static_cast<size_t>(SeriesMetric::TtfaP99Ms)][0].value, 90, 0.9);
}

// Windows stored before schema v11 have no TTFA or from-planned percentiles in their rows: the
// charts take them from the windows' histograms, as the rows of a run stored since have them.
TEST(StoredHistograms, WindowsStoredBeforeV11GetTheirPercentilesFromTheirHistograms) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  FixtureRun thinker;
  thinker.thinkMs = 40;
  const int64_t id = fixtures::writeFixtureRun(path, thinker);
  const auto stored = store::RunReader(path).windows(id);
  ASSERT_EQ(stored.size(), 6u);  // 5 s of requests, the last ones ending in window 5
  for (const auto& w : stored) {
    ASSERT_TRUE(w.ttfaP50Ms && w.ttftFromPlannedP99Ms && w.e2eFromPlannedP99Ms) << w.idx;
    EXPECT_NEAR(*w.ttfaP50Ms, 90, 0.9) << w.idx;
  }
  const std::string rowsBeforeV11 =
      "UPDATE windows SET ttfa_p50_ms = NULL, ttfa_p99_ms = NULL, ttft_from_planned_p50_ms = "
      "NULL, ttft_from_planned_p99_ms = NULL, e2e_from_planned_p50_ms = NULL, "
      "e2e_from_planned_p99_ms = NULL";
  store::Database::open(path, store::Database::Mode::ReadWrite).exec(rowsBeforeV11);
  EXPECT_EQ(store::RunReader(path).windows(id)[0].ttfaP50Ms, std::nullopt);
  EXPECT_EQ(windowsWithStoredPercentiles(store::RunReader(path), id), stored);
  // A window with no histogram of a latency (it had no sample of it) keeps none.
  store::Database::open(path, store::Database::Mode::ReadWrite)
      .exec("DELETE FROM histograms WHERE metric = 'e2e_from_planned' AND window_idx = 2");
  const auto filled = windowsWithStoredPercentiles(store::RunReader(path), id);
  EXPECT_EQ(filled[2].e2eFromPlannedP50Ms, std::nullopt);
  EXPECT_EQ(filled[2].e2eFromPlannedP99Ms, std::nullopt);
  EXPECT_EQ(filled[2].ttfaP50Ms, stored[2].ttfaP50Ms);
  EXPECT_EQ(filled[3], stored[3]);
}

// Windows stored before schema v12 have no time per output token in their rows: it comes from
// their windows' tpot histograms; a run stored before those has none to draw.
TEST(StoredHistograms, WindowsStoredBeforeV12GetTheirTpotFromTheirHistograms) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  FixtureRun fourAnEvent;
  fourAnEvent.tokensPerEvent = 4;
  const int64_t id = fixtures::writeFixtureRun(path, fourAnEvent);
  const auto stored = store::RunReader(path).windows(id);
  ASSERT_EQ(stored.size(), 6u);
  for (const auto& w : stored) {
    ASSERT_TRUE(w.tpotP50Ms && w.tpotP99Ms) << w.idx;
    EXPECT_NEAR(*w.tpotP50Ms, fourAnEvent.itlMs, 0.1) << w.idx;  // per token, not per event
  }
  auto exec = [&](const std::string& sql) {
    store::Database::open(path, store::Database::Mode::ReadWrite).exec(sql);
  };
  exec("UPDATE windows SET tpot_p50_ms = NULL, tpot_p99_ms = NULL");
  EXPECT_EQ(store::RunReader(path).windows(id)[0].tpotP50Ms, std::nullopt);
  EXPECT_EQ(windowsWithStoredPercentiles(store::RunReader(path), id), stored);
  exec("DELETE FROM histograms WHERE metric = 'tpot'");  // a run stored before tpot
  for (const auto& w : windowsWithStoredPercentiles(store::RunReader(path), id)) {
    EXPECT_EQ(w.tpotP50Ms, std::nullopt) << w.idx;
    EXPECT_EQ(w.tpotP99Ms, std::nullopt) << w.idx;
  }
}

// QA (session 18): "errors (% of sent) 33 → 100 (+67, +203.0%)" read as a relative change of a
// percentage; a share's delta is in percentage points, with no relative change.
TEST(CompareMetrics, ASharesDeltaIsInPercentagePoints) {
  MetricRow share{"error_rate_pct", "errors (% of sent)", true, {33.0, 100.0}};
  share.percentage = true;
  EXPECT_EQ(*share.absoluteDelta(1), 67.0);
  EXPECT_FALSE(share.relativeDelta(1));
  EXPECT_EQ(deltaText(share, 1), "+67 pp");
  EXPECT_EQ(share.direction(1), -1);
  TempDir dir;
  std::string path = dir.file("runs.db");
  FixtureRun failing;
  failing.errorEvery = 2;
  int64_t a = fixtures::writeFixtureRun(path, FixtureRun{});
  int64_t b = fixtures::writeFixtureRun(path, failing);
  Comparison c = buildComparison(store::RunReader(path), {a, b}, Slo{100.0, 20.0});
  EXPECT_TRUE(row(c, "error_rate_pct").percentage);
  EXPECT_TRUE(row(c, "goodput_pct").percentage);
  EXPECT_FALSE(row(c, "goodput_rps").percentage);
  EXPECT_EQ(deltaText(row(c, "error_rate_pct"), 1), "+50 pp");
}

TEST(CompareMetrics, RelativeDeltaOfZeroBaselineIsUnknown) {
  MetricRow r{"x", "x", true, {0.0, 5.0}};
  EXPECT_EQ(*r.absoluteDelta(1), 5.0);
  EXPECT_FALSE(r.relativeDelta(1));
  MetricRow missing{"x", "x", true, {std::nullopt, 5.0}};
  EXPECT_FALSE(missing.absoluteDelta(1));
  EXPECT_EQ(deltaText(missing, 1), "-");
}

TEST(CompareMetrics, ErrorRateCountsFailedRequests) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  FixtureRun clean, failing;
  failing.errorEvery = 10;
  int64_t a = fixtures::writeFixtureRun(path, clean);
  int64_t b = fixtures::writeFixtureRun(path, failing);
  Comparison c = buildComparison(store::RunReader(path), {a, b}, Slo{});
  EXPECT_EQ(*row(c, "error_rate_pct").values[0], 0);
  EXPECT_NEAR(*row(c, "error_rate_pct").values[1], 10, 0.01);
}

TEST(CompareGoodput, CountsRequestsMeetingBothLimits) {
  metrics::RequestRecord ok;
  ok.plannedNs = 0;
  ok.sendNs = 10;
  ok.firstTokenNs = 100'000'000;  // 100 ms from planned
  ok.lastTokenNs = ok.firstTokenNs + 9 * 20'000'000;  // 10 tokens, 20 ms apart
  ok.outputTokensClient = 10;
  ok.endNs = ok.lastTokenNs;
  GoodputCounter both(Slo{150.0, 25.0});
  EXPECT_TRUE(both.meets(ok));
  EXPECT_FALSE(GoodputCounter(Slo{99.0, std::nullopt}).meets(ok));
  EXPECT_FALSE(GoodputCounter(Slo{std::nullopt, 19.0}).meets(ok));
  metrics::RequestRecord failed = ok;
  failed.error = metrics::ErrorClass::Timeout;
  EXPECT_FALSE(both.meets(failed));
  metrics::RequestRecord oneToken = ok;  // no gaps: the inter-token limit cannot fail
  oneToken.outputTokensClient = 1;
  EXPECT_TRUE(GoodputCounter(Slo{std::nullopt, 1.0}).meets(oneToken));
  both.add(ok);
  both.add(failed);
  Goodput g = both.result(2.0);
  EXPECT_EQ(g.requests, 2u);
  EXPECT_EQ(g.met, 1u);
  EXPECT_DOUBLE_EQ(g.perSecond(), 0.5);
  EXPECT_DOUBLE_EQ(g.fraction(), 0.5);
}

TEST(CompareGoodput, FromTheDatabaseWithSlowRequests) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  FixtureRun fast, someSlow;
  someSlow.slowShare = 0.25;  // every 4th request has a 500 ms TTFT
  int64_t a = fixtures::writeFixtureRun(path, fast);
  int64_t b = fixtures::writeFixtureRun(path, someSlow);
  Comparison c = buildComparison(store::RunReader(path), {a, b}, Slo{100.0, 15.0});
  ASSERT_EQ(c.goodput.size(), 2u);
  EXPECT_EQ(c.goodput[0].requests, 50u);
  EXPECT_EQ(c.goodput[0].met, 50u);
  EXPECT_EQ(c.goodput[1].met, 50u - 13u);  // i = 0, 4, ..., 48
  EXPECT_DOUBLE_EQ(c.goodput[0].perSecond(), 10.0);
  EXPECT_NEAR(*row(c, "goodput_pct").values[1], 74.0, 1e-9);
  Comparison tight = buildComparison(store::RunReader(path), {a, b}, Slo{std::nullopt, 9.0});
  EXPECT_EQ(tight.goodput[0].met, 0u);  // every gap is 10 ms
}

TEST(CompareCdf, MonotonicEndsAtOneAndBounded) {
  metrics::LatencyHistogram h;
  for (int64_t i = 1; i <= 200'000; ++i) h.record(i * 997 % 5'000'000'000 + 1000);
  for (size_t maxPoints : {2u, 10u, 500u}) {
    auto cdf = latencyCdf(h, maxPoints);
    ASSERT_FALSE(cdf.empty());
    EXPECT_LE(cdf.size(), maxPoints);
    EXPECT_EQ(cdf.back().fraction, 1.0);
    EXPECT_NEAR(cdf.back().valueMs, static_cast<double>(h.max()) / 1e6, 1e-9);
    for (size_t i = 1; i < cdf.size(); ++i) {
      EXPECT_GT(cdf[i].valueMs, cdf[i - 1].valueMs);
      EXPECT_GE(cdf[i].fraction, cdf[i - 1].fraction);
    }
  }
  EXPECT_TRUE(latencyCdf(metrics::LatencyHistogram()).empty());
}

TEST(CompareCdf, KeepsEveryBucketOfASmallHistogram) {
  metrics::LatencyHistogram h;
  h.recordN(1'000'000, 3);
  h.recordN(2'000'000, 1);
  auto cdf = latencyCdf(h);
  ASSERT_EQ(cdf.size(), 2u);
  EXPECT_NEAR(cdf[0].fraction, 0.75, 1e-12);
  EXPECT_EQ(cdf[1].fraction, 1.0);
}

TEST(CompareCdf, StoredRunCdfsExistForEachMetric) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  int64_t a = fixtures::writeFixtureRun(path, FixtureRun{});
  int64_t b = fixtures::writeFixtureRun(path, FixtureRun{});
  Comparison c = buildComparison(store::RunReader(path), {a, b}, Slo{});
  for (const char* metric : kCdfMetrics) {
    const LatencyCdf* cdf = c.cdf(b, metric);
    ASSERT_NE(cdf, nullptr) << metric;
    EXPECT_EQ(cdf->points.back().fraction, 1.0);
  }
  EXPECT_EQ(c.cdf(a, "ttft")->count, 50u);
}

TEST(CompareSeries, MinMaxDecimationKeepsSpikesAndBound) {
  std::vector<SeriesPoint> points;
  for (int i = 0; i < 3600; ++i) points.push_back({double(i), i == 1234 ? 1000.0 : 1.0});
  auto d = decimateMinMax(points, 500);
  EXPECT_LE(d.size(), 500u);
  EXPECT_TRUE(std::any_of(d.begin(), d.end(), [](const SeriesPoint& p) { return p.value == 1000.0; }));
  for (size_t i = 1; i < d.size(); ++i) EXPECT_GT(d[i].tS, d[i - 1].tS);
  std::vector<SeriesPoint> small(points.begin(), points.begin() + 10);
  EXPECT_EQ(decimateMinMax(small, 500), small);
}

TEST(CompareSweep, OnePointPerStageWithMeasuredRates) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  FixtureRun sweep;
  sweep.stages = {{10, 5}, {40, 5}};
  sweep.ramp = true;  // then 40 → 80/s over 20 s: two parts of 10 s
  int64_t a = fixtures::writeFixtureRun(path, sweep);
  int64_t b = fixtures::writeFixtureRun(path, FixtureRun{});
  Comparison c = buildComparison(store::RunReader(path), {a, b}, Slo{});
  const auto& points = c.loadLatency[0];
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[0].label, "stage 1 (10/s)");
  EXPECT_NEAR(points[0].requestedRps, 10, 0.5);
  EXPECT_NEAR(points[1].requestedRps, 40, 0.5);
  EXPECT_GT(points[3].requestedRps, points[2].requestedRps);
  EXPECT_NEAR(points[1].ttftP99Ms.value_or(-1), 50, 0.5);
  ASSERT_EQ(c.loadLatency[1].size(), 1u);  // not a sweep: the whole run
  EXPECT_EQ(c.loadLatency[1][0].label, "whole run");
}

// QA (session 18): a run where nothing completed was drawn at (its rate, 0 ms) on the latency
// vs throughput plot, the best-looking point of all; and the "achieved" series counted
// completions per second where the table's achieved_rps (and History's) is the sent rate.
TEST(CompareSweep, NothingCompletedIsNoPointAndAchievedIsTheSentRate) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  FixtureRun half, failing;
  half.errorEvery = 2;  // every other request fails
  failing.errorEvery = 1;
  int64_t a = fixtures::writeFixtureRun(path, half);
  int64_t b = fixtures::writeFixtureRun(path, failing);
  Comparison c = buildComparison(store::RunReader(path), {a, b}, Slo{});
  ASSERT_EQ(c.loadLatency[0].size(), 1u);
  EXPECT_NEAR(c.loadLatency[0][0].completedRps, 5, 0.5);  // 10/s asked, half completed
  EXPECT_NEAR(c.loadLatency[0][0].ttftP99Ms.value_or(-1), 50, 0.5);
  EXPECT_TRUE(c.loadLatency[1].empty()) << "nothing completed: no latency, no point";
  for (size_t run : {0u, 1u}) {
    const auto& achieved = c.series[run][static_cast<size_t>(SeriesMetric::AchievedRps)];
    const auto& completed = c.series[run][static_cast<size_t>(SeriesMetric::CompletedRps)];
    ASSERT_FALSE(achieved.empty());
    // One rate per window of the 5 s run. The window after its end (the drain: the last
    // replies of the run whose requests complete) has none, where completions still count;
    // the failing run's requests fail at once, so it has no drain.
    ASSERT_EQ(achieved.size(), 5u) << "run " << run;
    ASSERT_EQ(completed.size(), run == 0 ? 6u : 5u);
    double sent = 0, done = 0;
    for (const auto& p : achieved) sent += p.value;
    for (const auto& p : completed) done += p.value;
    // 1 s windows: the per-second values add up to the counts (10/s for 5 s).
    EXPECT_NEAR(sent, 50, 0.01) << "run " << run;
    EXPECT_NEAR(done, run == 0 ? 25 : 0, 0.01) << "run " << run;
  }
  EXPECT_TRUE(c.series[1][static_cast<size_t>(SeriesMetric::TtftP99Ms)].empty());
}

// A non-streaming run measures no TTFT and no inter-token gaps: its points have none, and the
// JSON says null rather than 0 ms (QA: "ttft_p50_ms": 0.0 beside a table that said none).
TEST(CompareSweep, LatencyNoRequestMeasuredIsNoneNotZero) {
  const nlohmann::json spec = {
      {"load",
       {{"stages", {{{"rate", 10}, {"duration_s", 2}}, {{"rate", 20}, {"duration_s", 2}}}}}}};
  std::vector<store::WindowRow> windows;
  WindowLatency latency;
  for (int64_t i = 0; i < 4; ++i) {
    store::WindowRow w;
    w.idx = i;
    w.startNs = i * 1'000'000'000;
    w.lengthNs = 1'000'000'000;
    w.planned = w.sent = w.completed = i < 2 ? 10 : 20;
    windows.push_back(w);
    metrics::LatencyHistogram e2e;
    e2e.record(200'000'000);
    latency.e2e.emplace_back(i, e2e);
  }
  const auto points = loadLatencyPoints(spec, windows, latency);
  ASSERT_EQ(points.size(), 2u);
  for (const auto& p : points) {
    EXPECT_FALSE(p.ttftP50Ms.has_value());
    EXPECT_FALSE(p.ttftP99Ms.has_value());
    EXPECT_FALSE(p.itlP99Ms.has_value());
    EXPECT_NEAR(p.e2eP99Ms.value_or(-1), 200, 1);
  }
}

TEST(CompareCommand, TextPutsWarningsFirstAndJsonHasEverySection) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  FixtureRun greedy;
  greedy.temperature = 0.0;
  fixtures::writeFixtureRun(path, FixtureRun{});
  fixtures::writeFixtureRun(path, greedy);
  std::ostringstream out, err;
  ASSERT_EQ(runsCompare(path, {1, 2}, Slo{100.0, 20.0}, "text", out, err), 0) << err.str();
  EXPECT_EQ(out.str().rfind("comparability warnings (1):\n  ! [sampling]", 0), 0u) << out.str();
  EXPECT_NE(out.str().find("goodput"), std::string::npos);
  std::ostringstream json;
  ASSERT_EQ(runsCompare(path, {2, 1}, Slo{}, "json", json, err), 0);
  auto j = nlohmann::json::parse(json.str());
  for (const char* key : {"runs", "warnings", "metrics", "cdfs", "load_latency", "series"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["runs"][0]["id"], 2);
  EXPECT_EQ(j["warnings"][0]["kind"], "sampling");
}

TEST(CompareCommand, BadInputIsExit2WithAClearMessage) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  fixtures::writeFixtureRun(path, FixtureRun{});
  fixtures::writeFixtureRun(path, FixtureRun{});
  auto run = [&](std::vector<int64_t> ids, Slo slo, std::string format, std::string db) {
    std::ostringstream out, err;
    int rc = runsCompare(db, ids, slo, format, out, err);
    return std::make_pair(rc, err.str());
  };
  auto [rc1, e1] = run({1}, {}, "text", path);
  EXPECT_EQ(rc1, 2);
  EXPECT_NE(e1.find("give 2 to 4 run ids (got 1)"), std::string::npos) << e1;
  EXPECT_EQ(run({1, 2, 1, 2, 1}, {}, "text", path).first, 2);
  auto [rc2, e2] = run({1, 7}, {}, "text", path);
  EXPECT_EQ(rc2, 2);
  EXPECT_NE(e2.find("no run with id 7"), std::string::npos) << e2;
  auto [rc3, e3] = run({1, 2}, Slo{-1.0, std::nullopt}, "text", path);
  EXPECT_EQ(rc3, 2);
  EXPECT_NE(e3.find("--slo-ttft-ms must be a positive"), std::string::npos) << e3;
  EXPECT_EQ(run({1, 2}, {}, "yaml", path).first, 2);
  auto [rc4, e4] = run({1, 2}, {}, "text", dir.file("missing.db"));
  EXPECT_EQ(rc4, 2);
  EXPECT_NE(e4.find("missing.db"), std::string::npos);
}

}  // namespace
}  // namespace plumbline::compare
