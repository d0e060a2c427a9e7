// LiveTickBuilder: cadence, counters, rates over the last second, recent latencies, harness state.
#include <gtest/gtest.h>

#include "core/engine/live_tick_builder.h"

using namespace plumbline;
using engine::LiveTickBuilder;
using engine::StatsReport;

namespace {

constexpr int64_t kMs = 1'000'000;

metrics::RequestRecord done(int64_t plannedMs, int64_t ttftMs, int64_t e2eMs) {
  metrics::RequestRecord r;
  r.plannedNs = plannedMs * kMs;
  r.sendNs = r.plannedNs + kMs / 10;
  r.firstTokenNs = r.sendNs + ttftMs * kMs;
  r.endNs = r.sendNs + e2eMs * kMs;
  r.lastTokenNs = r.endNs;
  r.inputTokensServer = 10;
  r.outputTokensServer = 5;
  return r;
}

StatsReport stats(uint32_t worker, int64_t atMs, double cpu, int64_t inFlight, uint64_t connections) {
  StatsReport s;
  s.sample.workerId = worker;
  s.sample.atNs = atMs * kMs;
  s.sample.cpuFraction = cpu;
  s.sample.inFlight = inFlight;
  s.sample.loopDelayMaxNs = 2 * kMs;
  s.connectionsOpen = connections;
  return s;
}

}  // namespace

TEST(LiveTickBuilder, TicksAreDueEvery250MsOnTheGrid) {
  LiveTickBuilder b;
  metrics::RunAggregator a;
  EXPECT_FALSE(b.due(-50 * kMs, a));
  EXPECT_FALSE(b.due(0, a));
  EXPECT_FALSE(b.due(249 * kMs, a));
  auto t = b.due(262 * kMs, a);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->atNs, 250 * kMs);
  EXPECT_FALSE(b.due(300 * kMs, a));
  // A stalled loop: one tick at the latest grid point, not a burst of stale ones.
  t = b.due(1'010 * kMs, a);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->atNs, 1'000 * kMs);
  EXPECT_FALSE(b.due(1'100 * kMs, a));
  EXPECT_TRUE(b.due(1'250 * kMs, a));
}

/// The k-th quarter second's 10 planned and sent requests, due just before its tick, counted by
/// the aggregator and by the builder (planned as the coordinator passes their instant, sent in
/// worker 1's report at the tick, which has all its sends up to then).
static void planAndSendTen(LiveTickBuilder& b, metrics::RunAggregator& a, int k) {
  a.addPlanned(k * 250 * kMs - 1, 10);
  b.addPlanned(k * 250 * kMs - 1, 10);
  metrics::SendReport s;
  s.windowIndex = a.windowIndexAt(k * 250 * kMs - 1);
  s.sent = 10;
  a.addSends(s);
  StatsReport report = stats(1, k * 250, 0.1, 0, 1);
  report.sentBySlice = {{k - 1, 10}};
  b.addStats(report);
  b.setSendsReportedThrough(k * 250 * kMs);
}

TEST(LiveTickBuilder, CountersAreCumulativeAndRatesCoverTheLastSecond) {
  LiveTickBuilder b;
  metrics::RunAggregator a;
  // 10 planned/sent per 250 ms for 2 s: 40 per second.
  for (int k = 1; k <= 8; ++k) {
    planAndSendTen(b, a, k);
    auto r = done(k * 250 - 100, 5, 20);
    a.addRecord(r);
    auto t = b.due(k * 250 * kMs, a);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->planned, static_cast<uint64_t>(10 * k));
    EXPECT_EQ(t->sent, static_cast<uint64_t>(10 * k));
    EXPECT_EQ(t->completed, static_cast<uint64_t>(k));
    EXPECT_EQ(t->outputTokens, static_cast<uint64_t>(5 * k));
    if (k >= 4) {
      EXPECT_EQ(t->ratesThroughNs, k * 250 * kMs);
      EXPECT_DOUBLE_EQ(t->requestedRps, 40);
      EXPECT_DOUBLE_EQ(t->achievedRps, 40);
      EXPECT_DOUBLE_EQ(t->outputTokensPerS, 20);
    }
  }
  metrics::RequestRecord failed = done(2'100, 5, 20);
  failed.error = metrics::ErrorClass::Timeout;
  a.addRecord(failed);
  auto t = b.build(2'250 * kMs, a);
  EXPECT_EQ(t.errors.at("timeout"), 1u);
  EXPECT_EQ(t.errors.size(), 1u);
}

TEST(LiveTickBuilder, NoRatesUntilAWholeSecondIsReported) {
  // QA 23b: the first tick said 12/s requested on a 5/s stage, 3 requests over 0.25 s. Rates
  // are over whole seconds: none in the first, then the second's counts.
  LiveTickBuilder b;
  metrics::RunAggregator a;
  planAndSendTen(b, a, 1);
  for (int k = 1; k <= 5; ++k) {
    if (k > 1) b.setSendsReportedThrough(k * 250 * kMs);
    auto t = b.due(k * 250 * kMs, a);
    ASSERT_TRUE(t);
    const bool whole = k >= 4;
    EXPECT_EQ(t->ratesThroughNs, whole ? k * 250 * kMs : 0) << "tick at " << k * 250 << " ms";
    EXPECT_DOUBLE_EQ(t->requestedRps, k == 4 ? 10 : 0) << "tick at " << k * 250 << " ms";
    EXPECT_DOUBLE_EQ(t->achievedRps, k == 4 ? 10 : 0) << "tick at " << k * 250 << " ms";
  }
}

TEST(LiveTickBuilder, RatesAreOverTheLatestSecondEveryWorkerReportedInFull) {
  // QA 23b D6: 5 requests a second, every one sent on time, but the sends of the last quarter
  // second not yet reported at the tick: counted then, achieved read 4/s against 5 requested.
  LiveTickBuilder b;
  metrics::RunAggregator a;
  for (int i = 0; i < 10; ++i) b.addPlanned(i * 200 * kMs + 10 * kMs, 1);  // 0.01, 0.21, ... 1.81 s
  StatsReport early = stats(1, 1'600, 0.1, 0, 1);  // sends up to 1.6 s: 8 of them
  early.sentBySlice = {{0, 2}, {1, 1}, {2, 1}, {3, 1}, {4, 2}, {5, 1}};
  b.addStats(early);
  b.setSendsReportedThrough(1'600 * kMs);
  auto t = b.build(1'750 * kMs, a);  // planned up to 1.75 s, sends reported up to 1.6 s
  EXPECT_EQ(t.ratesThroughNs, 1'500 * kMs);
  EXPECT_DOUBLE_EQ(t.requestedRps, 5);  // 0.61, 0.81, 1.01, 1.21, 1.41 s
  EXPECT_DOUBLE_EQ(t.achievedRps, 5);
  // Ticks while the reports stay behind give no newer second.
  EXPECT_EQ(b.build(2'000 * kMs, a).ratesThroughNs, 1'500 * kMs);
}

TEST(LiveTickBuilder, AchievedRateLeavesOutRequestsThatNeverLeftTheMachine) {
  LiveTickBuilder b;
  metrics::RunAggregator a;
  // 40 due per second, of which 10 a second find no descriptor for their connection.
  for (int k = 1; k <= 8; ++k) {
    planAndSendTen(b, a, k);
    if (k % 2 == 0)
      for (int i = 0; i < 5; ++i) {
        metrics::RequestRecord noSocket = done(k * 250 - 100, 0, 0);
        noSocket.error = metrics::ErrorClass::HarnessLimit;
        a.addRecord(noSocket);
        b.addRecords({noSocket});
      }
    auto t = b.due(k * 250 * kMs, a);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->sent, static_cast<uint64_t>(10 * k));
    if (k >= 6 && k % 2 == 0) {  // a whole second back to a tick with the same phase
      EXPECT_DOUBLE_EQ(t->requestedRps, 40);
      EXPECT_DOUBLE_EQ(t->achievedRps, 30);
    }
  }
}

TEST(LiveTickBuilder, LatenciesAreThoseOfRequestsThatEndedInTheLastSecond) {
  LiveTickBuilder b;
  metrics::RunAggregator a;
  b.addRecords({done(0, 100, 200)});        // ends at ~200 ms: too old for the tick at 1.5 s
  b.addRecords({done(800, 10, 40), done(900, 30, 60)});  // end in (0.5 s, 1.5 s]
  auto t = b.build(1'500 * kMs, a);
  EXPECT_EQ(t.ttft.count, 2u);
  EXPECT_NEAR(t.ttft.p99, 30, 0.5);
  EXPECT_NEAR(t.ttft.p50, 10, 0.2);
  EXPECT_EQ(t.e2e.count, 2u);
  EXPECT_NEAR(t.e2eFromPlanned.p99, 60.1, 0.6);
  t = b.build(3'000 * kMs, a);
  EXPECT_EQ(t.ttft.count, 0u);
  EXPECT_EQ(t.ttft.p99, 0);
}

// TTFA: from the send to the first answer token, of the streams that had one; a reasoning
// model's thinking lies between its first token and it.
TEST(LiveTickBuilder, TtfaIsThatOfRequestsWithAnAnswerToken) {
  LiveTickBuilder b;
  metrics::RunAggregator a;
  metrics::RequestRecord thought = done(800, 10, 300);
  thought.firstAnswerNs = thought.firstTokenNs + 100 * kMs;  // 100 ms of thinking
  metrics::RequestRecord plain = done(900, 30, 60);
  plain.firstAnswerNs = plain.firstTokenNs;
  metrics::RequestRecord stillThinking = done(950, 20, 50);  // ended with no answer token
  b.addRecords({thought, plain, stillThinking});
  const auto t = b.build(1'500 * kMs, a);
  EXPECT_EQ(t.ttft.count, 3u);
  EXPECT_EQ(t.ttfa.count, 2u);
  EXPECT_NEAR(t.ttfa.p50, 30, 0.3);
  EXPECT_NEAR(t.ttfa.p99, 110, 1.1);
  EXPECT_EQ(b.build(3'000 * kMs, a).ttfa.count, 0u);
}

// TPOT: each stream's first to last token over its tokens less one, per token whatever the
// server put in an event; a reply of one token, or none streamed, has none.
TEST(LiveTickBuilder, TpotIsThatOfStreamsOfTwoTokensOrMore) {
  LiveTickBuilder b;
  metrics::RunAggregator a;
  metrics::RequestRecord fast = done(800, 10, 90);  // 5 tokens over 80 ms: 20 ms a token
  metrics::RequestRecord slow = done(900, 10, 410);
  slow.outputTokensServer = 11;                    // 11 tokens over 400 ms: 40 ms a token
  metrics::RequestRecord one = done(950, 10, 20);
  one.outputTokensServer = 1;                      // one token: no time per token
  metrics::RequestRecord unstreamed = done(960, 10, 20);
  unstreamed.firstTokenNs = unstreamed.lastTokenNs = -1;
  b.addRecords({fast, slow, one, unstreamed});
  const auto t = b.build(1'500 * kMs, a);
  EXPECT_EQ(t.e2e.count, 4u);
  EXPECT_EQ(t.tpot.count, 2u);
  EXPECT_NEAR(t.tpot.p50, 20, 0.2);
  EXPECT_NEAR(t.tpot.p99, 40, 0.4);
  EXPECT_EQ(b.build(3'000 * kMs, a).tpot.count, 0u);
}

TEST(LiveTickBuilder, HarnessStateComesFromEachWorkersLatestSample) {
  LiveTickBuilder b;
  metrics::RunAggregator a;
  b.addStats(stats(0, 200, 0.5, 3, 4));
  b.addStats(stats(1, 220, 0.25, 2, 3));
  b.addStats(stats(0, 100, 0.9, 99, 99));  // older than the one held: ignored
  StatsReport withLag = stats(1, 240, 0.75, 1, 2);
  withLag.itl.record(3 * kMs);
  metrics::SendReport send;
  send.sent = 1;
  send.sendLag.record(kMs / 2);
  withLag.sends.push_back(send);
  b.addStats(withLag);
  auto t = b.build(250 * kMs, a);
  EXPECT_EQ(t.inFlight, 3 + 1);
  EXPECT_EQ(t.connectionsOpen, 4 + 2);
  // CPU as a window reduces it: every sample of the second, the busiest worker's mean (worker
  // 0: 0.5 and 0.9) and the mean of all four.
  EXPECT_DOUBLE_EQ(t.workerCpuMax, 0.7);
  EXPECT_DOUBLE_EQ(t.workerCpuMean, 0.6);
  EXPECT_DOUBLE_EQ(t.loopDelayMaxMs, 2);
  EXPECT_EQ(t.itl.count, 1u);
  EXPECT_NEAR(t.itl.p50, 3, 0.05);
  EXPECT_EQ(t.sendLag.count, 1u);
  EXPECT_NEAR(t.sendLag.p99, 0.5, 0.01);
  b.removeWorker(0);
  t = b.build(500 * kMs, a);
  EXPECT_EQ(t.inFlight, 1);
  EXPECT_EQ(t.connectionsOpen, 2);
}

// QA: Live's worker CPU stayed flat at its last value after sending stopped: each worker's
// latest sample counted as current however old. A tick has the CPU of its last second, as a
// window has the CPU of its own time, so Live and History agree.
TEST(LiveTickBuilder, WorkerCpuIsThatOfTheLastSecondsSamples) {
  LiveTickBuilder b;
  metrics::RunAggregator a;
  b.addStats(stats(0, 300, 0.8, 1, 1));
  b.addStats(stats(0, 600, 0.4, 1, 1));
  b.addStats(stats(1, 700, 0.2, 0, 1));
  auto t = b.build(1000 * kMs, a);
  EXPECT_DOUBLE_EQ(t.workerCpuMax, 0.6);  // worker 0's mean over the second
  EXPECT_NEAR(t.workerCpuMean, 1.4 / 3, 1e-12);
  b.addStats(stats(1, 1100, 0.1, 0, 1));
  t = b.build(1750 * kMs, a);  // worker 0's samples are older than the second
  EXPECT_DOUBLE_EQ(t.workerCpuMax, 0.1);
  EXPECT_DOUBLE_EQ(t.workerCpuMean, 0.1);
  t = b.build(2500 * kMs, a);  // nobody reported for a second: no CPU used, as a window says
  EXPECT_DOUBLE_EQ(t.workerCpuMax, 0);
  EXPECT_DOUBLE_EQ(t.workerCpuMean, 0);
  EXPECT_EQ(t.inFlight, 1);  // still the latest known: requests do not end by going quiet
}

// The tick's CPU wait is the most one worker waited over the last second (its samples summed);
// older samples, and samples that could not tell, add nothing; none known reads -1.
TEST(LiveTickBuilder, CpuWaitIsTheMostOneWorkerWaitedInTheLastSecond) {
  LiveTickBuilder b;
  metrics::RunAggregator a;
  auto waited = [](uint32_t worker, int64_t atMs, int64_t ns) {
    StatsReport s = stats(worker, atMs, 0.5, 0, 0);
    s.sample.cpuWaitNs = ns;
    return s;
  };
  b.addStats(waited(0, 200, -1));
  EXPECT_DOUBLE_EQ(b.build(250 * kMs, a).cpuWaitMaxMs, -1);
  b.addStats(waited(0, 300, 4 * kMs));  // out of the second that ends at 1.5 s
  b.addStats(waited(0, 600, 3 * kMs));
  b.addStats(waited(0, 900, 2 * kMs));
  b.addStats(waited(1, 700, 6 * kMs));
  b.addStats(waited(1, 1100, -1));
  EXPECT_DOUBLE_EQ(b.build(1000 * kMs, a).cpuWaitMaxMs, 9);  // worker 0: 4 + 3 + 2
  EXPECT_DOUBLE_EQ(b.build(1500 * kMs, a).cpuWaitMaxMs, 6);  // worker 1 alone; 0 has 5
}

// A tick carries the latest a session handed out in its last second reached its worker after it
// was due; hand-outs of an earlier second add nothing, and none late reads 0.
TEST(LiveTickBuilder, HandedLateIsTheLatestHandOutOfTheLastSecond) {
  LiveTickBuilder b;
  metrics::RunAggregator a;
  EXPECT_DOUBLE_EQ(b.build(250 * kMs, a).handedLateMaxMs, 0);
  b.addHandedLate(300 * kMs, 950 * kMs);
  b.addHandedLate(400 * kMs, 120 * kMs);
  b.addHandedLate(1200 * kMs, 40 * kMs);
  EXPECT_DOUBLE_EQ(b.build(1000 * kMs, a).handedLateMaxMs, 950);
  EXPECT_DOUBLE_EQ(b.build(1500 * kMs, a).handedLateMaxMs, 40);  // 0.3 s is out of (0.5, 1.5]
  EXPECT_DOUBLE_EQ(b.build(2500 * kMs, a).handedLateMaxMs, 0);
}
