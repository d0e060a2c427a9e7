// Whether the server gave replies of the planned length when ignore_eos asked for it: a server
// that ignores ignore_eos answers faster for giving less, and the run says so.
#include <gtest/gtest.h>

#include "core/engine/output_length_check.h"

namespace plumbline::engine {
namespace {

workload::WorkloadSpec specWith(std::optional<bool> ignoreEos,
                                std::optional<int64_t> maxTokens = {}) {
  workload::WorkloadSpec spec;
  spec.requests.sampling.ignoreEos = ignoreEos;
  spec.requests.sampling.maxTokens = maxTokens;
  return spec;
}

metrics::RequestRecord completed(uint64_t session, int32_t serverOut) {
  metrics::RequestRecord r;
  r.sessionId = session;
  r.outputTokensServer = serverOut;
  return r;
}

TEST(OutputLengthCheck, RepliesAQuarterOfThePlannedLengthAreSaid) {
  const auto spec = specWith(true);
  OutputLengthCheck check(spec);
  for (uint64_t id = 0; id < 10; ++id) check.planned(workload::SessionPlan(id, 0, 16, 64));
  for (uint64_t id = 0; id < 10; ++id) check.recorded(completed(id, 16));
  EXPECT_EQ(check.requests(), 10u);
  EXPECT_EQ(check.plannedTokens(), 640u);
  EXPECT_EQ(check.serverTokens(), 160u);
  ASSERT_TRUE(check.note().has_value());
  EXPECT_EQ(
      check.note()->rfind("replies were 25% of their planned length (16.0 output tokens on "
                          "average where 64.0 were asked for with ignore_eos, by the server's "
                          "usage of 10 requests)",
                          0),
      0u)
      << *check.note();
}

TEST(OutputLengthCheck, WhatIsNotCheckedSaysNothing) {
  // Replies within 10 % of the plan; too few requests; no ignore_eos (a model may stop early);
  // failed requests, later turns, no usage, shaped sessions.
  const auto on = specWith(true);
  OutputLengthCheck close(on);
  for (uint64_t id = 0; id < 20; ++id) close.planned(workload::SessionPlan(id, 0, 16, 100));
  for (uint64_t id = 0; id < 20; ++id) close.recorded(completed(id, 91));
  EXPECT_FALSE(close.note().has_value());

  OutputLengthCheck few(on);
  for (uint64_t id = 0; id < 9; ++id) few.planned(workload::SessionPlan(id, 0, 16, 100));
  for (uint64_t id = 0; id < 9; ++id) few.recorded(completed(id, 1));
  EXPECT_FALSE(few.note().has_value());

  const auto off = specWith(std::nullopt);
  OutputLengthCheck notAsked(off);
  for (uint64_t id = 0; id < 20; ++id) notAsked.planned(workload::SessionPlan(id, 0, 16, 100));
  for (uint64_t id = 0; id < 20; ++id) notAsked.recorded(completed(id, 1));
  EXPECT_EQ(notAsked.requests(), 0u);

  OutputLengthCheck skipped(on);
  workload::SessionPlan shaped(0, 0, 16, 100);
  shaped.requests.resize(2);
  skipped.planned(shaped);
  skipped.recorded(completed(0, 1));
  auto failed = completed(1, 1);
  failed.error = metrics::ErrorClass::Http5xx;
  skipped.planned(workload::SessionPlan(1, 0, 16, 100));
  skipped.recorded(failed);
  skipped.planned(workload::SessionPlan(2, 0, 16, 100));
  skipped.recorded(completed(2, -1));  // no usage
  auto later = completed(2, 1);
  later.turn = 1;
  skipped.recorded(later);
  skipped.recorded(completed(99, 1));  // never handed out here
  const uint64_t past = OutputLengthCheck::kMaxSessions;  // memory stays bounded: not kept
  skipped.planned(workload::SessionPlan(past, 0, 16, 100));
  skipped.recorded(completed(past, 1));
  EXPECT_EQ(skipped.requests(), 0u);
}

TEST(OutputLengthCheck, AMaxTokensSentInPlaceOfTheDrawnLengthIsThePlan) {
  const auto spec = specWith(true, 32);
  OutputLengthCheck check(spec);
  for (uint64_t id = 0; id < 10; ++id) check.planned(workload::SessionPlan(id, 0, 16, 500));
  for (uint64_t id = 0; id < 10; ++id) check.recorded(completed(id, 32));
  EXPECT_EQ(check.plannedTokens(), 320u);
  EXPECT_FALSE(check.note().has_value());
}

// QA 23a: max_tokens 100 over drawn lengths of 10 sends max_tokens 10 (the smaller), and a
// server that gave 10 was said not to honour ignore_eos ("replies were 10%").
TEST(OutputLengthCheck, AMaxTokensAboveTheDrawnLengthLeavesTheDrawnLengthThePlan) {
  const auto spec = specWith(true, 100);
  OutputLengthCheck check(spec);
  for (uint64_t id = 0; id < 10; ++id) check.planned(workload::SessionPlan(id, 0, 16, 10));
  for (uint64_t id = 0; id < 10; ++id) check.recorded(completed(id, 10));
  EXPECT_EQ(check.plannedTokens(), 100u);
  EXPECT_FALSE(check.note().has_value()) << *check.note();
}

}  // namespace
}  // namespace plumbline::engine
