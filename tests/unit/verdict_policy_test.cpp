// verdictPolicyOf: the verdict's limits as a workload sets them.
#include <gtest/gtest.h>

#include "core/engine/verdict_policy.h"

using plumbline::engine::verdictPolicyOf;
using plumbline::workload::VerdictSpec;

TEST(VerdictPolicy, TheHoldToleranceIsTenMsOrTheLongerSendLagToleranceUnlessSet) {
  VerdictSpec v;
  EXPECT_EQ(verdictPolicyOf(v).holdToleranceNs, 10'000'000);
  EXPECT_EQ(verdictPolicyOf(v).sendLagToleranceNs, 1'000'000);
  // A workload that allows the harness 30 ms of its own delay for sends allows it for reads:
  // a 25 ms machine pause over one of 40 requests made a token test harness_limited in CI.
  v.sendLagToleranceMs = 30;
  EXPECT_EQ(verdictPolicyOf(v).holdToleranceNs, 30'000'000);
  v.holdToleranceMs = 5;  // set: as written, shorter or longer
  EXPECT_EQ(verdictPolicyOf(v).holdToleranceNs, 5'000'000);
  EXPECT_DOUBLE_EQ(verdictPolicyOf(v).minSentFraction, 0.99);
}
