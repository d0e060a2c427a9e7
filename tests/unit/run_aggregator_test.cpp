#include <gtest/gtest.h>

#include "core/metrics/run_aggregator.h"

using namespace plumbline::metrics;

namespace {

constexpr int64_t kS = 1'000'000'000;
constexpr int64_t kOneMs = 1'000'000;

RequestRecord okRecord(int64_t plannedNs, int64_t sendNs, int64_t firstTokenNs, int64_t endNs) {
  RequestRecord r;
  r.plannedNs = plannedNs;
  r.sendNs = sendNs;
  r.firstTokenNs = firstTokenNs;
  r.endNs = endNs;
  r.inputTokensServer = 100;
  r.outputTokensServer = 10;
  r.inputTokensClient = 90;
  r.outputTokensClient = 9;
  return r;
}

SendReport sends(int64_t window, uint64_t n, int64_t lagNs) {
  SendReport s;
  s.windowIndex = window;
  s.sent = n;
  s.sendLag.recordN(lagNs, n);
  return s;
}

}  // namespace

TEST(RunAggregator, AnOutputRateNoRequestCountedIsUnknownNotZero) {
  // Not streamed, no usage, no tokenizer: nothing counted the output (QA: "out 0.0" in the
  // report and 0.0 in JSON, a figure a script reads as zero throughput).
  RunAggregator a;
  auto r = okRecord(0, 0, kS / 10, kS / 5);
  r.outputTokensServer = -1;
  r.outputTokensClient = -1;
  a.addRecord(r);
  RunSummary s = a.summarize(1.0, 1.0, {});
  EXPECT_EQ(s.completed, 1u);
  EXPECT_FALSE(s.outputTokensPerS.has_value());
  EXPECT_TRUE(s.toJson().at("output_tokens_per_s").is_null());
  EXPECT_FALSE(RunSummary::fromJson(s.toJson()).outputTokensPerS.has_value());
  // One request with a count makes it known.
  auto counted = okRecord(0, 0, kS / 10, kS / 5);
  counted.outputTokensServer = 8;
  a.addRecord(counted);
  EXPECT_TRUE(a.summarize(1.0, 1.0, {}).outputTokensPerS.has_value());
}

// A window's sends by the window they were planned in, and by the window they were made in: a
// worker behind sends window 0's requests during windows 0-2.
TEST(RunAggregator, SendsCountInTheirPlannedWindowAndInTheWindowTheyWereMadeIn) {
  RunAggregator a;
  a.addPlanned(100 * kOneMs, 30);
  a.addSends(sends(0, 30, 900 * kOneMs));
  for (int64_t w = 0; w < 3; ++w) {
    SendReport during;
    during.windowIndex = w;
    during.sentDuring = 10;
    a.addSends(during);
  }
  auto ws = a.takeAllWindows();
  ASSERT_EQ(ws.size(), 3u);
  EXPECT_EQ(ws[0].sent, 30u);
  EXPECT_EQ(ws[1].sent, 0u);
  for (const auto& w : ws) EXPECT_EQ(w.sentDuring, 10u);
  EXPECT_EQ(a.sent(), 30u);  // the run's total counts each send once
}

TEST(RunAggregator, WindowIndexFloorsNegativeTimes) {
  RunAggregator a;
  EXPECT_EQ(a.windowIndexAt(0), 0);
  EXPECT_EQ(a.windowIndexAt(kS - 1), 0);
  EXPECT_EQ(a.windowIndexAt(kS), 1);
  EXPECT_EQ(a.windowIndexAt(-1), -1);
}

TEST(RunAggregator, AttributesPlannedSentAndRecords) {
  RunAggregator a;
  a.addPlanned(100 * kOneMs, 3);
  a.addSends(sends(0, 3, 50'000));
  // Planned in window 0, ends in window 2: counts there, latencies from send and from plan.
  a.addRecord(okRecord(100 * kOneMs, 110 * kOneMs, 500 * kOneMs, 2 * kS + 100 * kOneMs));
  RequestRecord failed = okRecord(200 * kOneMs, 210 * kOneMs, -1, -1);
  failed.error = ErrorClass::Timeout;
  a.addRecord(failed);  // no end: goes to its planned window
  auto ws = a.takeAllWindows();
  ASSERT_EQ(ws.size(), 3u);
  EXPECT_EQ(ws[0].planned, 3u);
  EXPECT_EQ(ws[0].sent, 3u);
  EXPECT_EQ(ws[0].errors[static_cast<size_t>(ErrorClass::Timeout)], 1u);
  EXPECT_EQ(ws[0].errorCount(), 1u);
  EXPECT_EQ(ws[0].completed, 0u);
  EXPECT_EQ(ws[2].completed, 1u);
  EXPECT_EQ(ws[2].startNs, 2 * kS);
  EXPECT_EQ(ws[2].hist(Metric::Ttft).max(), 390 * kOneMs);
  EXPECT_EQ(ws[2].hist(Metric::E2e).max(), 1990 * kOneMs);
  EXPECT_EQ(ws[2].hist(Metric::TtftFromPlanned).max(), 400 * kOneMs);
  EXPECT_EQ(ws[2].hist(Metric::E2eFromPlanned).max(), 2000 * kOneMs);
  EXPECT_EQ(ws[2].inputTokens, 100u);
  EXPECT_EQ(a.total(Metric::E2e).count(), 1u);  // the failure has no latencies
  EXPECT_EQ(a.total(Metric::SendLag).count(), 3u);
  EXPECT_EQ(a.errors()[static_cast<size_t>(ErrorClass::Timeout)], 1u);
}

TEST(RunAggregator, ClientCountsFillInForMissingServerCounts) {
  RunAggregator a;
  a.addRecord(okRecord(0, 0, 10, 20));
  EXPECT_TRUE(a.allServerCounts());
  RequestRecord noUsage = okRecord(0, 0, 10, 20);
  noUsage.inputTokensServer = noUsage.outputTokensServer = -1;
  a.addRecord(noUsage);
  EXPECT_FALSE(a.allServerCounts());
  EXPECT_EQ(a.inputTokens(), 190u);
  EXPECT_EQ(a.outputTokens(), 19u);
}

TEST(RunAggregator, ClosesWindowsInOrderOnceWithoutHoles) {
  RunAggregator a(kS, kS);
  a.addPlanned(500 * kOneMs);
  EXPECT_TRUE(a.takeClosedWindows(kS).empty());           // window 0 ends at 1 s, +1 s delay
  EXPECT_TRUE(a.takeClosedWindows(2 * kS - 1).empty());
  auto first = a.takeClosedWindows(2 * kS);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].planned, 1u);
  auto next = a.takeClosedWindows(6 * kS + 10);           // nothing reported: empty windows 1..4
  ASSERT_EQ(next.size(), 4u);
  for (size_t i = 0; i < next.size(); ++i) EXPECT_EQ(next[i].index, static_cast<int64_t>(i + 1));
  EXPECT_TRUE(a.takeClosedWindows(6 * kS + 10).empty());  // never twice
  a.addPlanned(5 * kS + 1);
  auto rest = a.takeAllWindows();
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].index, 5);
}

TEST(RunAggregator, LateRecordsCountOnlyInTotals) {
  RunAggregator a(kS, 0);
  ASSERT_EQ(a.takeClosedWindows(2 * kS).size(), 2u);
  a.addRecord(okRecord(0, 0, 100 * kOneMs, 500 * kOneMs));
  a.addItl(LatencyHistogram(), 500 * kOneMs);
  EXPECT_EQ(a.completed(), 1u);
  EXPECT_EQ(a.total(Metric::E2e).count(), 1u);
  a.addRecord(okRecord(0, 0, 100 * kOneMs, 2 * kS + 1));
  auto ws = a.takeAllWindows();
  ASSERT_EQ(ws.size(), 1u);
  EXPECT_EQ(ws[0].index, 2);
  EXPECT_EQ(ws[0].completed, 1u);
  EXPECT_EQ(a.completed(), 2u);
}

TEST(RunAggregator, HarnessStatePerWindow) {
  RunAggregator a;
  a.addWorkerSample({0, 100 * kOneMs, 0.5, 2 * kOneMs, 10, 1});
  a.addWorkerSample({0, 600 * kOneMs, 1.0, 1 * kOneMs, 30, 2});
  a.addWorkerSample({1, 300 * kOneMs, 0.2, 5 * kOneMs, 7, 0});
  a.addWorkerSample({1, 1100 * kOneMs, 0.9, 0, 100, 0});  // next window
  auto ws = a.takeAllWindows();
  ASSERT_EQ(ws.size(), 2u);
  EXPECT_DOUBLE_EQ(ws[0].harness.workerCpuMax, 0.75);
  EXPECT_NEAR(ws[0].harness.workerCpuMean, (0.5 + 1.0 + 0.2) / 3, 1e-12);
  EXPECT_EQ(ws[0].harness.loopDelayMaxNs, 5 * kOneMs);
  EXPECT_EQ(ws[0].harness.inFlight, 37);
  EXPECT_EQ(ws[0].harness.inFlightCapHits, 3);
  EXPECT_EQ(ws[1].harness.inFlight, 100);
  EXPECT_EQ(ws[0].harness.cpuWaitMaxNs, -1);  // no worker said how long it waited for a CPU
}

// A window's CPU wait is the most any one worker waited there, its samples in that window
// summed; samples that could not tell (-1) add nothing, and neither do other windows' samples.
TEST(RunAggregator, CpuWaitIsTheMostOneWorkerWaitedInTheWindow) {
  RunAggregator a;
  WorkerSample s;
  s.workerId = 0;
  for (const auto& [at, waited] : {std::pair{250 * kOneMs, 3 * kOneMs},
                                   {500 * kOneMs, 4 * kOneMs},
                                   {750 * kOneMs, int64_t{-1}},
                                   {1250 * kOneMs, 50 * kOneMs}}) {
    s.atNs = at;
    s.cpuWaitNs = waited;
    a.addWorkerSample(s);
  }
  s.workerId = 1;
  s.atNs = 300 * kOneMs;
  s.cpuWaitNs = 5 * kOneMs;
  a.addWorkerSample(s);
  s.workerId = 2;  // a worker that never knew
  s.cpuWaitNs = -1;
  a.addWorkerSample(s);
  auto ws = a.takeAllWindows();
  ASSERT_EQ(ws.size(), 2u);
  EXPECT_EQ(ws[0].harness.cpuWaitMaxNs, 7 * kOneMs);
  EXPECT_EQ(ws[1].harness.cpuWaitMaxNs, 50 * kOneMs);
}

TEST(RunAggregator, SummaryAndVerdict) {
  RunAggregator a;
  for (int w = 0; w < 4; ++w) {
    a.addPlanned(w * kS + 1, 100);
    a.addSends(sends(w, w == 2 ? 50 : 100, 100'000));
  }
  a.addRecord(okRecord(0, 0, 100 * kOneMs, 400 * kOneMs));
  RequestRecord cut = okRecord(0, 0, 100 * kOneMs, 400 * kOneMs);
  cut.error = ErrorClass::StreamCut;
  a.addRecord(cut);
  a.markWorkerDied(3, 3 * kS + 500 * kOneMs);
  a.takeAllWindows();
  RunSummary s = a.summarize(4.0, 100.0, VerdictPolicy{});
  EXPECT_EQ(s.planned, 400u);
  EXPECT_EQ(s.sent, 350u);
  EXPECT_EQ(s.notSent, 50u);
  EXPECT_EQ(s.completed, 1u);
  EXPECT_EQ(s.errors, (std::map<std::string, uint64_t>{{"stream_cut", 1}}));
  EXPECT_DOUBLE_EQ(s.achievedRps, 87.5);
  EXPECT_DOUBLE_EQ(s.requestedRps, 100.0);
  EXPECT_DOUBLE_EQ(s.inputTokensPerS, 25.0);
  EXPECT_EQ(s.tokenCountSource, "server");
  EXPECT_NEAR(s.e2eMs.max, 400.0, 1e-9);
  EXPECT_EQ(s.verdict.kind, VerdictKind::HarnessLimited);
  ASSERT_EQ(s.verdict.reasons.size(), 3u);
  EXPECT_EQ(s.verdict.reasons[0], "sent 350 of 400 planned (87.5%)");
  EXPECT_EQ(s.verdict.reasons[1], "window 2\u20133 s: sent 50 of 100 planned (50.0%)");
  EXPECT_EQ(s.verdict.reasons[2], "worker 3 died at 3.5 s");
}

TEST(RunAggregator, RequestsInFlightAcrossALoopHoldAreCountedAndOverOnePercentLimitTheRun) {
  // QA 24 D1: a worker stopped 55 ms mid-stream read three tokens at once, 30 ms late, and the
  // run said kept_up. 200 completed requests; holds of 5 ms (under the 10 ms tolerance) and of
  // 55 ms: 2 held requests (1%) are said, a third makes the run harness_limited.
  RunAggregator a;
  a.addPlanned(1, 200);
  a.addSends(sends(0, 200, 1'000));
  for (int i = 0; i < 200; ++i) {
    RequestRecord r = okRecord(0, 0, 30 * kOneMs, 85 * kOneMs);
    r.heldNs = i < 5 ? 5 * kOneMs : i < 7 ? 55 * kOneMs : 0;
    a.addRecord(r);
  }
  a.takeAllWindows();
  RunSummary s = a.summarize(1.0, 200.0, VerdictPolicy{});
  EXPECT_EQ(s.heldRequests, 2u);
  EXPECT_NEAR(s.heldMaxMs, 55, 0.5);
  EXPECT_DOUBLE_EQ(s.holdToleranceMs, 10);
  EXPECT_EQ(s.verdict.kind, VerdictKind::KeptUp);
  EXPECT_TRUE(heldIsANote(s.heldRequests, s.completed));
  EXPECT_EQ(s.toJson().at("timing_held").at("requests"), 2);

  RequestRecord third = okRecord(0, 0, 30 * kOneMs, 85 * kOneMs);
  third.heldNs = 12 * kOneMs;
  a.addRecord(third);
  s = a.summarize(1.0, 200.0, VerdictPolicy{});
  EXPECT_EQ(s.heldRequests, 3u);
  EXPECT_FALSE(heldIsANote(s.heldRequests, s.completed));  // the verdict says it
  ASSERT_EQ(s.verdict.kind, VerdictKind::HarnessLimited);
  ASSERT_EQ(s.verdict.reasons.size(), 1u);
  EXPECT_NE(s.verdict.reasons[0].find(
                "3 of 201 completed requests (1.5%) were in flight while a worker's "
                "event loop was held 10 ms or more (up to 55."),
            std::string::npos)
      << s.verdict.reasons[0];

  VerdictPolicy lenient;
  lenient.holdToleranceNs = 60 * kOneMs;  // a workload's verdict.hold_tolerance_ms
  s = a.summarize(1.0, 200.0, lenient);
  EXPECT_EQ(s.heldRequests, 0u);
  EXPECT_EQ(s.verdict.kind, VerdictKind::KeptUp);
  EXPECT_EQ(RunSummary::fromJson(a.summarize(1.0, 200.0, VerdictPolicy{}).toJson()).heldRequests,
            3u);
}

TEST(RunAggregator, AchievedLeavesOutRequestsThatNeverLeftTheMachine) {
  RunAggregator a;
  a.addPlanned(1, 100);
  a.addSends(sends(0, 100, 1000));
  for (int i = 0; i < 30; ++i) {
    RequestRecord noSocket;  // due and attempted, but no descriptor for its connection
    noSocket.plannedNs = noSocket.sendNs = 1000;
    noSocket.error = ErrorClass::HarnessLimit;
    a.addRecord(noSocket);
  }
  RequestRecord refused;  // reached the target's address: it was offered, and refused
  refused.plannedNs = refused.sendNs = 1000;
  refused.error = ErrorClass::Connect;
  a.addRecord(refused);
  a.takeAllWindows();
  const RunSummary s = a.summarize(1.0, 100.0, VerdictPolicy{});
  EXPECT_EQ(s.sent, 100u);  // every planned request ends somewhere: sent (then failed) counts them
  EXPECT_EQ(s.errors.at("harness_limit"), 30u);
  EXPECT_DOUBLE_EQ(s.achievedRps, 70.0);
}

TEST(RunAggregator, LateSendsStillReachTheVerdict) {
  RunAggregator a(kS, 0);
  a.addPlanned(1, 100);
  a.takeClosedWindows(kS);
  a.addSends(sends(0, 100, 1000));
  EXPECT_EQ(a.summarize(1, 100, VerdictPolicy{}).verdict.kind, VerdictKind::KeptUp);
  a.markWorkerDied(0, 10);  // death in a closed window is still named
  auto v = a.summarize(1, 100, VerdictPolicy{}).verdict;
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0], "worker 0 died at 0.0 s");
}

// A window whose sends a worker still holds (behind the cap, a late loop) stays open until they
// are known, so that its stored row says them (QA: rows stored a second after their window
// ended left out every later send; they summed to 5,731 of 9,495 sent).
TEST(RunAggregator, AWindowIsHeldOpenUntilItsSendsAreKnown) {
  RunAggregator a(kS, kS);
  a.addPlanned(500 * kOneMs, 10);
  a.addSends(sends(0, 4, kOneMs));
  EXPECT_TRUE(a.takeClosedWindows(2 * kS, 800 * kOneMs).empty());  // a send of 0.8 s still held
  a.addSends(sends(0, 6, 1500 * kOneMs));
  auto closed = a.takeClosedWindows(3 * kS, 2500 * kOneMs);
  ASSERT_EQ(closed.size(), 2u);
  EXPECT_EQ(closed[0].sent, 10u);
  EXPECT_EQ(closed[0].hist(Metric::SendLag).count(), 10u);
  EXPECT_EQ(a.lateAfterStored().sent, 0u);
  // Held for good (a worker that never says): stored after kMaxSendHoldNs, and what comes later
  // is counted as known only after its row was stored.
  a.addPlanned(2 * kS + 1, 5);
  const int64_t endOf2 = 3 * kS;
  EXPECT_TRUE(a.takeClosedWindows(endOf2 + kS + RunAggregator::kMaxSendHoldNs - 1, 0).empty());
  const auto held = a.takeClosedWindows(endOf2 + kS + RunAggregator::kMaxSendHoldNs, 0);
  ASSERT_EQ(held.size(), 1u);  // the windows after it wait their own time
  EXPECT_EQ(held[0].index, 2);
  EXPECT_EQ(held[0].sent, 0u);
  a.addSends(sends(2, 5, 12 * kS));
  EXPECT_EQ(a.lateAfterStored().sent, 5u);
  EXPECT_EQ(a.lateAfterStored().firstWindow, 2);
  EXPECT_EQ(a.lateAfterStored().lastWindow, 2);
  EXPECT_EQ(a.sent(), 15u);
}

// Late sends count in the verdict's send-lag p99 as well as its sent count (QA: the reason said
// "send lag p99 1841 ms" beside a run whose send lag p99 was 2,256 ms).
TEST(RunAggregator, LateSendsCountInTheVerdictsSendLag) {
  RunAggregator a(kS, 0);
  a.addPlanned(1, 200);
  a.addSends(sends(0, 100, 5 * kOneMs));
  a.takeClosedWindows(kS);
  a.addSends(sends(0, 100, 900 * kOneMs));  // held back: 0.9 s late, known after the window closed
  VerdictPolicy policy;
  policy.sendLagToleranceNs = kOneMs;
  const Verdict v = a.summarize(1, 200, policy).verdict;
  ASSERT_EQ(v.kind, VerdictKind::HarnessLimited);
  ASSERT_FALSE(v.reasons.empty());
  EXPECT_NE(v.reasons[0].find("send lag p99 9"), std::string::npos) << v.reasons[0];  // ~900 ms
  EXPECT_EQ(a.lateAfterStored().sent, 100u);
}

TEST(RunAggregator, FarFutureTimestampsDoNotAllocateWindows) {
  RunAggregator a;
  a.addRecord(okRecord(0, 0, 1, int64_t{1} << 62));
  EXPECT_EQ(a.completed(), 1u);
  EXPECT_TRUE(a.takeAllWindows().empty());
}

TEST(RunAggregator, TokenCountSourceSaysWhenServerAndClientCountsAreMixed) {
  auto sourceOf = [](std::vector<bool> withUsage) {
    RunAggregator a;
    a.addPlanned(1, static_cast<uint64_t>(withUsage.size()));
    for (bool usage : withUsage) {
      RequestRecord r = okRecord(0, 0, 100 * kOneMs, 400 * kOneMs);
      if (!usage) r.inputTokensServer = r.outputTokensServer = -1;
      a.addRecord(r);
    }
    a.takeAllWindows();
    return a.summarize(1.0, 1.0, VerdictPolicy{});
  };
  EXPECT_EQ(sourceOf({true, true}).tokenCountSource, "server");
  EXPECT_EQ(sourceOf({false, false}).tokenCountSource, "client");
  const RunSummary mixed = sourceOf({true, false, false});
  EXPECT_EQ(mixed.tokenCountSource, "mixed");
  EXPECT_EQ(mixed.requestsWithServerCounts, 1u);
  EXPECT_EQ(mixed.requestsWithClientCountsOnly, 2u);
  EXPECT_DOUBLE_EQ(mixed.inputTokensPerS, 100.0 + 90.0 + 90.0);  // server where reported
}

TEST(RunAggregator, TokenRatesAreOverTheTimeTheTokensCameIn) {
  // A 2 s schedule whose last reply ended at 10 s (an overloaded target): 4 replies of 10
  // output tokens are 4 tokens/s over the 10 s, not 20/s per second of the schedule.
  RunAggregator a;
  for (int64_t i = 0; i < 4; ++i)
    a.addRecord(okRecord(i * kS / 2, i * kS / 2, 3 * kS, (7 + i) * kS));
  RunSummary s = a.summarize(2.0, 2.0, {});
  EXPECT_DOUBLE_EQ(s.tokensSpanS, 10.0);
  ASSERT_TRUE(s.outputTokensPerS.has_value());
  EXPECT_DOUBLE_EQ(*s.outputTokensPerS, 4.0);
  EXPECT_DOUBLE_EQ(s.inputTokensPerS, 40.0);
  EXPECT_DOUBLE_EQ(s.toJson()["tokens_span_s"].get<double>(), 10.0);
  // Replies that all ended within the schedule: its length is the span.
  RunAggregator quick;
  quick.addRecord(okRecord(0, 0, kS / 10, kS / 2));
  EXPECT_DOUBLE_EQ(quick.summarize(2.0, 1.0, {}).tokensSpanS, 2.0);
  // A summary stored before the span was: per second of the schedule, as it was computed.
  nlohmann::json old = s.toJson();
  old.erase("tokens_span_s");
  EXPECT_DOUBLE_EQ(RunSummary::fromJson(old).tokensSpanS, 2.0);
}

// Sessions handed out late (the coordinator held up) reach the verdict of their planned
// window, open or already closed, and the latest of them is what it names.
TEST(RunAggregator, SessionsHandedOutLateAreJudgedInTheirPlannedWindow) {
  RunAggregator a(kS, 0);
  a.addPlanned(1, 100);
  a.addSends(sends(0, 100, 900 * kOneMs));
  a.markHandedLate(5, 400 * kOneMs);  // window 0, still open
  a.takeClosedWindows(kS);
  a.markHandedLate(10, 950 * kOneMs);  // window 0, closed by now
  a.markHandedLate(20, 100 * kOneMs);  // not the latest: not named
  const auto v = a.summarize(1, 100, VerdictPolicy{}).verdict;
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_NE(v.reasons[0].find("sessions reached their workers up to 950 ms after they were due"),
            std::string::npos)
      << v.reasons[0];
  EXPECT_EQ(v.reasons[0].find("the machine held them up"), std::string::npos) << v.reasons[0];
}
