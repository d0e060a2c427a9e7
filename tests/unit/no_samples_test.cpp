// A run where no request got a first token (every one failed to connect, say) has no latencies:
// the summary says so (count 0), and the report, `runs show`, the runs table and Compare show
// "-" instead of 0 ms, which reads as a perfect latency. Failures are put beside the verdict.
#include <gtest/gtest.h>

#include <sstream>

#include "core/compare/compared_run.h"
#include "core/engine/terminal_report.h"
#include "core/metrics/latency_text.h"
#include "core/metrics/run_aggregator.h"
#include "core/store/run_reader.h"
#include "core/store/run_writer.h"
#include "core/store/runs_command.h"
#include "store_test_support.h"

using namespace plumbline;

namespace {

/// 14 requests sent, every one failed to connect.
metrics::RunSummary allFailed() {
  metrics::RunAggregator a;
  a.addPlanned(0, 14);
  metrics::SendReport s;
  s.sent = 14;
  for (int i = 0; i < 14; ++i) s.sendLag.record(10'000);
  a.addSends(s);
  for (int i = 0; i < 14; ++i) {
    metrics::RequestRecord r;
    r.plannedNs = i * 1'000'000;
    r.sendNs = r.plannedNs;
    r.endNs = r.sendNs + 100'000;
    r.error = metrics::ErrorClass::Connect;
    a.addRecord(r);
  }
  return a.summarize(2.0, 7.0, {});
}

}  // namespace

TEST(NoSamples, TheSummaryCountsNoneAndTheReportPrintsDashes) {
  const metrics::RunSummary s = allFailed();
  EXPECT_TRUE(s.ttftMs.empty());
  EXPECT_TRUE(s.e2eMs.empty());
  EXPECT_FALSE(s.sendLagMs.empty());  // the sends happened
  const nlohmann::json j = s.toJson();
  EXPECT_EQ(j["ttft_ms"]["count"], 0);
  EXPECT_EQ(j["send_lag_ms"]["count"], 14);
  const std::string report = engine::formatRunReport(s, {});
  EXPECT_NE(report.find(
                "  ttft                          -          -          -          -  (no samples)"),
            std::string::npos)
      << report;
  EXPECT_EQ(report.find("ttft                      0.000"), std::string::npos) << report;
  EXPECT_EQ(metrics::failedText(j), "14 of 14 sent failed (connect 14)");
}

TEST(NoSamples, FailedTextSumsTheClassesAndSaysNothingWithoutFailures) {
  EXPECT_EQ(metrics::failedText({{"sent", 100}, {"errors", {{"http_5xx", 2}, {"timeout", 1}}}}),
            "3 of 100 sent failed (http_5xx 2, timeout 1)");
  EXPECT_EQ(metrics::failedText({{"sent", 100}, {"errors", nlohmann::json::object()}}), "");
  EXPECT_EQ(metrics::failedText({{"errors", {{"timeout", 1}}}}),
            "");  // no "sent": cannot say of what
  EXPECT_EQ(metrics::failedText({{"sent", 5}, {"errors", {{"timeout", "x"}}}}), "");
  EXPECT_EQ(metrics::failedText(nlohmann::json()), "");
}

TEST(NoSamples, StoredRunShowsDashesAndNoTtftInTheRunsTableOrCompare) {
  store::testing::TempDir dir;
  const std::string path = dir.file("runs.db");
  int64_t id = 0;
  {
    store::RunWriter writer(path, store::testing::sampleRunInfo());
    id = writer.runId();
    writer.finish(allFailed().toJson(), {}, true);
  }
  store::RunReader reader(path);
  const auto row = reader.getRun(id);
  ASSERT_TRUE(row);
  EXPECT_FALSE(row->ttftP99Ms.has_value());  // NULL, shown as "–", not 0.0 ms
  std::ostringstream out, err;
  ASSERT_EQ(store::runsShow(path, id, out, err), 0) << err.str();
  EXPECT_NE(
      out.str().find("\nttft                -          -          -          -  (no samples)\n"),
      std::string::npos)
      << out.str();

  compare::ComparedRun run;
  run.summary = nlohmann::json::parse(*row->summaryJson);
  EXPECT_FALSE(run.summaryNumber("ttft_ms", "p99").has_value());
  EXPECT_TRUE(run.summaryNumber("send_lag_ms", "p99").has_value());
  // No figure is written as a 0 a script could read as 0 ms (QA): null, with the count.
  EXPECT_EQ(
      run.summary["ttft_ms"],
      (nlohmann::json{
          {"p50", nullptr}, {"p90", nullptr}, {"p99", nullptr}, {"max", nullptr}, {"count", 0}}));
  EXPECT_EQ(metrics::RunSummary::fromJson(run.summary).ttftMs.count, 0);
  // A summary stored before the count was: its figures are taken as they are.
  run.summary["ttft_ms"] = {{"p50", 1.5}, {"p90", 2}, {"p99", 3}, {"max", 4}};
  EXPECT_TRUE(run.summaryNumber("ttft_ms", "p99").has_value());
  // One stored with zeros and a count of 0 (before they were null) still reads as none.
  run.summary["ttft_ms"] = {{"p50", 0}, {"p90", 0}, {"p99", 0}, {"max", 0}, {"count", 0}};
  EXPECT_FALSE(run.summaryNumber("ttft_ms", "p99").has_value());
  EXPECT_EQ(metrics::RunSummary::fromJson(run.summary).ttftMs.count, 0);
}

// Latencies print four significant digits (QA: "652.214" and "1220.542" claimed a precision the
// histogram's 1/128 buckets do not have, and made unlike figures print identically).
TEST(LatencyText, FourSignificantDigitsNeverFinerThanAMicrosecond) {
  using plumbline::metrics::latencyMsText;
  EXPECT_EQ(latencyMsText(0.0084), "0.008");
  EXPECT_EQ(latencyMsText(1.2344), "1.234");
  EXPECT_EQ(latencyMsText(50.2013), "50.20");
  EXPECT_EQ(latencyMsText(652.214), "652.2");
  EXPECT_EQ(latencyMsText(1220.542), "1221");
  EXPECT_EQ(latencyMsText(99.996), "100.0");
  EXPECT_EQ(latencyMsText(0.0), "0.000");
}
