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
