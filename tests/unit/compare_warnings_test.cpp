#include <gtest/gtest.h>

#include <algorithm>

#include "core/compare/comparison.h"
#include "core/store/store_error.h"
#include "store_test_support.h"
#include "tests/fixtures/run_fixture.h"

namespace plumbline::compare {
namespace {

using fixtures::FixtureRun;
using store::testing::TempDir;

std::vector<WarningKind> kindsOf(const Comparison& c) {
  std::vector<WarningKind> kinds;
  for (const auto& w : c.warnings) kinds.push_back(w.kind);
  return kinds;
}

bool has(const Comparison& c, WarningKind k) {
  auto kinds = kindsOf(c);
  return std::find(kinds.begin(), kinds.end(), k) != kinds.end();
}

const ComparabilityWarning& warning(const Comparison& c, WarningKind k) {
  for (const auto& w : c.warnings)
    if (w.kind == k) return w;
  throw std::runtime_error("no warning " + std::string(warningKindName(k)));
}

class CompareWarnings : public ::testing::Test {
 protected:
  Comparison compareWith(const FixtureRun& other) {
    FixtureRun base;
    base.name = "base";
    int64_t a = fixtures::writeFixtureRun(path, base);
    int64_t b = fixtures::writeFixtureRun(path, other);
    return buildComparison(store::RunReader(path), {a, b}, Slo{});
  }
  TempDir dir;
  std::string path = dir.file("runs.db");
};

TEST_F(CompareWarnings, IdenticalSetupsRaiseNone) {
  FixtureRun other;
  other.stages = {{20, 5}};  // a different rate is what comparisons are for: no warning
  Comparison c = compareWith(other);
  EXPECT_TRUE(c.warnings.empty()) << c.warnings.front().message;
}

TEST_F(CompareWarnings, RepliesShorterThanPlannedAreALengthsWarning) {
  FixtureRun shortReplies;
  shortReplies.servedShare = 0.25;  // the server ignored ignore_eos
  Comparison c = compareWith(shortReplies);
  ASSERT_TRUE(has(c, WarningKind::Lengths));
  const auto& w = warning(c, WarningKind::Lengths);
  EXPECT_NE(w.message.find("'s replies were 25% of their planned length"), std::string::npos)
      << w.message;
  ASSERT_EQ(w.runIds.size(), 1u);
  FixtureRun whole;
  whole.servedShare = 0.95;  // within 10 %: nothing to say
  EXPECT_FALSE(has(compareWith(whole), WarningKind::Lengths));
}

TEST_F(CompareWarnings, DifferentTemperatureIsTheFirstWarningAndNamesBothValues) {
  FixtureRun other;
  other.temperature = 0.0;
  Comparison c = compareWith(other);
  ASSERT_FALSE(c.warnings.empty());
  EXPECT_EQ(c.warnings.front().kind, WarningKind::Sampling);
  const std::string& m = c.warnings.front().message;
  EXPECT_NE(m.find("temperature: 0.7 (#1) vs 0.0 (#2)"), std::string::npos) << m;
  EXPECT_EQ(c.warnings.size(), 1u);
}

TEST_F(CompareWarnings, TemperatureSetAgainstUnsetIsAWarning) {
  FixtureRun other;
  other.temperature.reset();
  Comparison c = compareWith(other);
  EXPECT_NE(warning(c, WarningKind::Sampling).message.find("vs unset (#2)"), std::string::npos);
}

TEST_F(CompareWarnings, DifferentOutputLengthsAreLengthWarning) {
  FixtureRun other;
  other.outputTokens = 200;
  Comparison c = compareWith(other);
  ASSERT_EQ(kindsOf(c), std::vector{WarningKind::Lengths});
  EXPECT_NE(c.warnings[0].message.find("output_tokens"), std::string::npos);
  EXPECT_EQ(c.warnings[0].message.find("input_tokens"), std::string::npos);
}

TEST_F(CompareWarnings, DifferentPromptSourceIsDatasetWarning) {
  FixtureRun other;
  other.prompt = "sharegpt";
  EXPECT_EQ(kindsOf(compareWith(other)), std::vector{WarningKind::Dataset});
}

TEST_F(CompareWarnings, DifferentTokenCountSourceIsWarned) {
  FixtureRun other;
  other.serverCounts = false;
  Comparison c = compareWith(other);
  ASSERT_EQ(kindsOf(c), std::vector{WarningKind::TokenCountSource});
  EXPECT_NE(c.warnings[0].message.find("server (#1) vs client (#2)"), std::string::npos)
      << c.warnings[0].message;
}

TEST_F(CompareWarnings, HarnessLimitedRunIsNamed) {
  FixtureRun other;
  other.harnessLimited = true;
  Comparison c = compareWith(other);
  ASSERT_EQ(kindsOf(c), std::vector{WarningKind::HarnessLimited});
  EXPECT_EQ(c.warnings[0].runIds, std::vector<int64_t>{2});
  EXPECT_EQ(c.runs[1].row.verdict.value_or(""), "harness_limited");
}

TEST_F(CompareWarnings, DifferentToolVersionIsWarned) {
  FixtureRun other;
  other.toolVersion = "0.2.0";
  EXPECT_EQ(kindsOf(compareWith(other)), std::vector{WarningKind::ToolVersion});
}

TEST_F(CompareWarnings, DifferentModelIsWarned) {
  FixtureRun other;
  other.model = "other-model";
  Comparison c = compareWith(other);
  EXPECT_TRUE(has(c, WarningKind::Model));
}

TEST_F(CompareWarnings, EmbeddedPortDoesNotCountButAnotherEndpointDoes) {
  FixtureRun samePort;
  samePort.targetUrl = "embedded (http://127.0.0.1:40001)";
  EXPECT_TRUE(compareWith(samePort).warnings.empty());
  FixtureRun remote;
  remote.targetUrl = "http://127.0.0.1:8000";
  EXPECT_TRUE(has(compareWith(remote), WarningKind::Target));
}

// QA 24 D5: a run where the timeout cut 49 of 50 requests compared with "no warnings".
TEST_F(CompareWarnings, DifferentTimeoutsAreATargetWarningNamingBothValues) {
  FixtureRun shortTimeout;
  shortTimeout.timeoutS = 0.2405;
  Comparison c = compareWith(shortTimeout);
  ASSERT_EQ(kindsOf(c), std::vector{WarningKind::Target});
  EXPECT_NE(c.warnings[0].message.find("target.timeout_s: 60.0 (#1) vs 0.2405 (#2)"),
            std::string::npos)
      << c.warnings[0].message;
  FixtureRun theDefault;  // written out, the default is the same timeout
  theDefault.timeoutS = 60;
  EXPECT_TRUE(compareWith(theDefault).warnings.empty());
}

// QA 24 D6: a run timed by libcurl against one timed by kernel arrival stamps, no warning.
TEST_F(CompareWarnings, RunsTimedByDifferentHttpClientsAreWarned) {
  FixtureRun curl;
  curl.httpClient = "curl";
  Comparison c = compareWith(curl);
  ASSERT_EQ(kindsOf(c), std::vector{WarningKind::HttpClient});
  EXPECT_NE(c.warnings[0].message.find("http_client: native_arrival_stamps (#1) vs curl (#2)"),
            std::string::npos)
      << c.warnings[0].message;
  FixtureRun unrecorded;  // stored before the client was: nothing known to differ
  unrecorded.httpClient.clear();
  EXPECT_TRUE(compareWith(unrecorded).warnings.empty());
}

// Gaps per event of four tokens against gaps per event of one: the inter-token rows differ by
// what an event carried, not by the server's speed; TPOT is what compares.
TEST_F(CompareWarnings, RunsWhoseEventsCarriedDifferentNumbersOfTokensAreWarned) {
  FixtureRun fourAnEvent;
  fourAnEvent.tokensPerEvent = 4;  // 19 tokens after the first over 5 gaps
  Comparison c = compareWith(fourAnEvent);
  ASSERT_EQ(kindsOf(c), std::vector{WarningKind::TokensPerEvent});
  EXPECT_EQ(c.warnings[0].message,
            "streamed events carried different numbers of tokens (tokens_per_event: 1.00 (#1) vs "
            "3.80 (#2)): an inter-token gap is per event, so the gaps are not like for like; "
            "compare TPOT (time per output token) instead");
  EXPECT_EQ(warningKindName(WarningKind::TokensPerEvent), "tokens_per_event");
  FixtureRun plain;  // not streamed: no gaps, nothing to warn about
  plain.stream = false;
  EXPECT_FALSE(has(compareWith(plain), WarningKind::TokensPerEvent));
}

TEST_F(CompareWarnings, UnfinishedRunIsWarned) {
  FixtureRun base;
  int64_t a = fixtures::writeFixtureRun(path, base);
  int64_t b = 0;
  {
    store::RunWriter writer(path, store::RunInfo{});  // never finished; this process lives
    b = writer.runId();
  }
  Comparison c = buildComparison(store::RunReader(path), {a, b}, Slo{});
  EXPECT_TRUE(has(c, WarningKind::Incomplete));
  EXPECT_EQ(warning(c, WarningKind::Incomplete).runIds, std::vector<int64_t>{b});
}

TEST(CompareIds, CountAndRepeatsAreInvalidInput) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  fixtures::writeFixtureRun(path, FixtureRun{});
  store::RunReader reader(path);
  auto kindOf = [&](const std::vector<int64_t>& ids) {
    try {
      buildComparison(reader, ids, Slo{});
    } catch (const store::StoreError& e) {
      return e.kind();
    }
    return store::StoreErrorKind::Failure;
  };
  EXPECT_EQ(kindOf({1}), store::StoreErrorKind::InvalidInput);
  EXPECT_EQ(kindOf({1, 1}), store::StoreErrorKind::InvalidInput);
  EXPECT_EQ(kindOf({1, 2, 3, 4, 5}), store::StoreErrorKind::InvalidInput);
  EXPECT_EQ(kindOf({1, 99}), store::StoreErrorKind::NotFound);
}

}  // namespace
}  // namespace plumbline::compare
