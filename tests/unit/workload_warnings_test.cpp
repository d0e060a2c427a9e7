#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "core/workload/plan_command.h"
#include "core/workload/workload_warnings.h"
#include "workload_test_support.h"

using namespace plumbline::workload;
using plumbline::testing::validDocument;
using json = nlohmann::json;

namespace {
/// A document that draws no warning: long enough, explicit temperature, ignore_eos.
json quietDocument() {
  auto d = validDocument();
  d["load"]["stages"] = json::parse(R"([{"rate":50,"duration_s":60}])");
  d["requests"]["sampling"] = json::parse(R"({"temperature":0.7,"ignore_eos":true})");
  return d;
}
std::vector<std::string> pathsOf(const json& document) {
  std::vector<std::string> paths;
  for (const auto& w : workloadWarnings(parseWorkload(document))) paths.push_back(w.path);
  return paths;
}
bool hasPath(const std::vector<std::string>& paths, const std::string& path) {
  return std::find(paths.begin(), paths.end(), path) != paths.end();
}
/// The message of the warning at `path`, or "none".
std::string messageAt(const WorkloadSpec& spec, const std::string& path) {
  for (const auto& w : workloadWarnings(spec))
    if (w.path == path) return w.message;
  return "none";
}
}  // namespace

TEST(WorkloadWarnings, QuietDocumentHasNone) { EXPECT_TRUE(pathsOf(quietDocument()).empty()); }

TEST(WorkloadWarnings, TemperatureZeroAndAbsent) {
  auto d = quietDocument();
  d["requests"]["sampling"]["temperature"] = 0;
  EXPECT_TRUE(hasPath(pathsOf(d), "requests.sampling.temperature"));
  d["requests"]["sampling"].erase("temperature");
  EXPECT_TRUE(hasPath(pathsOf(d), "requests.sampling.temperature"));
}

TEST(WorkloadWarnings, NaturalLengthsAndMaxTokensCap) {
  auto d = quietDocument();
  d["requests"]["sampling"]["ignore_eos"] = false;
  EXPECT_TRUE(hasPath(pathsOf(d), "requests.sampling.ignore_eos"));
  d["requests"]["sampling"]["ignore_eos"] = true;
  d["requests"]["sampling"]["max_tokens"] = 5;  // output draws are fixed 20
  EXPECT_TRUE(hasPath(pathsOf(d), "requests.sampling.max_tokens"));
  d["requests"]["sampling"]["max_tokens"] = 50;
  EXPECT_FALSE(hasPath(pathsOf(d), "requests.sampling.max_tokens"));
}

TEST(WorkloadWarnings, RatePastTheEmbeddedEngine) {
  auto d = quietDocument();
  d["target"] = json::parse(R"({"url":"embedded","mock":{"preset":"overloaded"}})");
  d["requests"]["output_tokens"] = json::parse(R"({"dist":"fixed","value":500})");
  d["load"]["stages"] = json::parse(R"([{"rate":10,"duration_s":60},{"ramp_to":2000,"duration_s":60}])");
  EXPECT_TRUE(hasPath(pathsOf(d), "load.stages[1].ramp_to"));
  d["load"]["stages"] = json::parse(R"([{"rate":1,"duration_s":1200}])");
  EXPECT_FALSE(hasPath(pathsOf(d), "load.stages[0].rate"));
}

TEST(WorkloadWarnings, InFlightAboveTheCap) {
  auto d = quietDocument();  // default preset: 50 ms + 20 × 10 ms = 0.25 s a request
  d["load"]["max_in_flight"] = 10;
  EXPECT_TRUE(hasPath(pathsOf(d), "load.max_in_flight"));  // 50/s × 0.25 s = 12.5
  d["load"]["max_in_flight"] = 20;
  EXPECT_FALSE(hasPath(pathsOf(d), "load.max_in_flight"));
}

TEST(WorkloadWarnings, ShortRunsAndTooFewRequests) {
  auto d = quietDocument();
  d["load"]["stages"] = json::parse(R"([{"rate":100,"duration_s":5},{"rate":1,"duration_s":2}])");
  const auto paths = pathsOf(d);
  EXPECT_TRUE(hasPath(paths, "load.stages"));                // 7 s, 502 requests
  EXPECT_TRUE(hasPath(paths, "load.stages[1].duration_s"));  // 2 sessions
  EXPECT_EQ(std::count(paths.begin(), paths.end(), "load.stages"), 2);
}

TEST(WorkloadWarnings, GammaBurstBeyondTheRateOfAShortSchedule) {
  auto d = quietDocument();  // 3000 sessions
  d["load"]["arrival"] = "gamma";
  d["load"]["cv"] = 10;  // a burst of 49.5: 1.65%
  EXPECT_FALSE(hasPath(pathsOf(d), "load.cv"));
  d["load"]["cv"] = 30;  // 449.5: 15%
  EXPECT_EQ(messageAt(parseWorkload(d), "load.cv"),
            "cv 30 opens the schedule with a burst of about 450 sessions beyond rate × duration "
            "(15% more than its 3000): the mean rate will be above the rate asked for; a schedule "
            "of 8990 sessions or more keeps it under 5%, or lower cv");
}

// QA: a think time of 1e6 s on a 2 s schedule was accepted with no word.
TEST(WorkloadWarnings, ADelayLongerThanTheScheduleIsAUnitSlip) {
  auto d = quietDocument();  // 60 s
  d["session"] = json::parse(R"({"shape":"multi_turn","turns":{"dist":"fixed","value":2},
                                 "think_time_s":{"dist":"uniform","min":30,"max":60}})");
  EXPECT_FALSE(hasPath(pathsOf(d), "session.think_time_s"));
  d["session"]["think_time_s"] = json::parse(R"({"dist":"fixed","value":1000})");
  EXPECT_EQ(messageAt(parseWorkload(d), "session.think_time_s"),
            "a think time of about 1000 s is longer than the whole schedule (60 s): every "
            "session's later requests come after it, and the run stays open for them; the unit "
            "is seconds, not milliseconds");
  d["session"] = json::parse(R"({"shape":"agentic","steps":{"dist":"fixed","value":2},
                                 "tool_result_tokens":{"dist":"fixed","value":5},
                                 "tool_latency_s":{"dist":"exponential","mean":400}})");
  EXPECT_TRUE(hasPath(pathsOf(d), "session.tool_latency_s"));
}

// QA: `run --duration 8` on 10/s, a ramp to 80/s, 0/s and 20/s sent a flat 10/s with no word.
TEST(WorkloadWarnings, AFlagAloneThatFlattensTheStagesSaysSo) {
  auto d = quietDocument();
  d["load"]["stages"] = json::parse(R"([{"rate":10,"duration_s":4},{"ramp_to":80,"duration_s":8},
                                        {"rate":0,"duration_s":4},{"rate":20,"duration_s":4}])");
  auto spec = parseWorkload(d);
  overrideLoad(spec, std::nullopt, 8.0);
  EXPECT_EQ(messageAt(spec, "--duration"),
            "the workload's 4 stages were replaced by one stage of 10 sessions/s for 8 s (the "
            "first stage's rate); give both --rate and --duration to mean that, or edit the "
            "stages to keep the profile");
  spec = parseWorkload(d);
  overrideLoad(spec, 5.0, std::nullopt);
  EXPECT_EQ(workloadWarnings(spec)[0].path, "--rate");
  spec = parseWorkload(d);
  overrideLoad(spec, 5.0, 8.0);
  for (const auto& w : workloadWarnings(spec)) EXPECT_NE(w.path.rfind("--", 0), 0u) << w.path;
  spec = parseWorkload(quietDocument());  // one flat stage: nothing is lost
  overrideLoad(spec, std::nullopt, 8.0);
  for (const auto& w : workloadWarnings(spec)) EXPECT_NE(w.path, "--duration");
}

// QA: {"n": 4, "max_completion_tokens": 3} in extra drew no word, and the ignore_eos length
// check then compared against a length the server was never asked for.
TEST(WorkloadWarnings, ExtraFieldsThatChangeTheOutputLengthAreWarnedOf) {
  auto d = quietDocument();
  d["requests"]["sampling"]["extra"] = json::parse(R"({"presence_penalty": 0.5})");
  EXPECT_TRUE(pathsOf(d).empty());
  d["requests"]["sampling"]["extra"] = json::parse(R"({"n": 4, "max_completion_tokens": 3})");
  const auto warnings = workloadWarnings(parseWorkload(d));
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0].path, "requests.sampling.extra.n");
  EXPECT_EQ(warnings[1].path, "requests.sampling.extra.max_completion_tokens");
  EXPECT_EQ(warnings[0].message,
            "sent as written, but it changes the replies' length or number: the output length "
            "check (with ignore_eos) compares the server's output tokens against the planned "
            "length, and may blame a server that did as asked");
  d["requests"]["sampling"]["extra"] = json::parse(R"({"best_of": 2})");
  EXPECT_TRUE(hasPath(pathsOf(d), "requests.sampling.extra.best_of"));
}

TEST(WorkloadWarnings, PlanPrintsThemAndJsonHasThem) {
  std::ostringstream out, err;
  const std::string file = std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/constant_500rps_stream.json";
  ASSERT_EQ(planCommand(file, false, out, err), 0);
  EXPECT_NE(out.str().find("warnings\n  requests.sampling.temperature: temperature 0"),
            std::string::npos);
  std::ostringstream jsonOut;
  ASSERT_EQ(planCommand(file, true, jsonOut, err), 0);
  const auto document = json::parse(jsonOut.str());
  ASSERT_TRUE(document["warnings"].is_array());
  bool found = false;
  for (const auto& w : document["warnings"])
    found |= w["path"] == "requests.sampling.temperature";
  EXPECT_TRUE(found);
}
