// A reasoning model's first token is thinking: TTFT times it, TTFA the answer's first token.
// The run counts the streams that thought first, and only then do the report and `runs show`
// print the ttfa row (a model that does not think has its answer's time in TTFT already).
#include <gtest/gtest.h>

#include <sstream>

#include "core/engine/terminal_report.h"
#include "core/metrics/run_aggregator.h"
#include "core/store/run_reader.h"
#include "core/store/runs_command.h"
#include "store_test_support.h"
#include "tests/fixtures/run_fixture.h"

using namespace plumbline;

namespace {

constexpr int64_t kAnswerTestNsPerMs = 1'000'000;

/// `n` completed streams, each first token at 20 ms; `thinkers` of them answer 50 ms later.
metrics::RunSummary answeredRun(int n, int thinkers) {
  metrics::RunAggregator a;
  for (int i = 0; i < n; ++i) {
    metrics::RequestRecord r;
    r.plannedNs = i * 10 * kAnswerTestNsPerMs;
    r.sendNs = r.plannedNs;
    r.firstTokenNs = r.sendNs + 20 * kAnswerTestNsPerMs;
    r.firstAnswerNs = r.firstTokenNs + (i < thinkers ? 50 * kAnswerTestNsPerMs : 0);
    r.lastTokenNs = r.firstAnswerNs + 10 * kAnswerTestNsPerMs;
    r.endNs = r.lastTokenNs;
    a.addPlanned(r.plannedNs);
    a.addRecord(r);
  }
  return a.summarize(1.0, static_cast<double>(n), {});
}

}  // namespace

TEST(AnswerToken, TheRunTimesTheAnswerAndCountsTheStreamsThatThoughtFirst) {
  const metrics::RunSummary s = answeredRun(10, 8);
  EXPECT_EQ(s.thoughtFirst, 8u);
  EXPECT_EQ(s.answerMs.count, 10);
  EXPECT_NEAR(s.answerMs.p50, 70, 0.7);
  EXPECT_NEAR(s.ttftMs.p50, 20, 0.2);
  EXPECT_EQ(answeredRun(10, 0).thoughtFirst, 0u);
  // A stream that never reached its answer (still thinking at its length) thought first too.
  metrics::RunAggregator a;
  metrics::RequestRecord r;
  r.plannedNs = r.sendNs = 0;
  r.firstTokenNs = r.lastTokenNs = r.endNs = 5 * kAnswerTestNsPerMs;
  a.addPlanned(0);
  a.addRecord(r);
  const metrics::RunSummary unanswered = a.summarize(1.0, 1.0, {});
  EXPECT_EQ(unanswered.thoughtFirst, 1u);
  EXPECT_TRUE(unanswered.answerMs.empty());
}

TEST(AnswerToken, TheReportShowsTtfaOnlyWhenAStreamThoughtFirst) {
  const std::string thinking = engine::formatRunReport(answeredRun(10, 8), {});
  const auto ttft = thinking.find("  ttft  ");
  const auto ttfa = thinking.find("  ttfa (answer)  ");
  ASSERT_NE(ttfa, std::string::npos) << thinking;
  EXPECT_LT(ttft, ttfa);
  EXPECT_EQ(thinking.find('\n', ttft) + 1, ttfa - 0) << "ttfa sits right under ttft\n" << thinking;
  EXPECT_NE(thinking.find("  reasoning: 8 of 10 streams thought before answering; ttft counts the "
                          "first thinking token, ttfa the first answer token\n"),
            std::string::npos)
      << thinking;
  const std::string plain = engine::formatRunReport(answeredRun(10, 0), {});
  EXPECT_EQ(plain.find("ttfa"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("reasoning:"), std::string::npos) << plain;
}

TEST(AnswerToken, RunsShowPrintsTtfaOnlyForARunThatThought) {
  store::testing::TempDir dir;
  const std::string path = dir.file("runs.db");
  fixtures::FixtureRun plainRun, thinkingRun;
  thinkingRun.thinkMs = 40;
  const int64_t plainId = fixtures::writeFixtureRun(path, plainRun);
  const int64_t thinkingId = fixtures::writeFixtureRun(path, thinkingRun);
  std::ostringstream plain, thinking, err;
  ASSERT_EQ(store::runsShow(path, plainId, plain, err), 0) << err.str();
  ASSERT_EQ(store::runsShow(path, thinkingId, thinking, err), 0) << err.str();
  EXPECT_EQ(plain.str().find("ttfa"), std::string::npos) << plain.str();
  const std::string shown = thinking.str();
  const auto ttfa = shown.find("ttfa (answer)       90.");
  ASSERT_NE(ttfa, std::string::npos) << shown;
  EXPECT_LT(shown.find("ttft  "), ttfa);
  EXPECT_NE(shown.find("reasoning: 50 of 50 streams thought before answering"), std::string::npos)
      << shown;
  // The store keeps each request's answer instant.
  store::RunReader reader(path);
  int64_t thought = 0;
  reader.forEachRequest(thinkingId, [&](const metrics::RequestRecord& r) {
    if (r.firstAnswerNs - r.firstTokenNs == 40 * kAnswerTestNsPerMs) ++thought;
  });
  EXPECT_EQ(thought, 50);
}
