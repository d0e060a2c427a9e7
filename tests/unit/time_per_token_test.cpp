// Inter-token gaps are per streamed event; a server sending several tokens an event has gaps
// that long. The run also times each stream per token (tpot: first to last token over its tokens
// less one) and says how many tokens an event carried, by whose count, so that a gap per event
// is not read as a token's.
#include <gtest/gtest.h>

#include <sstream>

#include "core/compare/goodput.h"
#include "core/engine/terminal_report.h"
#include "core/metrics/run_aggregator.h"
#include "core/store/runs_command.h"
#include "store_test_support.h"
#include "tests/fixtures/run_fixture.h"

using namespace plumbline;

namespace {

constexpr int64_t kTpotTestNsPerMs = 1'000'000;

/// A completed stream of `events` events 40 ms apart after a 20 ms TTFT, `tokensPerEvent`
/// tokens each but the first (alone), counted by the server's usage or (serverUsage false) by
/// the client, one per event.
metrics::RequestRecord stream(int64_t atMs, int events, int tokensPerEvent, bool serverUsage) {
  metrics::RequestRecord r;
  r.plannedNs = r.sendNs = atMs * kTpotTestNsPerMs;
  r.firstTokenNs = r.firstAnswerNs = r.sendNs + 20 * kTpotTestNsPerMs;
  r.lastTokenNs = r.firstTokenNs + (events - 1) * 40 * kTpotTestNsPerMs;
  r.endNs = r.lastTokenNs;
  r.outputTokensClient = events;
  if (serverUsage) r.outputTokensServer = 1 + (events - 1) * tokensPerEvent;
  r.inputTokensServer = serverUsage ? 10 : -1;
  r.inputTokensClient = 10;
  return r;
}

/// `n` such streams, their gaps reported as a worker reports them (one per pair of events).
metrics::RunSummary streamedRun(int n, int tokensPerEvent, bool serverUsage = true) {
  metrics::RunAggregator a;
  for (int i = 0; i < n; ++i) {
    const metrics::RequestRecord r = stream(i * 10, 11, tokensPerEvent, serverUsage);
    a.addPlanned(r.plannedNs);
    a.addRecord(r);
    metrics::LatencyHistogram gaps;
    for (int g = 0; g < 10; ++g) gaps.record(40 * kTpotTestNsPerMs);
    a.addItl(gaps, r.endNs);
  }
  return a.summarize(1.0, static_cast<double>(n), {});
}

}  // namespace

TEST(TimePerToken, ARecordIsTimedPerTokenByTheServersCountElseTheClients) {
  metrics::RequestRecord r = stream(0, 11, 4, true);  // 41 tokens over 400 ms
  EXPECT_EQ(r.gapTokens(), 41);
  EXPECT_EQ(r.tpotNs(), 10 * kTpotTestNsPerMs);
  r.outputTokensServer = -1;  // no usage: the client's count, one an event
  EXPECT_EQ(r.gapTokens(), 11);
  EXPECT_EQ(r.tpotNs(), 40 * kTpotTestNsPerMs);
  r.outputTokensClient = 1;  // one token: no gap to time
  EXPECT_EQ(r.tpotNs(), -1);
  metrics::RequestRecord plain;  // not streamed: no first token
  plain.sendNs = 0;
  plain.endNs = 5 * kTpotTestNsPerMs;
  plain.outputTokensServer = 20;
  EXPECT_EQ(plain.tpotNs(), -1);
}

TEST(TimePerToken, TheRunTimesStreamsPerTokenAndCountsTokensPerEvent) {
  const metrics::RunSummary four = streamedRun(20, 4);
  EXPECT_NEAR(four.itlMs.p50, 40, 0.4);  // per event
  EXPECT_EQ(four.tpotMs.count, 20);      // one per stream
  EXPECT_NEAR(four.tpotMs.p50, 10, 0.1);
  EXPECT_NEAR(four.tpotMs.p99, 10, 0.1);
  ASSERT_TRUE(four.tokensPerEvent);
  EXPECT_DOUBLE_EQ(*four.tokensPerEvent, 4.0);  // 20 × 40 tokens after the first over 200 gaps
  const metrics::RunSummary one = streamedRun(20, 1);
  EXPECT_NEAR(one.tpotMs.p50, 40, 0.4);  // a token an event: the two agree
  EXPECT_DOUBLE_EQ(*one.tokensPerEvent, 1.0);
  const metrics::RunSummary clientOnly = streamedRun(20, 4, false);
  EXPECT_NEAR(clientOnly.tpotMs.p50, 40, 0.4);  // the client counts events: it cannot tell
  EXPECT_DOUBLE_EQ(*clientOnly.tokensPerEvent, 1.0);
  // Nothing streamed: no figure, and no count of tokens per event.
  metrics::RunAggregator a;
  metrics::RequestRecord r;
  r.plannedNs = r.sendNs = 0;
  r.endNs = 5 * kTpotTestNsPerMs;
  r.outputTokensServer = 20;
  a.addPlanned(0);
  a.addRecord(r);
  const metrics::RunSummary plain = a.summarize(1.0, 1.0, {});
  EXPECT_TRUE(plain.tpotMs.empty());
  EXPECT_FALSE(plain.tokensPerEvent);
}

TEST(TimePerToken, AFailedStreamIsNotTimed) {
  metrics::RunAggregator a;
  metrics::RequestRecord r = stream(0, 11, 4, true);
  r.error = metrics::ErrorClass::StreamCut;
  a.addPlanned(0);
  a.addRecord(r);
  const metrics::RunSummary s = a.summarize(1.0, 1.0, {});
  EXPECT_TRUE(s.tpotMs.empty());
  EXPECT_FALSE(s.tokensPerEvent);
}

TEST(TimePerToken, TheReportPrintsTpotUnderInterTokenAndSaysWhenEventsCarriedSeveral) {
  const std::string four = engine::formatRunReport(streamedRun(20, 4), {});
  const auto itl = four.find("  inter-token  ");
  const auto tpot = four.find("  tpot (per token)  ");
  ASSERT_NE(tpot, std::string::npos) << four;
  EXPECT_EQ(four.find('\n', itl) + 1, tpot) << "tpot sits right under inter-token\n" << four;
  EXPECT_NE(four.find("  tokens per event: 4.00 by the server's usage, so each inter-token gap "
                      "(one per streamed event) spans several tokens; tpot is the time per "
                      "token\n"),
            std::string::npos)
      << four;
  const std::string one = engine::formatRunReport(streamedRun(20, 1), {});
  EXPECT_NE(one.find("  tpot (per token)  "), std::string::npos) << one;
  EXPECT_EQ(one.find("tokens per event"), std::string::npos) << one;
}

TEST(TimePerToken, RunsShowPrintsTpotForAStreamedRunOnly) {
  store::testing::TempDir dir;
  const std::string path = dir.file("runs.db");
  fixtures::FixtureRun streamed, plain;
  plain.stream = false;
  const int64_t streamedId = fixtures::writeFixtureRun(path, streamed);
  const int64_t plainId = fixtures::writeFixtureRun(path, plain);
  std::ostringstream s, p, err;
  ASSERT_EQ(store::runsShow(path, streamedId, s, err), 0) << err.str();
  ASSERT_EQ(store::runsShow(path, plainId, p, err), 0) << err.str();
  const std::string shown = s.str();
  const auto itl = shown.find("inter-token  ");
  const auto tpot = shown.find("tpot (per token)    10.");  // 20 tokens 10 ms apart
  ASSERT_NE(tpot, std::string::npos) << shown;
  EXPECT_EQ(shown.find('\n', itl) + 1, tpot) << shown;
  EXPECT_EQ(shown.find("tokens per event"), std::string::npos) << shown;  // one an event
  EXPECT_EQ(p.str().find("tpot"), std::string::npos) << p.str();
}

TEST(TimePerToken, GoodputJudgesTheGapPerTokenAsTpotTimesIt) {
  compare::Slo slo;
  slo.itlMs = 15;
  compare::GoodputCounter counter(slo);
  metrics::RequestRecord four = stream(0, 11, 4, true);  // 40 ms an event, 10 ms a token
  EXPECT_TRUE(counter.meets(four));
  four.outputTokensServer = -1;  // per the client's count it is 40 ms a token
  EXPECT_FALSE(counter.meets(four));
}
