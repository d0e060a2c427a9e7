// The one-word verdict the studio shows where there is no status column (History, Compare's
// pickers): a stopped run must not read as a whole run that kept up.
#include <gtest/gtest.h>

#include "core/store/verdict_label.h"

using plumbline::store::RunRow;
using plumbline::store::verdictLabel;

namespace {

RunRow runWith(const char* status, std::optional<std::string> verdict) {
  RunRow row;
  row.status = status;
  row.verdict = std::move(verdict);
  return row;
}

}  // namespace

TEST(VerdictLabel, CompleteRunsShowTheirVerdict) {
  EXPECT_EQ(verdictLabel(runWith("complete", "kept_up")), "kept_up");
  EXPECT_EQ(verdictLabel(runWith("complete", "harness_limited")), "harness_limited");
  EXPECT_EQ(verdictLabel(runWith("complete", std::nullopt)), "none");
}

TEST(VerdictLabel, StoppedRunsSayTheyStoppedFirst) {
  EXPECT_EQ(verdictLabel(runWith("incomplete", "kept_up")), "incomplete · kept_up until stopped");
  EXPECT_EQ(verdictLabel(runWith("incomplete", "harness_limited")), "incomplete · harness_limited");
}

TEST(VerdictLabel, RunsWithoutAVerdictShowTheirStatus) {
  EXPECT_EQ(verdictLabel(runWith("running", std::nullopt)), "running");
  EXPECT_EQ(verdictLabel(runWith("incomplete", std::nullopt)), "incomplete");
}
