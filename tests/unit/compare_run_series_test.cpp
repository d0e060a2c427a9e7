#include <gtest/gtest.h>

#include "core/compare/run_series.h"

namespace plumbline::compare {
namespace {

store::WindowRow window(int64_t idx, int64_t completed) {
  store::WindowRow w;
  w.idx = idx;
  w.startNs = idx * 1'000'000'000;
  w.lengthNs = 1'000'000'000;
  w.completed = completed;
  return w;
}

// QA: Compare's "TTFT p99" of a non-streaming run was a line at 0 ms beside a table saying "–".
TEST(CompareRunSeries, ALatencyNoWindowMeasuredHasNoPoints) {
  std::vector<store::WindowRow> windows = {window(0, 5), window(1, 5)};
  windows[0].e2eP99Ms = 200;
  windows[1].e2eP99Ms = 210;
  EXPECT_TRUE(windowSeries(windows, SeriesMetric::TtftP99Ms).empty());
  EXPECT_TRUE(windowSeries(windows, SeriesMetric::ItlP99Ms).empty());
  EXPECT_EQ(windowSeries(windows, SeriesMetric::E2eP99Ms).size(), 2u);
}

// QA: inter-token p50 ramped 8 → 250 ms over 9–22 s although the windows 9–20 all said 250 ms:
// they were dropped for having no completion. Gaps arrive while streams run.
TEST(CompareRunSeries, LatenciesFromPlannedAndTtfaAreSeriesOfTheirOwn) {
  std::vector<store::WindowRow> windows = {window(0, 5), window(1, 5)};
  windows[0].ttftFromPlannedP99Ms = 300;
  windows[1].ttftFromPlannedP99Ms = 40;
  windows[1].e2eFromPlannedP99Ms = 900;
  windows[0].ttfaP99Ms = 120;
  EXPECT_EQ(windowSeries(windows, SeriesMetric::TtftFromPlannedP99Ms),
            (std::vector<SeriesPoint>{{0, 300, false}, {1, 40, false}}));
  EXPECT_EQ(windowSeries(windows, SeriesMetric::E2eFromPlannedP99Ms),
            (std::vector<SeriesPoint>{{1, 900, false}}));
  EXPECT_EQ(windowSeries(windows, SeriesMetric::TtfaP99Ms),
            (std::vector<SeriesPoint>{{0, 120, false}}));
  EXPECT_EQ(seriesMetricFromName("e2e_from_planned_p99_ms"), SeriesMetric::E2eFromPlannedP99Ms);
  EXPECT_EQ(seriesMetricLabel(SeriesMetric::TtfaP99Ms), "TTFA p99 (ms)");
}

// The time per output token over time: a window where no stream of two tokens ended has none,
// and the line breaks there.
TEST(CompareRunSeries, TpotIsASeriesOfItsOwn) {
  std::vector<store::WindowRow> windows = {window(0, 5), window(1, 5), window(2, 5)};
  windows[0].itlP99Ms = 22;
  windows[0].tpotP99Ms = 5.5;
  windows[2].tpotP99Ms = 6.25;
  EXPECT_EQ(windowSeries(windows, SeriesMetric::TpotP99Ms),
            (std::vector<SeriesPoint>{{0, 5.5, false}, {2, 6.25, true}}));
  EXPECT_EQ(seriesMetricFromName("tpot_p99_ms"), SeriesMetric::TpotP99Ms);
  EXPECT_EQ(seriesMetricLabel(SeriesMetric::TpotP99Ms), "TPOT p99 (ms)");
}

TEST(CompareRunSeries, InterTokenGapsCountInWindowsWithoutCompletions) {
  std::vector<store::WindowRow> windows = {window(0, 3), window(1, 0), window(2, 0)};
  windows[0].itlP99Ms = 8;
  windows[1].itlP99Ms = 250;
  windows[2].itlP99Ms = 250;
  const auto s = windowSeries(windows, SeriesMetric::ItlP99Ms);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[1], (SeriesPoint{1, 250, false}));
}

TEST(CompareRunSeries, ThePointAfterWindowsWithoutSamplesStartsANewLine) {
  std::vector<store::WindowRow> windows = {window(0, 0), window(1, 1), window(2, 0),
                                           window(3, 0), window(4, 1), window(5, 1)};
  windows[1].e2eP99Ms = 100;
  windows[4].e2eP99Ms = 300;
  windows[5].e2eP99Ms = 310;
  const auto s = windowSeries(windows, SeriesMetric::E2eP99Ms);
  // The first point has no line before it to break: window 0 is not a gap inside the line.
  EXPECT_EQ(s, (std::vector<SeriesPoint>{{1, 100, false}, {4, 300, true}, {5, 310, false}}));
}

// A run that fell behind sent its first windows' requests in later ones. Compare's achieved
// line counted each window's planned requests whenever they went (`sent`), so it showed
// achieved = requested where nothing went out, unlike History's. Since schema v8 the sends made
// during each window are stored; a run stored before has only `sent`.
TEST(CompareRunSeries, AchievedIsWhatWasSentDuringEachWindow) {
  std::vector<store::WindowRow> windows = {window(0, 0), window(1, 0), window(2, 0)};
  for (auto& w : windows) w.planned = w.sent = 10;
  windows[0].sentDuring = 0;
  windows[1].sentDuring = 4;
  windows[2].sentDuring = 26;
  EXPECT_EQ(windowSeries(windows, SeriesMetric::AchievedRps),
            (std::vector<SeriesPoint>{{0, 0, false}, {1, 4, false}, {2, 26, false}}));
  EXPECT_EQ(windowSeries(windows, SeriesMetric::RequestedRps),
            (std::vector<SeriesPoint>{{0, 10, false}, {1, 10, false}, {2, 10, false}}));
  for (auto& w : windows) w.sentDuring.reset();  // stored before v8
  EXPECT_EQ(windowSeries(windows, SeriesMetric::AchievedRps)[0].value, 10);
}

// The rates stop at the run's end as History's do: the window the end falls in is over the part
// the run lasted, and the drain after it (requests still finishing) has no rate, not a fall to 0.
TEST(CompareRunSeries, RatesStopAtTheRunsEnd) {
  std::vector<store::WindowRow> windows = {window(0, 10), window(1, 10), window(2, 10),
                                           window(3, 4)};
  for (auto& w : windows) w.planned = w.sent = 0;
  windows[0].planned = windows[1].planned = 20;
  windows[2].planned = 10;  // the run ended at 2.5 s
  windows[0].sentDuring = windows[1].sentDuring = 20;
  windows[2].sentDuring = 10;
  windows[3].sentDuring = 0;
  EXPECT_EQ(windowSeries(windows, SeriesMetric::RequestedRps, 2.5),
            (std::vector<SeriesPoint>{{0, 20, false}, {1, 20, false}, {2, 20, false}}));
  EXPECT_EQ(windowSeries(windows, SeriesMetric::AchievedRps, 2.5),
            (std::vector<SeriesPoint>{{0, 20, false}, {1, 20, false}, {2, 20, false}}));
  EXPECT_EQ(windowSeries(windows, SeriesMetric::CompletedRps, 2.5).size(), 4u);  // drain too
  EXPECT_EQ(windowSeries(windows, SeriesMetric::RequestedRps).back().value, 0);  // no end given
}

TEST(CompareRunSeries, DecimationKeepsAGapInsideABin) {
  std::vector<SeriesPoint> points;
  for (int i = 0; i < 3600; ++i) points.push_back({double(i), 1.0, i == 2001});
  const auto d = decimateMinMax(points, 500);
  ASSERT_LE(d.size(), 500u);
  const auto gaps =
      std::count_if(d.begin(), d.end(), [](const SeriesPoint& p) { return p.gapBefore; });
  EXPECT_EQ(gaps, 1);
  const auto gap =
      std::find_if(d.begin(), d.end(), [](const SeriesPoint& p) { return p.gapBefore; });
  EXPECT_NEAR(gap->tS, 2001, 3600.0 / 250);  // in the bin that held it
}

}  // namespace
}  // namespace plumbline::compare
