#include "core/metrics/series_decimator.h"

#include <gtest/gtest.h>

#include <algorithm>

using plumbline::metrics::SeriesDecimator;
using plumbline::metrics::SeriesPoint;

TEST(SeriesDecimator, KeepsEveryPointWhileShort) {
  SeriesDecimator d(100);
  for (int i = 0; i < 50; ++i) d.append(i * 0.25, i * 2.0);
  const auto pts = d.points();
  ASSERT_EQ(pts.size(), 50u);
  EXPECT_EQ(pts[7], (SeriesPoint{1.75, 14.0}));
}

TEST(SeriesDecimator, StaysBoundedOverAnHourOfTicks) {
  SeriesDecimator d(500);
  for (int i = 0; i < 4 * 3600; ++i) d.append(i * 0.25, (i % 7) * 1.0);
  EXPECT_LE(d.binCount(), 500u);
  EXPECT_LE(d.points().size(), 1001u);
  EXPECT_GT(d.points().size(), 200u);
}

TEST(SeriesDecimator, EndsAtTheNewestPoint) {
  // A chart reaches the present even when the newest point is neither its bin's min nor max.
  SeriesDecimator d(10);
  for (int i = 0; i <= 1000; ++i) d.append(i, i % 3 == 1 ? 5.0 : 1.0);
  d.append(1000.5, 3.0);
  const auto pts = d.points();
  EXPECT_EQ(pts.back(), (SeriesPoint{1000.5, 3.0}));
  EXPECT_TRUE(std::is_sorted(pts.begin(), pts.end(), [](auto& a, auto& b) { return a.x < b.x; }));
}

TEST(SeriesDecimator, KeepsPeaksAndTroughs) {
  SeriesDecimator d(100);
  for (int i = 0; i < 10000; ++i) d.append(i, i == 5123 ? 1e6 : (i == 8000 ? -5.0 : 1.0));
  const auto pts = d.points();
  EXPECT_TRUE(std::any_of(pts.begin(), pts.end(), [](const SeriesPoint& p) { return p.y == 1e6 && p.x == 5123; }));
  EXPECT_TRUE(std::any_of(pts.begin(), pts.end(), [](const SeriesPoint& p) { return p.y == -5.0; }));
  EXPECT_TRUE(std::is_sorted(pts.begin(), pts.end(), [](auto& a, auto& b) { return a.x < b.x; }));
}

TEST(SeriesDecimator, IgnoresPointsGoingBackInTime) {
  SeriesDecimator d(10);
  d.append(2, 1);
  d.append(1, 9);
  ASSERT_EQ(d.points().size(), 1u);
  EXPECT_EQ(d.last(), (SeriesPoint{2, 1}));
}

TEST(SeriesDecimator, PointsIntoMatchesPointsAndReusesItsBuffer) {
  SeriesDecimator d(8);
  std::vector<SeriesPoint> out;
  out.reserve(2 * 8 + 1);
  const SeriesPoint* buffer = out.data();
  for (int i = 0; i < 1000; ++i) {
    d.append(i * 0.25, (i * 37) % 11);
    d.pointsInto(out);
    ASSERT_EQ(out, d.points()) << "after " << i + 1 << " points";
    ASSERT_EQ(out.data(), buffer) << "pointsInto reallocated after " << i + 1 << " points";
  }
  out.push_back({-1, -1});
  d.pointsInto(out);  // cleared first, not appended to
  EXPECT_EQ(out, d.points());
}
