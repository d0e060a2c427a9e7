// Issue 2's acceptance runs, end to end with real processes on loopback: the harness keeps up
// when it can, measures what the mock was told to do, and says so when it cannot keep up.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/metrics/verdict.h"
#include "core/mock/embedded_target.h"
#include "tests/integration/child_process.h"
#include "tests/integration/db_query.h"
#include "tests/integration/machine_holds.h"
#include "tests/integration/mock_http.h"
#include "tests/integration/timing_budget.h"

using nlohmann::json;
using plumbline::test::ChildProcess;
using plumbline::test::TempDir;
using plumbline::test::kMachinePauseBudgetMs;
using plumbline::test::kTimingChecked;

namespace {


json honestyWorkload(double rate, double durationS, bool stream, int outputTokens) {
  return json{{"plumbline", 1},
              {"verdict", {{"send_lag_tolerance_ms", kMachinePauseBudgetMs}}},
              {"name", "integration"},
              {"target", {{"url", "embedded"}, {"api", "chat"}, {"model", "mock"}, {"stream", stream}}},
              {"load", {{"arrival", "constant"}, {"seed", 3},
                        {"stages", json::array({{{"rate", rate}, {"duration_s", durationS}}})}}},
              {"requests", {{"input_tokens", {{"dist", "fixed"}, {"value", 64}}},
                            {"output_tokens", {{"dist", "fixed"}, {"value", outputTokens}}},
                            {"sampling", {{"temperature", 0.0}, {"ignore_eos", true}}}}}};
}

std::string writeFile(const TempDir& dir, const std::string& name, const json& j) {
  const std::string path = dir.file(name);
  std::ofstream(path) << j.dump(2);
  return path;
}

plumbline::mock::EmbeddedTarget startHonestyMock(std::optional<double> ttftMs, std::optional<double> itlMs) {
  plumbline::mock::EmbeddedTargetOptions o;
  o.executable = PLUMBLINE_BIN;
  o.ttftMs = ttftMs;
  o.itlMs = itlMs;
  return plumbline::mock::EmbeddedTarget(o);
}

struct HonestyRun {
  int exitCode;
  json summary;
  std::string output;
};

/// `quiet`: without the terminal report (its notes included) on the output.
HonestyRun runPlumbline(const TempDir& dir, const json& w, const std::string& target,
                        std::vector<std::string> extra, int timeoutMs, bool quiet = true) {
  const std::string wl = writeFile(dir, "w.json", w);
  std::vector<std::string> args{PLUMBLINE_BIN,
                                "run",
                                wl,
                                "--target",
                                target,
                                "--db",
                                dir.file("runs.db"),
                                "--summary-json",
                                dir.file("summary.json")};
  if (quiet) args.push_back("--quiet");
  args.insert(args.end(), extra.begin(), extra.end());
  ChildProcess p(args, dir.file("out.txt"));
  const int code = p.wait(timeoutMs);
  HonestyRun r{code, json(), p.output()};
  std::ifstream in(dir.file("summary.json"));
  if (in) r.summary = json::parse(in);
  return r;
}

// Sanitized builds (ASan + UBSan, -O0: what CI runs) make every request several times dearer,
// and the rest of the suite shares the machine; timing is not judged there (kTimingChecked).
constexpr double kKeepUpRate = kTimingChecked ? 500 : 100;

/// One keep-up run against its own mock, and what the mock counted.
struct KeepUpAttempt : HonestyRun {
  json mockStats;
};

KeepUpAttempt keepUpAttempt(std::optional<double> ttftMs, std::optional<double> itlMs,
                            const json& workload, const std::string& workers) {
  TempDir dir;
  auto mock = startHonestyMock(ttftMs, itlMs);
  KeepUpAttempt a{runPlumbline(dir, workload, mock.baseUrl(), {"--workers", workers}, 60'000), {}};
  a.mockStats = json::parse(plumbline::test::httpGet(mock.baseUrl() + "/mock/stats").body);
  return a;
}

enum class KeepUp { Kept, HeldUpByTheMachine, Failed };

/// The run must have kept up. Harness_limited by the machine alone in every attempt
/// (heldUpByTheMachineOnly: the harness saw the machine hold it up and said so) is accepted as
/// honest but shows nothing of the harness's own precision. Any other verdict or exit fails.
KeepUp expectKeptUp(const HonestyRun& r) {
  json s = r.summary;  // non-const: a missing key reads as null instead of undefined behaviour
  if (r.exitCode == 3 && plumbline::test::heldUpByTheMachineOnly(s)) {
    std::printf(
        "[ held up ] harness_limited by the machine alone in the last attempt too, "
        "accepted as honest: %s\n",
        s["verdict_reasons"].dump().c_str());
    return KeepUp::HeldUpByTheMachine;
  }
  EXPECT_EQ(r.exitCode, 0) << r.output << s.dump(2);
  EXPECT_EQ(s["verdict"], "kept_up") << s.dump(2);
  return r.exitCode == 0 && s["verdict"] == "kept_up" ? KeepUp::Kept : KeepUp::Failed;
}

/// Why a timing check did not run although this build checks timing.
constexpr const char* kHeldUpEveryAttempt =
    "the machine held the harness up in every attempt (see [ held up ]): its precision is not "
    "shown here";

}  // namespace

TEST(RunHonesty, ConstantStreamingRunKeepsUpAndMatchesTheMockCount) {
  const auto a = plumbline::test::untilNotHeldUpByTheMachine(
      [] { return keepUpAttempt(5.0, 1.0, honestyWorkload(kKeepUpRate, 10, true, 16), "2"); });
  const KeepUp keptUp = expectKeptUp(a);
  ASSERT_NE(keptUp, KeepUp::Failed) << a.output;
  json s = a.summary;  // non-const: a missing key reads as null instead of undefined behaviour
  const int planned = static_cast<int>(kKeepUpRate * 10);
  EXPECT_EQ(s["planned"], planned);
  EXPECT_EQ(s["sent"], planned);
  EXPECT_EQ(s["completed"], planned);
  EXPECT_NEAR(s["achieved_rps"].get<double>(), s["requested_rps"].get<double>(),
              0.01 * s["requested_rps"].get<double>());
  EXPECT_EQ(s["token_count_source"], "server");
  EXPECT_EQ(a.mockStats["requests_received"], s["sent"]);
  EXPECT_EQ(a.mockStats["requests_completed"], s["completed"]);
  if (kTimingChecked && keptUp != KeepUp::Kept) GTEST_SKIP() << kHeldUpEveryAttempt;
  if (kTimingChecked) {
    EXPECT_LT(s["send_lag_ms"]["p50"].get<double>(), 0.1) << s.dump(2);
    EXPECT_LT(s["send_lag_ms"]["p90"].get<double>(), 1.0) << s.dump(2);
  }
}

TEST(RunHonesty, MeasuresTheMocksConfiguredTtftAndInterTokenGap) {
  const auto a = plumbline::test::untilNotHeldUpByTheMachine(
      [] { return keepUpAttempt(50.0, 10.0, honestyWorkload(20, 5, true, 64), "1"); });
  const KeepUp keptUp = expectKeptUp(a);
  ASSERT_NE(keptUp, KeepUp::Failed) << a.output;
  json s = a.summary;  // non-const: a missing key reads as null instead of undefined behaviour
  EXPECT_EQ(s["completed"], 100);
  if (!kTimingChecked) GTEST_SKIP() << "timing precision is checked in optimised builds";
  if (keptUp != KeepUp::Kept) GTEST_SKIP() << kHeldUpEveryAttempt;
  EXPECT_NEAR(s["ttft_ms"]["p50"].get<double>(), 50.0, 1.0) << s.dump(2);
  EXPECT_NEAR(s["itl_ms"]["p50"].get<double>(), 10.0, 0.3) << s.dump(2);
}

TEST(RunHonesty, AskingForMoreThanTheMachineCanSendIsHarnessLimited) {
  TempDir dir;
  auto mock = startHonestyMock(0.0, 0.0);
  const auto r = runPlumbline(dir, honestyWorkload(100'000, 3, false, 1), mock.baseUrl(),
                              {"--workers", "1"}, 90'000, false);
  ASSERT_EQ(r.exitCode, 3) << r.output << r.summary.dump(2);
  json s = r.summary;  // non-const: a missing key reads as null instead of undefined behaviour
  EXPECT_EQ(s["verdict"], "harness_limited");
  ASSERT_FALSE(s["verdict_reasons"].empty());
  const json stats = json::parse(plumbline::test::httpGet(mock.baseUrl() + "/mock/stats").body);
  const double mockRps = stats["requests_received"].get<double>() / s["duration_s"].get<double>();
  EXPECT_NEAR(s["achieved_rps"].get<double>(), mockRps, 0.01 * mockRps) << s.dump(2);
  EXPECT_LT(s["achieved_rps"].get<double>(), 0.99 * s["requested_rps"].get<double>());
  // Falling behind must not turn into failures: what was sent completed. (A worker that sent a
  // turn after every read opened a connection per send, ran the mock out of file descriptors,
  // and its requests waited out the timeout.)
  EXPECT_EQ(s["completed"], s["sent"]) << s.dump(2);
  EXPECT_TRUE(s["errors"].empty()) << s.dump(2);
  // What was never sent says why: still due when the schedule ended, the worker behind.
  const std::string why =
      "requests not sent: " + plumbline::metrics::formatCount(s["not_sent"].get<uint64_t>()) +
      " still due when the schedule ended (";
  EXPECT_NE(r.output.find(why), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(
                " not reached in time by their worker); an open-loop run does not send them late"),
            std::string::npos)
      << r.output;
}

// A target slower than the load asks, behind a small max_in_flight: due sends wait for a free
// slot. The verdict names the cap as what held them back (not the machine), and every planned
// request is accounted for: the ones the cap kept past the schedule's end are not sent.
TEST(RunHonesty, SendsHeldBackByTheInFlightCapAreBlamedOnTheCap) {
  TempDir dir;
  auto mock = startHonestyMock(200.0, 0.0);  // each request holds its slot for ~200 ms
  json w = honestyWorkload(100, 2, false, 1);
  w["load"]["max_in_flight"] = 5;  // ~25 requests/s at 200 ms each, against 100 asked for
  const auto r = runPlumbline(dir, w, mock.baseUrl(), {"--workers", "1"}, 60'000, false);
  ASSERT_EQ(r.exitCode, 3) << r.output << r.summary.dump(2);
  json s = r.summary;  // non-const: a missing key reads as null instead of undefined behaviour
  EXPECT_EQ(s["verdict"], "harness_limited");
  bool named = false;
  for (const json& reason : s["verdict_reasons"]) {
    const std::string text = reason.get<std::string>();
    EXPECT_EQ(text.find("the machine held them up"), std::string::npos) << text;
    if (text.find("send lag p99") != std::string::npos &&
        text.find("sends waited for the in-flight cap (max_in_flight reached") != std::string::npos)
      named = true;
  }
  EXPECT_TRUE(named) << s["verdict_reasons"].dump(2);
  EXPECT_LT(s["sent"].get<int>(), 200) << s.dump(2);
  EXPECT_EQ(s["completed"].get<int>() + s["not_sent"].get<int>(), 200) << s.dump(2);
  // Those never sent say why: still waiting for a slot when the schedule ended.
  const std::string notSent = plumbline::metrics::formatCount(s["not_sent"].get<uint64_t>());
  const std::string note =
      "note: requests not sent: " + notSent + " still due when the schedule ended (" + notSent +
      " waiting for a free slot under the in-flight cap (max_in_flight)); an open-loop run "
      "does not send them late";
  EXPECT_NE(r.output.find(note), std::string::npos) << r.output;
  // Sends held back past their window's close are still in its stored row (QA: windows stored
  // a second after they ended left out every later send of theirs; the rows summed to less
  // than the run's sent, and their send-lag p99s were too low).
  const std::string db = dir.file("runs.db");
  EXPECT_EQ(plumbline::test::queryInt(db, "SELECT sum(sent) FROM windows"),
            s["sent"].get<int64_t>());
  EXPECT_EQ(plumbline::test::queryInt(db, "SELECT sum(planned) FROM windows"),
            s["planned"].get<int64_t>());
  EXPECT_EQ(s["notes"].dump().find("only after their window's row was stored"), std::string::npos)
      << s["notes"].dump(2);
  // What each window achieved is what was sent during it (QA 23b: History drew the sends by the
  // window they were planned in, all in the first second of a run that sent them over ten):
  // every send is in exactly one window, and the cap's ~25/s shows in each second.
  EXPECT_EQ(plumbline::test::queryInt(db, "SELECT sum(sent_during) FROM windows"),
            s["sent"].get<int64_t>());
  EXPECT_EQ(plumbline::test::queryInt(db,
                                      "SELECT count(*) FROM windows WHERE idx IN (0, 1) AND "
                                      "sent_during BETWEEN 10 AND 60"),
            2);
}

/// Four 800k-token prompts at 1/s on one worker; the smaller of two runs' largest send lag
/// (one run when the first is within the budget, or in sanitized builds, which judge no timing).
static double bestMaxSendLagOfVeryLongPrompts(json w) {
  w["requests"]["input_tokens"] = json{{"dist", "fixed"}, {"value", 800'000}};
  w["target"]["timeout_s"] = 60;
  // Under ASan a prompt of 800k+ tokens takes ~0.6-1.8 s to build, so the last requests came due
  // after the 4 s run had ended and were rightly "not sent: the run ended first" (CI of cda1703,
  // a later turn; of a3f9306, a session's fourth first request). There, 8 s planning nothing
  // follow, for every request to come due in the run.
  if (!kTimingChecked) w["load"]["stages"].push_back({{"rate", 0}, {"duration_s", 8}});
  const int attempts = kTimingChecked ? 2 : 1;
  double bestMaxLagMs = 1e9;
  for (int attempt = 0; attempt < attempts && bestMaxLagMs >= kMachinePauseBudgetMs; ++attempt) {
    TempDir dir;
    auto mock = startHonestyMock(1.0, 1.0);
    const HonestyRun r = runPlumbline(dir, w, mock.baseUrl(), {"--workers", "1"}, 180'000);
    EXPECT_TRUE(r.exitCode == 0 || r.exitCode == 3) << r.output;
    json s = r.summary;  // non-const: a missing key reads as null instead of undefined behaviour
    EXPECT_EQ(s["completed"], 4) << s.dump(2);
    if (!s["send_lag_ms"]["max"].is_number()) return 1e9;
    bestMaxLagMs = std::min(bestMaxLagMs, s["send_lag_ms"]["max"].get<double>());
  }
  return bestMaxLagMs;
}

// QA: a request body is built shortly before its send, and a prompt of 800k tokens took longer
// than that (its first build ~100 ms): every send went out late, and the verdict blamed the
// machine. Bodies are built as far ahead as the longest build needs, the first as soon as it is
// known.
TEST(RunHonesty, VeryLongPromptsAreBuiltAheadOfTheirSends) {
  const double bestMaxLagMs = bestMaxSendLagOfVeryLongPrompts(honestyWorkload(1, 4, false, 4));
  if (!kTimingChecked) GTEST_SKIP() << "timing precision is checked in optimised builds";
  EXPECT_LT(bestMaxLagMs, kMachinePauseBudgetMs);
}

// QA 23a: a shared prefix (like trace blocks, or any session shape) sends a request through the
// sessions' runner, which built its first requests at their instant: 20k-token prompts went out
// 1.9 ms late at p50 where the same prompts unshared went out on time. They are built ahead too.
TEST(RunHonesty, ASessionsFirstRequestsAreBuiltAheadOfTheirSends) {
  json w = honestyWorkload(1, 4, false, 4);
  w["requests"]["prompt"] = {{"source", "synthetic"},
                             {"shared_prefix", {{"groups", 1}, {"tokens", 1}}}};
  const double bestMaxLagMs = bestMaxSendLagOfVeryLongPrompts(w);
  if (!kTimingChecked) GTEST_SKIP() << "timing precision is checked in optimised builds";
  EXPECT_LT(bestMaxLagMs, kMachinePauseBudgetMs);
}

// A conversation's later turn carries the replies before it, so it cannot be built with its
// session; but one due after a think time can be built as soon as its reply came. Built when
// due, turns of 1.6M-2.4M-token conversations went out 70-150 ms late.
TEST(RunHonesty, ALaterTurnIsBuiltDuringItsThinkTime) {
  json w = honestyWorkload(1, 2, false, 4);
  w["session"] = {{"shape", "multi_turn"},
                  {"turns", {{"dist", "fixed"}, {"value", 2}}},
                  {"think_time_s", {{"dist", "fixed"}, {"value", 0.3}}}};
  // Two sessions of two turns: bestMaxSendLagOfVeryLongPrompts expects 4 completed.
  const double bestMaxLagMs = bestMaxSendLagOfVeryLongPrompts(w);
  if (!kTimingChecked) GTEST_SKIP() << "timing precision is checked in optimised builds";
  EXPECT_LT(bestMaxLagMs, kMachinePauseBudgetMs);
}
