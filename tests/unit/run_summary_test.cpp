#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "core/metrics/run_summary.h"

using namespace plumbline::metrics;

namespace {

RunSummary sampleSummary() {
  RunSummary s;
  s.runId = 42;
  s.verdict = {VerdictKind::HarnessLimited, {"sent 1 of 2 planned (50.0%)"}};
  s.planned = 2;
  s.sent = 1;
  s.completed = 1;
  s.notSent = 1;
  s.errors = {{"timeout", 3}, {"rate_limited", 2}};
  s.retryAfterResponses = 2;
  s.retryAfterMinMs = 1000;
  s.retryAfterMaxMs = 30'000;
  s.durationS = 10;
  s.requestedRps = 0.2;
  s.achievedRps = 0.1;
  s.ttftMs = {1.5, 2.5, 3.5, 4.5};
  s.answerMs = {51.5, 52.5, 53.5, 54.5};
  s.thoughtFirst = 1;
  s.tpotMs = {2.5, 2.75, 3.0, 3.25};
  s.tokensPerEvent = 3.9;
  s.e2eFromPlannedMs = {10, 20, 30, 40};
  s.inputTokensPerS = 12.5;
  s.outputTokensPerS = 3.25;
  s.tokenCountSource = "client";
  s.promptTokensBasis = "tokenizer: qwen3/tokenizer.json";
  s.askedLoad = "poisson arrivals at 20.00 requests/s on average over 6.00 s (1 stage)";
  s.requestsWithClientCountsOnly = 2;
  s.clientInputCount = "planned prompt length (tokenizer: qwen3/tokenizer.json)";
  s.clientOutputCount = "content chunks";
  s.complete = false;
  s.notes = {"received SIGINT", "stopped early at 9.9 s; windows after it were not planned"};
  return s;
}

}  // namespace

TEST(RunSummary, JsonHasExactlyTheContractKeys) {
  auto j = sampleSummary().toJson();
  std::set<std::string> keys, expected(kSummaryJsonKeys.begin(), kSummaryJsonKeys.end());
  for (const auto& [k, v] : j.items()) keys.insert(k);
  EXPECT_EQ(keys, expected);
  EXPECT_EQ(expected.size(), 35u);
  EXPECT_EQ(std::string(kSummaryJsonKeys[19]), "itl_ms");
  EXPECT_EQ(std::string(kSummaryJsonKeys[20]), "tpot_ms");  // right after itl_ms
  EXPECT_EQ(std::string(kSummaryJsonKeys[21]), "tokens_per_event");
  EXPECT_EQ(std::string(kSummaryJsonKeys[15]), "timing_held");  // right after send_lag_ms
  EXPECT_EQ(std::string(kSummaryJsonKeys[17]), "ttfa_ms");      // right after ttft_ms
  EXPECT_EQ(std::string(kSummaryJsonKeys[16]), "ttft_ms");
  for (const char* p : {"send_lag_ms", "ttft_ms", "ttfa_ms", "itl_ms", "tpot_ms", "e2e_ms",
                        "ttft_from_planned_ms", "e2e_from_planned_ms", "upload_ms"}) {
    std::set<std::string> pk;
    for (const auto& [k, v] : j[p].items()) pk.insert(k);
    EXPECT_EQ(pk, (std::set<std::string>{"p50", "p90", "p99", "max"})) << p;
  }
  EXPECT_EQ(j["verdict"], "harness_limited");
  EXPECT_EQ(j["errors"]["timeout"], 3);
  EXPECT_EQ(j["ttft_ms"]["p99"], 3.5);
}

TEST(RunSummary, EmptyErrorsIsAnObject) {
  RunSummary s;
  EXPECT_TRUE(s.toJson()["errors"].is_object());
  EXPECT_TRUE(s.toJson()["verdict_reasons"].is_array());
}

TEST(RunSummary, JsonRoundTrips) {
  RunSummary s = sampleSummary();
  RunSummary back = RunSummary::fromJson(nlohmann::json::parse(s.toJson().dump()));
  EXPECT_EQ(back.toJson(), s.toJson());
  EXPECT_EQ(back.ttftMs, s.ttftMs);
  EXPECT_EQ(back.answerMs, s.answerMs);
  EXPECT_EQ(back.thoughtFirst, 1u);
  EXPECT_EQ(back.tpotMs, s.tpotMs);
  EXPECT_EQ(back.tokensPerEvent, 3.9);
  EXPECT_EQ(back.verdict.kind, VerdictKind::HarnessLimited);
  EXPECT_FALSE(back.complete);
  EXPECT_EQ(back.notes, s.notes);
}

// Stopped before anything came due: no verdict (null), not a "kept_up" over nothing.
TEST(RunSummary, NoVerdictIsNullAndRoundTrips) {
  RunSummary s = sampleSummary();
  s.verdict = {VerdictKind::KeptUp, {}, true};
  const nlohmann::json j = s.toJson();
  EXPECT_TRUE(j.at("verdict").is_null());
  const RunSummary back = RunSummary::fromJson(nlohmann::json::parse(j.dump()));
  EXPECT_TRUE(back.verdict.nothingDue);
  EXPECT_EQ(back.toJson(), j);
  EXPECT_FALSE(sampleSummary().verdict.nothingDue);
}

TEST(RunSummary, FromJsonRejectsMissingOrMistypedKeys) {
  auto good = sampleSummary().toJson();
  for (const char* key : kSummaryJsonKeys) {
    const std::string name = key;
    if (name == "token_counts" || name == "prompt_tokens_basis" || name == "upload_ms" ||
        name == "retry_after" || name == "tokens_span_s" || name == "failure_samples" ||
        name == "notes" || name == "asked_load" || name == "ttfa_ms" || name == "thought_first" ||
        name == "timing_held" || name == "http_client" || name == "tpot_ms" ||
        name == "tokens_per_event")
      continue;  // added later: optional
    auto j = good;
    j.erase(key);
    EXPECT_THROW(RunSummary::fromJson(j), std::invalid_argument) << key;
  }
  auto j = good;
  j["sent"] = "many";
  EXPECT_THROW(RunSummary::fromJson(j), std::invalid_argument);
  j = good;
  j["verdict"] = "fine";
  EXPECT_THROW(RunSummary::fromJson(j), std::invalid_argument);
  j = good;
  j["itl_ms"].erase("p90");
  EXPECT_THROW(RunSummary::fromJson(j), std::invalid_argument);
  j = good;
  j["notes"] = nlohmann::json::array({"received SIGINT", 7});
  EXPECT_THROW(RunSummary::fromJson(j), std::invalid_argument);
  EXPECT_THROW(RunSummary::fromJson(nlohmann::json::array()), std::invalid_argument);
}

TEST(Percentiles, FromHistogramInMilliseconds) {
  LatencyHistogram h;
  for (int64_t ms = 1; ms <= 100; ++ms) h.record(ms * 1'000'000);
  auto p = Percentiles::fromHistogram(h);
  EXPECT_NEAR(p.p50, 50, 50 * 0.01);
  EXPECT_NEAR(p.p90, 90, 90 * 0.01);
  EXPECT_NEAR(p.p99, 99, 99 * 0.01);
  EXPECT_DOUBLE_EQ(p.max, 100);
  EXPECT_EQ(p.count, 100);
  EXPECT_FALSE(p.empty());
  // None: zeros that say so, in the JSON too; a summary from before the count reads as unknown.
  const Percentiles none = Percentiles::fromHistogram(LatencyHistogram());
  EXPECT_EQ(none, (Percentiles{0, 0, 0, 0, 0}));
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.toJson()["count"], 0);
  EXPECT_EQ(Percentiles::fromJson(none.toJson()), none);
  const Percentiles old = Percentiles::fromJson({{"p50", 1}, {"p90", 2}, {"p99", 3}, {"max", 4}});
  EXPECT_EQ(old.count, -1);
  EXPECT_FALSE(old.empty());
  EXPECT_FALSE(old.toJson().contains("count"));
}

TEST(RunSummary, RetryAfterRoundTripsAndReadsAsNoneFromOlderSummaries) {
  const auto j = sampleSummary().toJson();
  EXPECT_EQ(j["retry_after"],
            (nlohmann::json{{"responses", 2}, {"min_ms", 1000}, {"max_ms", 30'000}}));
  const RunSummary back = RunSummary::fromJson(j);
  EXPECT_EQ(back.retryAfterResponses, 2u);
  EXPECT_EQ(back.retryAfterMaxMs, 30'000);
  auto old = j;
  old.erase("retry_after");
  const RunSummary before = RunSummary::fromJson(old);
  EXPECT_EQ(before.retryAfterResponses, 0u);
  EXPECT_EQ(before.retryAfterMinMs, -1);
  auto bad = j;
  bad["retry_after"].erase("max_ms");
  EXPECT_THROW(RunSummary::fromJson(bad), std::invalid_argument);
  EXPECT_EQ(RunSummary().toJson()["retry_after"],
            (nlohmann::json{{"responses", 0}, {"min_ms", -1}, {"max_ms", -1}}));
}

TEST(RunSummary, TimeToFirstAnswerRoundTripsAndReadsAsNoneFromOlderSummaries) {
  const auto j = sampleSummary().toJson();
  EXPECT_EQ(j["ttfa_ms"]["p50"], 51.5);
  EXPECT_EQ(j["thought_first"], 1);
  auto old = j;
  old.erase("ttfa_ms");
  old.erase("thought_first");
  const RunSummary before = RunSummary::fromJson(old);
  EXPECT_TRUE(before.answerMs.empty());  // not timed then: no figure, not 0 ms
  EXPECT_EQ(before.thoughtFirst, 0u);
  auto bad = j;
  bad["thought_first"] = "some";
  EXPECT_THROW(RunSummary::fromJson(bad), std::invalid_argument);
  EXPECT_EQ(thoughtFirstText(812, 1000),
            "reasoning: 812 of 1000 streams thought before answering; ttft counts the first "
            "thinking token, ttfa the first answer token");
}

TEST(RunSummary, SummariesStoredBeforeTokenLabelsReadAsUnknown) {
  auto j = sampleSummary().toJson();
  j.erase("prompt_tokens_basis");
  j.erase("token_counts");
  const RunSummary back = RunSummary::fromJson(j);
  EXPECT_EQ(back.promptTokensBasis, "unknown");
  EXPECT_EQ(back.requestsWithServerCounts, 0u);
  EXPECT_EQ(back.clientInputCount, "");
}

TEST(RunSummary, TimePerTokenRoundTripsAndReadsAsNoneFromOlderSummaries) {
  const auto j = sampleSummary().toJson();
  EXPECT_EQ(j["tpot_ms"]["p50"], 2.5);
  EXPECT_EQ(j["tokens_per_event"], 3.9);
  auto old = j;
  old.erase("tpot_ms");
  old.erase("tokens_per_event");
  const RunSummary before = RunSummary::fromJson(old);
  EXPECT_TRUE(before.tpotMs.empty());  // not timed per token then: no figure, not 0 ms
  EXPECT_FALSE(before.tokensPerEvent);
  auto none = j;
  none["tokens_per_event"] = nullptr;  // no stream had two events
  EXPECT_FALSE(RunSummary::fromJson(none).tokensPerEvent);
  EXPECT_TRUE(RunSummary().toJson()["tokens_per_event"].is_null());
  auto bad = j;
  bad["tokens_per_event"] = "many";
  EXPECT_THROW(RunSummary::fromJson(bad), std::invalid_argument);
  bad = j;
  bad["tpot_ms"].erase("p99");
  EXPECT_THROW(RunSummary::fromJson(bad), std::invalid_argument);
}

TEST(RunSummary, SeveralTokensAnEventAreSaidByWhoseCount) {
  EXPECT_EQ(tokensPerEventText(3.9, "server"),
            "tokens per event: 3.90 by the server's usage, so each inter-token gap (one per "
            "streamed event) spans several tokens; tpot is the time per token");
  EXPECT_NE(tokensPerEventText(1.3, "client").find("1.30 by the client's count,"),
            std::string::npos);
  EXPECT_NE(tokensPerEventText(2, "mixed").find("by the server's usage where it gave one, else "
                                                "the client's count,"),
            std::string::npos);
  EXPECT_EQ(tokensPerEventText(1.0, "server"), "");  // a token an event: a gap is a token's
  EXPECT_EQ(tokensPerEventText(1.19, "server"), "");
  EXPECT_EQ(tokensPerEventText(std::nullopt, "server"), "");
}
