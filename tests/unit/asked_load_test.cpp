// The report says what load the workload asked for beside "requested", the schedule as drawn
// (QA: `--rate 20` appeared nowhere beside "requested 20.93 rps").
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/engine/asked_load.h"
#include "core/engine/terminal_report.h"
#include "core/workload/workload_loader.h"

namespace plumbline::engine {
namespace {

nlohmann::json workloadWith(nlohmann::json load) {
  return {{"plumbline", 1},
          {"name", "asked"},
          {"target", {{"url", "embedded"}}},
          {"load", std::move(load)},
          {"requests",
           {{"input_tokens", {{"dist", "fixed"}, {"value", 8}}},
            {"output_tokens", {{"dist", "fixed"}, {"value", 2}}}}}};
}

TEST(AskedLoad, SaysTheArrivalTheMeanRateAndTheStages) {
  auto spec = workload::parseWorkload(
      workloadWith({{"arrival", "poisson"},
                    {"stages", nlohmann::json::array({{{"rate", 5}, {"duration_s", 10}}})}}));
  workload::overrideLoad(spec, 20.0, 6.0);  // --rate 20 --duration 6
  EXPECT_EQ(describeAskedLoad(spec),
            "poisson arrivals at 20.00 requests/s on average over 6.00 s (1 stage)");
  auto ramp = workload::parseWorkload(workloadWith(
      {{"arrival", "constant"},
       {"stages", nlohmann::json::array({{{"rate", 10}, {"duration_s", 10}},
                                         {{"rate", 10}, {"ramp_to", 30}, {"duration_s", 10}}})}}));
  EXPECT_EQ(describeAskedLoad(ramp),
            "constant arrivals at 15.00 requests/s on average over 20.00 s (2 stages)");
}

TEST(AskedLoad, SessionsOfSeveralRequestsAreCountedAsSessions) {
  auto w = workloadWith({{"arrival", "poisson"},
                         {"stages", nlohmann::json::array({{{"rate", 4}, {"duration_s", 12}}})}});
  w["session"] = {{"shape", "multi_turn"},
                  {"turns", {{"dist", "fixed"}, {"value", 3}}},
                  {"think_time_s", {{"dist", "fixed"}, {"value", 1}}}};
  EXPECT_EQ(describeAskedLoad(workload::parseWorkload(w)),
            "poisson arrivals at 4.00 sessions/s on average over 12.00 s (1 stage); session "
            "shape multi_turn, several requests each");
}

TEST(AskedLoad, TheReportSaysItUnderRequested) {
  metrics::RunSummary s;
  s.requestedRps = 20.93;
  s.askedLoad = "poisson arrivals at 20.00 requests/s on average over 6.00 s (1 stage)";
  const std::string report = formatRunReport(s, {});
  EXPECT_NE(report.find("requested 20.93 rps"), std::string::npos) << report;
  EXPECT_NE(report.find("\n  asked: poisson arrivals at 20.00 requests/s"), std::string::npos)
      << report;
}

}  // namespace
}  // namespace plumbline::engine
