#include <gtest/gtest.h>

#include "core/workload/rate_curve.h"
#include "workload_test_support.h"

using namespace plumbline::workload;
using plumbline::testing::specWithStages;
using json = nlohmann::json;

TEST(RateCurve, StagesAndRampsBecomeAPolyline) {
  const auto spec = specWithStages(
      json::parse(R"([{"rate":5,"duration_s":10},{"ramp_to":40,"duration_s":20},{"rate":40,"duration_s":30}])"),
      "poisson");
  const auto points = plannedRateCurve(spec.load);
  ASSERT_EQ(points.size(), 6u);
  EXPECT_DOUBLE_EQ(points[0].timeS, 0);
  EXPECT_DOUBLE_EQ(points[0].rate, 5);
  EXPECT_DOUBLE_EQ(points[1].timeS, 10);
  EXPECT_DOUBLE_EQ(points[1].rate, 5);
  EXPECT_DOUBLE_EQ(points[2].rate, 5);  // the ramp starts where the last stage ended
  EXPECT_DOUBLE_EQ(points[3].timeS, 30);
  EXPECT_DOUBLE_EQ(points[3].rate, 40);
  EXPECT_DOUBLE_EQ(points[5].timeS, 60);
}

TEST(RateCurve, ArrivalHistogramCountsPerSecond) {
  const std::vector<double> arrivals = {0.1, 0.2, 0.3, 1.5, 2.9, 2.95, 7.0 /* outside */};
  const auto points = arrivalHistogram(arrivals, 3.0, 1.0);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_DOUBLE_EQ(points[0].rate, 3);
  EXPECT_DOUBLE_EQ(points[1].rate, 1);
  EXPECT_DOUBLE_EQ(points[2].rate, 2);
  EXPECT_DOUBLE_EQ(points[2].timeS, 2);
}

TEST(RateCurve, ShortLastBinIsScaledToItsWidth) {
  const auto points = arrivalHistogram({0.5, 2.1, 2.2}, 2.5, 1.0);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_DOUBLE_EQ(points[2].rate, 4);  // 2 arrivals in half a second
}

TEST(RateCurve, PlannedArrivalsFollowTheRamp) {
  const auto spec = specWithStages(
      json::parse(R"([{"rate":100,"ramp_to":300,"duration_s":20}])"), "constant");
  const auto arrivals = plannedArrivals(spec);
  EXPECT_EQ(arrivals.size(), 4000u);
  const auto points = arrivalHistogram(arrivals, 20, 1);
  ASSERT_EQ(points.size(), 20u);
  EXPECT_NEAR(points.front().rate, 105, 2);
  EXPECT_NEAR(points.back().rate, 295, 2);
}

TEST(RateCurve, PlannedArrivalsStopAtTheLimit) {
  const auto spec = specWithStages(json::parse(R"([{"rate":100,"duration_s":20}])"), "poisson");
  EXPECT_EQ(plannedArrivals(spec, 50).size(), 50u);
}

TEST(RateCurve, NiceBinWidths) {
  EXPECT_DOUBLE_EQ(niceBinWidth(60, 120), 0.5);
  EXPECT_DOUBLE_EQ(niceBinWidth(180, 120), 2);
  EXPECT_DOUBLE_EQ(niceBinWidth(3600, 120), 50);
  EXPECT_DOUBLE_EQ(niceBinWidth(0, 120), 1);
}
