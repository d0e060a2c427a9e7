// The "session" object and requests.prompt.shared_prefix: every shape, and every way to get
// them wrong, with the JSON path of the mistake.
#include <gtest/gtest.h>

#include "core/workload/session_parser.h"
#include "core/workload/workload_error.h"
#include "workload_test_support.h"

using plumbline::testing::validDocument;
using plumbline::testing::specWithSession;  // validDocument: 10 sessions/s for 10 s, input 100, output 20
using namespace plumbline::workload;

namespace {


WorkloadError sessionError(const nlohmann::json& session) {
  try {
    specWithSession(session);
  } catch (const WorkloadError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted " << session.dump();
  return WorkloadError("", "");
}

const nlohmann::json kFixed3 = {{"dist", "fixed"}, {"value", 3}};
const nlohmann::json kThink = {{"dist", "exponential"}, {"mean", 1.5}, {"max", 4.5}};

}  // namespace

TEST(SessionParser, ReadsEveryShape) {
  auto multi = specWithSession({{"shape", "multi_turn"}, {"turns", {{"dist", "uniform"}, {"min", 2}, {"max", 6}}},
                            {"think_time_s", kThink}});
  EXPECT_EQ(multi.session.kind, SessionShape::MultiTurn);
  EXPECT_EQ(multi.session.count.clampMin, 2);
  EXPECT_EQ(multi.session.count.clampMax, 6);
  EXPECT_EQ(multi.session.delay.kind, DistKind::Exponential);
  EXPECT_DOUBLE_EQ(multi.session.delay.p1, 1.5);
  EXPECT_DOUBLE_EQ(multi.session.delay.clampMax, 4.5);

  auto tree = specWithSession({{"shape", "tree"}, {"branching", 3}, {"depth", 4}});
  EXPECT_EQ(tree.session.kind, SessionShape::Tree);
  EXPECT_EQ(tree.session.branching, 3u);
  EXPECT_EQ(tree.session.depth, 4u);

  auto agentic = specWithSession({{"shape", "agentic"}, {"steps", kFixed3},
                              {"tool_latency_s", {{"dist", "uniform"}, {"min", 0.05}, {"max", 0.25}}},
                              {"tool_result_tokens", {{"dist", "fixed"}, {"value", 200}}}});
  EXPECT_EQ(agentic.session.kind, SessionShape::Agentic);
  EXPECT_DOUBLE_EQ(agentic.session.delay.p1, 0.05);  // seconds may be fractional
  EXPECT_DOUBLE_EQ(agentic.session.delay.p2, 0.25);
  EXPECT_DOUBLE_EQ(agentic.session.toolResultTokens.p1, 200);

  auto summarize = specWithSession({{"shape", "summarize"}, {"chunks", kFixed3}});
  EXPECT_EQ(summarize.session.kind, SessionShape::Summarize);
  EXPECT_EQ(specWithSession({{"shape", "single"}}).session.kind, SessionShape::Single);
}

TEST(SessionParser, MistakesNameTheirPath) {
  EXPECT_EQ(sessionError({{"shape", "chat"}}).path(), "session.shape");
  EXPECT_EQ(sessionError({{"shape", 3}}).path(), "session.shape");
  EXPECT_EQ(sessionError({{"shape", "multi_turn"}, {"think_time_s", kThink}}).path(), "session.turns");
  EXPECT_EQ(sessionError({{"shape", "multi_turn"}, {"turns", kFixed3}}).path(), "session.think_time_s");
  EXPECT_EQ(sessionError({{"shape", "multi_turn"}, {"turns", kFixed3},
                          {"think_time_s", {{"dist", "fixed"}, {"value", -0.5}}}})
                .path(),
            "session.think_time_s.value");
  EXPECT_EQ(sessionError({{"shape", "multi_turn"}, {"turns", kFixed3},
                          {"think_time_s", {{"dist", "uniform"}, {"min", 3}, {"max", 1}}}})
                .path(),
            "session.think_time_s.min");
  // A delay centred outside its clamps would run as the clamp (50 s as 10 s), silently.
  const auto clamped =
      sessionError({{"shape", "multi_turn"},
                    {"turns", kFixed3},
                    {"think_time_s", {{"dist", "fixed"}, {"value", 50}, {"max", 10}}}});
  EXPECT_EQ(clamped.path(), "session.think_time_s.value");
  EXPECT_EQ(clamped.reason(), "50 is above max 10; every draw above max is cut to it");
  EXPECT_EQ(sessionError({{"shape", "agentic"},
                          {"steps", kFixed3},
                          {"tool_result_tokens", kFixed3},
                          {"tool_latency_s", {{"dist", "exponential"}, {"mean", 1}, {"min", 2}}}})
                .path(),
            "session.tool_latency_s.mean");
  EXPECT_EQ(sessionError({{"shape", "multi_turn"}, {"turns", {{"dist", "fixed"}, {"value", 0}}},
                          {"think_time_s", kThink}})
                .path(),
            "session.turns.value");
  EXPECT_EQ(sessionError({{"shape", "multi_turn"}, {"turns", {{"dist", "fixed"}, {"value", 5000}}},
                          {"think_time_s", kThink}})
                .path(),
            "session.turns.value");
  EXPECT_EQ(sessionError({{"shape", "summarize"}, {"chunks", {{"dist", "lognormal"}, {"median", 4}, {"sigma", 1}, {"max", 2000}}}})
                .path(),
            "session.chunks.max");
  EXPECT_EQ(sessionError({{"shape", "tree"}, {"branching", 2}}).path(), "session.depth");
  EXPECT_EQ(sessionError({{"shape", "tree"}, {"branching", 0}, {"depth", 2}}).path(), "session.branching");
  EXPECT_EQ(sessionError({{"shape", "tree"}, {"branching", 2.5}, {"depth", 2}}).path(), "session.branching");
  EXPECT_EQ(sessionError({{"shape", "tree"}, {"branching", 17}, {"depth", 2}}).path(), "session.branching");
  EXPECT_EQ(sessionError({{"shape", "tree"}, {"branching", 2}, {"depth", 9}}).path(), "session.depth");
  const auto tooBig = sessionError({{"shape", "tree"}, {"branching", 8}, {"depth", 6}});
  EXPECT_EQ(tooBig.path(), "session.depth");
  EXPECT_NE(tooBig.reason().find("299593 requests"), std::string::npos) << tooBig.reason();
  EXPECT_EQ(sessionError({{"shape", "agentic"}, {"steps", kFixed3}, {"tool_latency_s", kThink}}).path(),
            "session.tool_result_tokens");
}

TEST(SessionParser, KeysOfAnotherShapeAreRejectedByName) {
  const auto e = sessionError({{"shape", "tree"}, {"branching", 2}, {"depth", 2}, {"turns", kFixed3}});
  EXPECT_EQ(e.path(), "session.turns");
  EXPECT_NE(e.reason().find("multi_turn"), std::string::npos) << e.reason();
  EXPECT_EQ(sessionError({{"shape", "single"}, {"chunks", kFixed3}}).path(), "session.chunks");
  EXPECT_EQ(sessionError({{"turns", kFixed3}}).path(), "session.turns");  // shape defaults to single
  EXPECT_EQ(sessionError({{"shape", "summarize"}, {"chunks", kFixed3}, {"colour", 1}}).path(), "session.colour");
}

TEST(SessionParser, CountWithoutMaxIsCappedAtTheLimit) {
  auto spec = specWithSession({{"shape", "summarize"}, {"chunks", {{"dist", "exponential"}, {"mean", 50}}}});
  EXPECT_EQ(spec.session.count.clampMax, kMaxSessionCount);
}

// QA: a lognormal median of 5000 turns (or a normal mean of 2000) planned 1000 per session
// with no word, while a fixed 2000 is refused.
TEST(SessionParser, ACountCentredAboveTheLimitIsRefusedNotCut) {
  auto turns = [](const nlohmann::json& dist) {
    return sessionError({{"shape", "multi_turn"}, {"turns", dist}, {"think_time_s", kThink}});
  };
  const auto median = turns({{"dist", "lognormal"}, {"median", 5000}, {"sigma", 0.1}});
  EXPECT_EQ(median.path(), "session.turns.median");
  EXPECT_EQ(median.reason(),
            "5000 is above 1000, the most a count may be; every draw above it would be cut to it");
  const auto mean = turns({{"dist", "normal"}, {"mean", 2000}, {"stddev", 1}});
  EXPECT_EQ(mean.path(), "session.turns.mean");
  EXPECT_EQ(mean.reason(),
            "2000 is above 1000, the most a count may be; every draw above it would be cut to it");
  const auto exponential =
      sessionError({{"shape", "summarize"}, {"chunks", {{"dist", "exponential"}, {"mean", 1500}}}});
  EXPECT_EQ(exponential.path(), "session.chunks.mean");
  EXPECT_EQ(exponential.reason(),
            "1500 puts the median (1039.7) above 1000, the most a count may be; every draw above "
            "it would be cut to it");
  // A median of 970 is within the cap: the draws above it are its tail.
  EXPECT_EQ(specWithSession(
                {{"shape", "summarize"}, {"chunks", {{"dist", "exponential"}, {"mean", 1400}}}})
                .session.count.clampMax,
            kMaxSessionCount);
}

// QA: a think time of 1e6 s kept a 2 s run open (11.6 days), and 1e12 was cut to 1e9 silently.
TEST(SessionParser, DelaysAreBoundedByTheLongestSchedule) {
  auto think = [](const nlohmann::json& dist) {
    return sessionError({{"shape", "multi_turn"}, {"turns", kFixed3}, {"think_time_s", dist}});
  };
  const auto fixed = think({{"dist", "fixed"}, {"value", 1e12}});
  EXPECT_EQ(fixed.path(), "session.think_time_s.value");
  EXPECT_EQ(fixed.reason(), "at most 10000000 s (the longest schedule), got 1000000000000");
  EXPECT_EQ(think({{"dist", "uniform"}, {"min", 1}, {"max", 2e7}}).path(),
            "session.think_time_s.max");
  EXPECT_EQ(think({{"dist", "lognormal"}, {"median", 2e7}, {"sigma", 1}}).path(),
            "session.think_time_s.median");
  const auto tool = sessionError({{"shape", "agentic"},
                                  {"steps", kFixed3},
                                  {"tool_result_tokens", kFixed3},
                                  {"tool_latency_s", {{"dist", "exponential"}, {"mean", 1.5e7}}}});
  EXPECT_EQ(tool.path(), "session.tool_latency_s.mean");
  EXPECT_EQ(tool.reason(), "at most 10000000 s (the longest schedule), got 15000000");
  // The limit itself is allowed, and a spread's tail stops there.
  const auto spec =
      specWithSession({{"shape", "multi_turn"},
                       {"turns", kFixed3},
                       {"think_time_s", {{"dist", "normal"}, {"mean", 1e7}, {"stddev", 1e9}}}});
  EXPECT_DOUBLE_EQ(spec.session.delay.clampMax, 1e7);
}

TEST(SessionParser, SharedPrefix) {
  auto document = validDocument();
  document["requests"]["prompt"] = {{"source", "synthetic"}, {"shared_prefix", {{"groups", 4}, {"tokens", 300}}}};
  const auto spec = parseWorkload(document);
  EXPECT_EQ(spec.requests.sharedPrefix.groups, 4u);
  EXPECT_EQ(spec.requests.sharedPrefix.tokens, 300u);
  for (const auto& [bad, path] : std::vector<std::pair<nlohmann::json, std::string>>{
           {{{"groups", 0}, {"tokens", 10}}, "requests.prompt.shared_prefix.groups"},
           {{{"groups", 2}}, "requests.prompt.shared_prefix.tokens"},
           {{{"groups", 2}, {"tokens", -1}}, "requests.prompt.shared_prefix.tokens"},
           {{{"groups", 2}, {"tokens", 10}, {"blocks", 1}}, "requests.prompt.shared_prefix.blocks"},
           {nlohmann::json::array(), "requests.prompt.shared_prefix"}}) {
    document["requests"]["prompt"]["shared_prefix"] = bad;
    try {
      parseWorkload(document);
      ADD_FAILURE() << "accepted " << bad.dump();
    } catch (const WorkloadError& e) {
      EXPECT_EQ(e.path(), path) << e.what();
    }
  }
}
