#include <gtest/gtest.h>

#include "core/metrics/verdict.h"

using namespace plumbline::metrics;

namespace {

/// 60 one-second windows, each planned and sent 100 with 0.2 ms send lag, 50% CPU.
std::vector<WindowEvidence> healthyRun(int seconds = 60) {
  std::vector<WindowEvidence> ws;
  for (int i = 0; i < seconds; ++i) {
    WindowEvidence w;
    w.index = i;
    w.startNs = i * 1'000'000'000LL;
    w.planned = 100;
    w.sent = 100;
    w.sendLagP99Ns = 200'000;
    w.harness.workerCpuMax = 0.5;
    ws.push_back(w);
  }
  return ws;
}

uint64_t sum(const std::vector<WindowEvidence>& ws, bool sent) {
  uint64_t n = 0;
  for (const auto& w : ws) n += sent ? w.sent : w.planned;
  return n;
}

/// Two one-second windows, each planned and sent 100 with 0.1 ms send lag.
std::vector<WindowStats> twoPromptWindows() {
  std::vector<WindowStats> ws(2);
  for (size_t i = 0; i < ws.size(); ++i) {
    ws[i].index = static_cast<int64_t>(i);
    ws[i].startNs = ws[i].index * 1'000'000'000;
    ws[i].planned = ws[i].sent = 100;
    ws[i].hist(Metric::SendLag).recordN(100'000, 100);
  }
  return ws;
}

Verdict judgeRun(const std::vector<WindowEvidence>& ws) {
  return judgeEvidence(ws, sum(ws, false), sum(ws, true), VerdictPolicy{});
}

}  // namespace

TEST(Verdict, Names) {
  EXPECT_EQ(verdictName(VerdictKind::KeptUp), "kept_up");
  EXPECT_EQ(verdictName(VerdictKind::HarnessLimited), "harness_limited");
  EXPECT_EQ(verdictFromName("harness_limited"), VerdictKind::HarnessLimited);
  EXPECT_FALSE(verdictFromName("fine").has_value());
  EXPECT_EQ(formatCount(41230), "41,230");
  EXPECT_EQ(formatCount(100000), "100,000");
  EXPECT_EQ(formatCount(999), "999");
}

TEST(Verdict, AllGoodKeepsUp) {
  auto v = judgeRun(healthyRun());
  EXPECT_EQ(v.kind, VerdictKind::KeptUp);
  EXPECT_TRUE(v.reasons.empty());
}

TEST(Verdict, QuietWindowsAreNotJudged) {
  auto ws = healthyRun();
  ws[10].planned = ws[10].sent = 0;
  EXPECT_EQ(judgeRun(ws).kind, VerdictKind::KeptUp);
}

TEST(Verdict, ShortWindowsInTheMiddleAreNamedAsOneRange) {
  auto ws = healthyRun();
  for (int i = 12; i < 16; ++i) ws[static_cast<size_t>(i)].sent = 50;
  auto v = judgeRun(ws);  // overall 5800 of 6000 = 96.7%
  EXPECT_EQ(v.kind, VerdictKind::HarnessLimited);
  ASSERT_EQ(v.reasons.size(), 2u);
  EXPECT_EQ(v.reasons[0], "sent 5,800 of 6,000 planned (96.6%)");
  EXPECT_EQ(v.reasons[1], "windows 12\u201316 s: sent 200 of 400 planned (50.0%)");
}

TEST(Verdict, OneShortWindowFailsEvenWhenTheTotalIsFine) {
  auto ws = healthyRun();
  ws[30].sent = 98;
  auto v = judgeRun(ws);
  EXPECT_EQ(v.kind, VerdictKind::HarnessLimited);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0], "window 30\u201331 s: sent 98 of 100 planned (98.0%)");
}

TEST(Verdict, OverallShortfall) {
  auto v = judgeEvidence({}, 100000, 41230, VerdictPolicy{});
  EXPECT_EQ(v.kind, VerdictKind::HarnessLimited);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0], "sent 41,230 of 100,000 planned (41.2%)");
}

TEST(Verdict, SendLagNamesWorstP99) {
  auto ws = healthyRun();
  ws[12].sendLagP99Ns = 2'000'000;
  ws[13].sendLagP99Ns = 3'400'000;
  ws[40].sendLagP99Ns = 1'000'000;  // at tolerance: fine
  auto v = judgeRun(ws);
  EXPECT_EQ(v.kind, VerdictKind::HarnessLimited);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0], "windows 12\u201314 s: send lag p99 3.4 ms > 1 ms tolerance");
}

TEST(Verdict, CpuSaturation) {
  auto ws = healthyRun();
  for (int i = 3; i < 60; ++i) ws[static_cast<size_t>(i)].harness.workerCpuMax = 1.0;
  auto v = judgeRun(ws);
  EXPECT_EQ(v.kind, VerdictKind::HarnessLimited);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0], "windows 3\u201360 s: worker CPU saturated (100% of a core)");
}

TEST(Verdict, DeadWorker) {
  auto ws = healthyRun();
  ws[14].harness.workerDied = true;
  ws[14].harness.diedWorkerId = 2;
  ws[14].harness.diedAtNs = 14'200'000'000;
  auto v = judgeRun(ws);
  EXPECT_EQ(v.kind, VerdictKind::HarnessLimited);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0], "worker 2 died at 14.2 s");
}

TEST(Verdict, ADeathTheCoordinatorSaysInFullIsSaidOnce) {
  // QA: "worker 0 died at 6.3 s" then "worker 0 stopped answering at 1.3 s ...; killed at
  // 6.3 s; ..." for one death. Another worker's short line stays.
  auto ws = healthyRun();
  ws[6].harness.workerDied = true;
  ws[6].harness.diedWorkerId = 0;
  ws[6].harness.diedAtNs = 6'300'000'000;
  ws[9].harness.workerDied = true;
  ws[9].harness.diedWorkerId = 1;
  ws[9].harness.diedAtNs = 9'100'000'000;
  const std::string full =
      "worker 0 stopped answering at 1.3 s (no report for 5.0 s); killed at 6.3 s; its requests in "
      "flight were lost";
  auto v = judgeEvidence(ws, sum(ws, false), sum(ws, true), VerdictPolicy{}, {full});
  ASSERT_EQ(v.reasons.size(), 2u);
  EXPECT_EQ(v.reasons[0], "worker 1 died at 9.1 s");
  EXPECT_EQ(v.reasons[1], full);
}

TEST(Verdict, CapHitsExplainButDoNotDecide) {
  auto ws = healthyRun();
  for (int i = 5; i < 9; ++i) ws[static_cast<size_t>(i)].harness.inFlightCapHits = 300;
  ws[9].harness.inFlightCapHits = 34;
  EXPECT_EQ(judgeRun(ws).kind, VerdictKind::KeptUp);
  ws[6].sendLagP99Ns = 5'000'000;
  auto v = judgeRun(ws);
  EXPECT_EQ(v.kind, VerdictKind::HarnessLimited);
  ASSERT_EQ(v.reasons.size(), 3u);
  // The late window names its own hits; the other windows' hits are listed apart.
  EXPECT_EQ(v.reasons[0],
            "window 6\u20137 s: send lag p99 5 ms > 1 ms tolerance (sends waited for the in-flight "
            "cap (max_in_flight reached 300 times))");
  EXPECT_EQ(v.reasons[1], "window 5\u20136 s: in-flight cap (max_in_flight) reached 300 times");
  EXPECT_EQ(v.reasons[2], "windows 7\u201310 s: in-flight cap (max_in_flight) reached 634 times");
  ws[6].sendLagP99Ns = 200'000;
  ws[0].sendLagP99Ns = 5'000'000;  // late without hits: the hits are listed as one range
  v = judgeRun(ws);
  ASSERT_EQ(v.reasons.size(), 2u);
  EXPECT_EQ(v.reasons[1], "windows 5\u201310 s: in-flight cap (max_in_flight) reached 1,234 times");
}

// A busy worker's late windows say what the harness saw: its loop held up as long as the
// tolerance at once, and connections open rising by 100 or more (from 0 in the first window).
TEST(Verdict, LateWindowsOfABusyWorkerSayWhatHeldItUp) {
  auto ws = healthyRun(6);
  for (auto& w : ws) w.harness.connectionsOpen = 40;
  ws[0].sendLagP99Ns = 14'000'000;
  ws[0].harness.loopDelayMaxNs = 7'450'000;
  ws[0].harness.connectionsOpen = 507;
  ws[1].harness.connectionsOpen = ws[2].harness.connectionsOpen = 507;
  ws[3].sendLagP99Ns = 2'800'000;
  ws[3].harness.loopDelayMaxNs = 2'500'000;
  ws[3].harness.connectionsOpen = 650;  // from 507: 143 more
  ws[4].harness.connectionsOpen = 650;
  ws[5].sendLagP99Ns = 1'500'000;  // late, no long hold, no new connections: said as it is
  ws[5].harness.loopDelayMaxNs = 900'000;
  ws[5].harness.connectionsOpen = 660;
  const Verdict v = judgeRun(ws);
  ASSERT_EQ(v.reasons.size(), 3u);
  EXPECT_EQ(v.reasons[0],
            "window 0–1 s: send lag p99 14 ms > 1 ms tolerance (a worker's event loop was held up to "
            "7.45 ms at once; connections open rose from 0 to 507)");
  EXPECT_EQ(v.reasons[1],
            "window 3–4 s: send lag p99 2.8 ms > 1 ms tolerance (a worker's event loop was held up to 2.5 ms "
            "at once; connections open rose from 507 to 650)");
  EXPECT_EQ(v.reasons[2], "window 5–6 s: send lag p99 1.5 ms > 1 ms tolerance");
}

// A late window whose worker kept waiting for a CPU that other work held says so, with the
// most any one worker waited in a window; a wait under the tolerance, or one the kernel did not
// report (-1), is not said. On time, a long wait is no reason at all.
TEST(Verdict, LateWindowsSayHowLongAWorkerWaitedForACpu) {
  auto ws = healthyRun(8);
  ws[0].sendLagP99Ns = 2'500'000;
  ws[0].harness.cpuWaitMaxNs = 23'800'000;
  ws[2].sendLagP99Ns = ws[3].sendLagP99Ns = 3'000'000;
  ws[2].harness.cpuWaitMaxNs = 12'000'000;
  ws[3].harness.cpuWaitMaxNs = 40'500'000;
  ws[3].harness.loopDelayMaxNs = 4'630'000;
  ws[5].sendLagP99Ns = 1'800'000;
  ws[5].harness.cpuWaitMaxNs = 900'000;     // under the tolerance: not evidence
  ws[6].harness.cpuWaitMaxNs = 60'000'000;  // on time: nothing to explain
  ws[7].sendLagP99Ns = 1'800'000;           // the kernel did not say (-1 by default)
  const Verdict v = judgeRun(ws);
  ASSERT_EQ(v.reasons.size(), 4u);
  EXPECT_EQ(
      v.reasons[0],
      "window 0\u20131 s: send lag p99 2.5 ms > 1 ms tolerance (a worker waited 23.8 ms in the "
      "window for a CPU held by other work)");
  EXPECT_EQ(
      v.reasons[1],
      "windows 2\u20134 s: send lag p99 3 ms > 1 ms tolerance (a worker's event loop was held up "
      "to 4.63 ms at once; a worker waited up to 40.5 ms in one window for a CPU held by other "
      "work)");
  EXPECT_EQ(v.reasons[2], "window 5\u20136 s: send lag p99 1.8 ms > 1 ms tolerance");
  EXPECT_EQ(v.reasons[3], "window 7\u20138 s: send lag p99 1.8 ms > 1 ms tolerance");
}

TEST(Verdict, ExtraReasonsMakeItLimited) {
  auto v = judgeEvidence(healthyRun(), 6000, 6000, VerdictPolicy{}, {"connection limit reached"});
  EXPECT_EQ(v.kind, VerdictKind::HarnessLimited);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0], "connection limit reached");
}

TEST(Verdict, JudgeOverWindowStatsUsesSendLagHistogram) {
  std::vector<WindowStats> ws = twoPromptWindows();
  EXPECT_EQ(judge(ws, 200, 200, VerdictPolicy{}).kind, VerdictKind::KeptUp);
  ws[1].hist(Metric::SendLag).recordN(20'000'000, 5);
  auto v = judge(ws, 200, 200, VerdictPolicy{});
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0],
            "window 1\u20132 s: send lag p99 20 ms > 1 ms tolerance while workers were mostly idle (the "
            "machine held them up)");
}

TEST(Verdict, SubSecondWindowsPrintFractions) {
  WindowEvidence w;
  w.index = 3;
  w.startNs = 750'000'000;
  w.lengthNs = 250'000'000;
  w.planned = 10;
  w.sent = 5;
  auto v = judgeEvidence({w}, 10, 10, VerdictPolicy{});
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0], "window 0.75\u20131 s: sent 5 of 10 planned (50.0%)");
}

namespace {
/// 20 one-second windows of `rate` sends each, all 20 µs late, then `late` sends of 5 ms
/// lag put into window `where`.
std::vector<WindowEvidence> lowRateRun(uint64_t rate, int late, size_t where) {
  std::vector<WindowEvidence> ws;
  for (int i = 0; i < 20; ++i) {
    WindowEvidence w;
    w.index = i;
    w.startNs = int64_t{i} * 1'000'000'000;
    w.planned = w.sent = rate;
    w.sendLag = {{20'000, rate}};
    ws.push_back(w);
  }
  ws[where].sendLag = {{20'000, rate - static_cast<uint64_t>(late)}, {5'000'000, static_cast<uint64_t>(late)}};
  for (auto& w : ws) w.sendLagP99Ns = w.sendLag.back().first;  // what a per-window p99 would say
  return ws;
}
}  // namespace

TEST(Verdict, FewSendsPerWindowArePooledBeforeTakingTheirP99) {
  // 27 sends a window: one late send is its window's "p99" (the max), but 1 of the 108 sends
  // of four windows together is under 1%.
  auto ws = lowRateRun(27, 1, 5);
  EXPECT_EQ(judgeRun(ws).kind, VerdictKind::KeptUp);
}

TEST(Verdict, PooledWindowsOverToleranceAreNamedTogether) {
  auto ws = lowRateRun(27, 3, 5);  // 3 of the 108 sends in windows 4–8 s are 5 ms late
  const Verdict v = judgeRun(ws);
  ASSERT_EQ(v.kind, VerdictKind::HarnessLimited);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0],
            "windows 4\u20138 s: send lag p99 5 ms > 1 ms tolerance while workers were mostly idle (the "
            "machine held them up)");
}

// The drain after a run's last sends (windows with nothing planned nor sent) is pooled with the
// last group for its p99, but was late in nothing: the reason's span ends at the last send (QA:
// a run stopped at 7.85 s read "windows 0–9 s").
TEST(Verdict, WindowsThatSentNothingAreNotInALateSpan) {
  auto ws = lowRateRun(27, 3, 17);  // the last group: windows 16-19 (16-20 s), 3 late sends in 17 s
  for (int i = 20; i < 25; ++i) {
    WindowEvidence drain;
    drain.index = i;
    drain.startNs = int64_t{i} * 1'000'000'000;
    ws.push_back(drain);
  }
  const Verdict v = judgeRun(ws);
  ASSERT_EQ(v.kind, VerdictKind::HarnessLimited);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0].rfind("windows 16\u201320 s: send lag p99 5 ms", 0), 0u) << v.reasons[0];
}

TEST(Verdict, IdleWorkersHeldUpFromOutsideSayForHowLong) {
  auto ws = lowRateRun(27, 3, 5);             // windows 4–8 s late while idle
  ws[6].harness.loopDelayMaxNs = 3'250'000;   // the probe saw the loop held 3.25 ms
  ws[12].harness.loopDelayMaxNs = 9'000'000;  // a window that sent on time: not part of the reason
  Verdict v = judgeRun(ws);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(
      v.reasons[0],
      "windows 4\u20138 s: send lag p99 5 ms > 1 ms tolerance while workers were mostly idle (the "
      "machine held them up: a worker's event loop was held up to 3.25 ms at once)");
  ws[6].harness.loopDelayMaxNs = 900'000;  // under the tolerance: not evidence, not said
  v = judgeRun(ws);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(
      v.reasons[0],
      "windows 4\u20138 s: send lag p99 5 ms > 1 ms tolerance while workers were mostly idle (the "
      "machine held them up)");
}

TEST(Verdict, IdleWorkersHeldUpFromOutsideSayHowLongTheyWaitedForACpu) {
  auto ws = lowRateRun(27, 3, 5);  // windows 4–8 s late while idle
  ws[5].harness.cpuWaitMaxNs = 6'400'000;
  ws[6].harness.loopDelayMaxNs = 3'250'000;
  const Verdict v = judgeRun(ws);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(
      v.reasons[0],
      "windows 4\u20138 s: send lag p99 5 ms > 1 ms tolerance while workers were mostly idle (the "
      "machine held them up: a worker's event loop was held up to 3.25 ms at once; a worker "
      "waited up to 6.4 ms in one window for a CPU held by other work)");
}

// Idle workers whose sends waited for a free slot under max_in_flight were held back by the cap
// (a target answering slower than the load asks), not by the machine: the reason says so, and
// keeps what the probes saw besides.
TEST(Verdict, IdleWorkersHeldBackByTheInFlightCapAreNotBlamedOnTheMachine) {
  auto ws = lowRateRun(27, 3, 5);  // windows 4–8 s late while idle
  ws[5].harness.inFlightCapHits = 2;
  ws[7].harness.inFlightCapHits = 1;
  ws[14].harness.inFlightCapHits = 1;  // a window that sent on time: listed apart
  Verdict v = judgeRun(ws);
  ASSERT_EQ(v.reasons.size(), 2u);
  EXPECT_EQ(v.reasons[0],
            "windows 4\u20138 s: send lag p99 5 ms > 1 ms tolerance while workers were mostly idle "
            "(sends waited for the in-flight cap (max_in_flight reached 3 times))");
  EXPECT_EQ(v.reasons[1], "window 14\u201315 s: in-flight cap (max_in_flight) reached 1 time");
  ws[6].harness.loopDelayMaxNs = 3'250'000;
  ws[7].harness.cpuWaitMaxNs = 6'400'000;
  v = judgeRun(ws);
  ASSERT_GE(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0],
            "windows 4\u20138 s: send lag p99 5 ms > 1 ms tolerance while workers were mostly idle "
            "(sends waited for the in-flight cap (max_in_flight reached 3 times); a worker's event "
            "loop was held up to 3.25 ms at once; a worker waited up to 6.4 ms in one window for a "
            "CPU held by other work)");
  ws[12].harness.inFlightCapHits = 40;  // a window that sent on time: not part of the reason
  ws[5].harness.inFlightCapHits = ws[7].harness.inFlightCapHits = 0;
  v = judgeRun(ws);
  EXPECT_EQ(v.reasons[0].find("in-flight cap"), std::string::npos) << v.reasons[0];
  EXPECT_NE(v.reasons[0].find("the machine held them up"), std::string::npos) << v.reasons[0];
}

// QA: after a worker died, the sessions it held went out late from the survivors, and the reason
// blamed the machine ("the machine held them up"). It names the death instead.
TEST(Verdict, LateSendsAfterAWorkerDiedAreBlamedOnTheDeathNotTheMachine) {
  auto ws = lowRateRun(27, 3, 5);  // windows 4–8 s late while idle
  ws[4].harness.workerDied = true;
  ws[4].harness.diedWorkerId = 0;
  ws[4].harness.diedAtNs = 4'200'000'000;
  Verdict v = judgeRun(ws);
  ASSERT_GE(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0],
            "windows 4\u20138 s: send lag p99 5 ms > 1 ms tolerance while workers were mostly idle "
            "(worker 0 died at 4.2 s: the sessions it held went out late from the others)");
  EXPECT_EQ(v.reasons[0].find("the machine"), std::string::npos);
}

TEST(Verdict, BusyWorkersGetNoMachineExcuse) {
  auto ws = lowRateRun(100, 2, 7);
  for (auto& w : ws) w.harness.workerCpuMax = 0.9;
  const Verdict v = judgeRun(ws);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0], "window 7\u20138 s: send lag p99 5 ms > 1 ms tolerance");
}

TEST(Verdict, WindowsOfAHundredSendsOrMoreAreJudgedAlone) {
  auto ws = lowRateRun(100, 2, 7);  // 2% late in window 7 alone
  const Verdict v = judgeRun(ws);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0].rfind("window 7\u20138 s: send lag p99 5 ms > 1 ms tolerance", 0), 0u) << v.reasons[0];
}

// The live stream judges the windows so far after each one. A slow run's first few sends
// pooled alone have the one late send as their "p99"; judged so far, that short group waits
// for the windows that complete it, so no live reason contradicts the final verdict.
TEST(Verdict, JudgedSoFarAShortLastGroupWaitsForTheWindowsThatCompleteIt) {
  auto ws = lowRateRun(5, 1, 2);  // 5 sends a window; one of window 2's is 5 ms late
  for (size_t n = 1; n <= ws.size(); ++n) {
    const std::vector<WindowEvidence> soFar(ws.begin(), ws.begin() + static_cast<std::ptrdiff_t>(n));
    const Verdict v = judgeEvidence(soFar, sum(soFar, false), sum(soFar, true), VerdictPolicy{}, {}, Judging::SoFar);
    EXPECT_EQ(v.kind, VerdictKind::KeptUp) << "after " << n << " windows: " << (v.reasons.empty() ? "" : v.reasons[0]);
  }
  EXPECT_EQ(judgeRun(ws).kind, VerdictKind::KeptUp);  // 1 of 100 pooled sends is late: within p99
  // Judged as final, the same first 13 windows (65 sends) are one short group: its p99 is
  // the late send, and a run that ended there is rightly harness_limited.
  const std::vector<WindowEvidence> first13(ws.begin(), ws.begin() + 13);
  EXPECT_EQ(judgeRun(first13).kind, VerdictKind::HarnessLimited);
  // A complete group over tolerance is announced so far as it will be at the end.
  auto bad = lowRateRun(5, 3, 2);  // 3 of the first 100 sends late
  const std::vector<WindowEvidence> first20(bad.begin(), bad.begin() + 20);
  const Verdict live = judgeEvidence(first20, sum(first20, false), sum(first20, true), VerdictPolicy{}, {}, Judging::SoFar);
  ASSERT_EQ(live.kind, VerdictKind::HarnessLimited);
  EXPECT_EQ(live.reasons, judgeRun(bad).reasons);
}

// QA: a coordinator stopped for 3 s (Ctrl-Z, then fg) handed its sessions out late, and the
// workers' late sends read "the machine held them up". The coordinator is named instead.
TEST(Verdict, SessionsHandedOutLateNameTheCoordinatorNotTheMachine) {
  std::vector<WindowStats> ws = twoPromptWindows();
  ws[1].hist(Metric::SendLag).recordN(900'000'000, 50);
  ws[1].harness.handedLateMaxNs = 950'000'000;
  ws[1].harness.loopDelayMaxNs = 14'000'000;  // the workers' own probe saw little
  auto v = judge(ws, 200, 200, VerdictPolicy{});
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(v.reasons[0],
            "window 1\u20132 s: send lag p99 900 ms > 1 ms tolerance while workers were mostly "
            "idle (sessions reached their workers up to 950 ms after they were due: the "
            "coordinator that hands them out was held up (stopped, or without a CPU); a "
            "worker's event loop was held up to 14 ms at once)");
  // Late by less than the tolerance: not a cause.
  ws[1].harness.handedLateMaxNs = 500'000;
  v = judge(ws, 200, 200, VerdictPolicy{});
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_NE(v.reasons[0].find("the machine held them up"), std::string::npos) << v.reasons[0];
}
