// Issue 3's trace-replay acceptance, end to end: a window of the Azure conversation trace,
// time-scaled, replayed against the mock (instant preset). From the records the mock's side
// reported: every planned instant is the scaled trace timestamp to the nanosecond, every
// request was sent close to it, and the server saw the trace's input and output lengths.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/mock/embedded_target.h"
#include "core/store/run_reader.h"
#include "core/workload/trace_file.h"
#include "tests/integration/child_process.h"
#include "tests/integration/mock_http.h"
#include "tests/integration/timing_budget.h"

using nlohmann::json;
using plumbline::test::ChildProcess;
using plumbline::test::TempDir;
using plumbline::test::kMachinePauseBudgetMs;
using plumbline::test::kTimingChecked;

namespace {

// kMachinePauseBudgetMs: a host pause can hold a few sends back by several ms; the figure
// against the 1 ms target is measured in a release build by bench/trace_replay_lag.sh, and
// this test prints its own for the record.

const std::string kTrace =
    std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/traces/azure_llm_2023_conv.csv";
constexpr int64_t kStartOffsetNs = 300'000'000'000;  // 5 minutes in
constexpr double kWindowS = 40;
constexpr double kTimeScale = 0.25;                   // 4x faster: 40 trace seconds in 10 s

json replayWorkload() {
  return json{{"plumbline", 1},
              {"name", "trace replay acceptance"},
              {"verdict", {{"send_lag_tolerance_ms", kMachinePauseBudgetMs}}},
              {"target", {{"url", "embedded"}, {"api", "chat"}, {"model", "mock"}, {"stream", true}}},
              {"load", {{"arrival", "trace"},
                        {"trace", {{"file", kTrace}, {"format", "azure_csv"},
                                   {"time_scale", kTimeScale}, {"start_offset_s", 300},
                                   {"window_s", kWindowS}, {"lengths", "trace"}}}}},
              {"requests", {{"sampling", {{"temperature", 0.0}, {"ignore_eos", true}}}}}};
}

}  // namespace

TEST(TraceReplayRun, SendsAtTheScaledTraceInstantsWithTheTracesLengths) {
  TempDir dir;
  plumbline::mock::EmbeddedTargetOptions mo;
  mo.executable = PLUMBLINE_BIN;
  mo.preset = "instant";
  plumbline::mock::EmbeddedTarget mock(mo);
  const std::string workloadPath = dir.file("w.json");
  std::ofstream(workloadPath) << replayWorkload().dump(2);
  ChildProcess run({PLUMBLINE_BIN, "run", workloadPath, "--target", mock.baseUrl(), "--db",
                    dir.file("runs.db"), "--workers", "1", "--summary-json", dir.file("s.json"),
                    "--quiet"},
                   dir.file("out.txt"));
  const int code = run.wait(120'000);
  ASSERT_TRUE(code == 0 || code == 3) << run.output();

  // The trace rows the window selects, by the test's own arithmetic.
  std::vector<plumbline::workload::TraceRow> expected;
  for (auto& row : plumbline::workload::readTraceFile(kTrace, plumbline::workload::TraceFormat::AzureCsv)) {
    const int64_t offset = row.timestampNs - kStartOffsetNs;
    if (offset >= 0 && offset < static_cast<int64_t>(kWindowS * 1e9)) expected.push_back(row);
  }
  ASSERT_GT(expected.size(), 100u);

  plumbline::store::RunReader reader(dir.file("runs.db"));
  const auto runs = reader.listRuns();
  ASSERT_EQ(runs.size(), 1u);
  std::vector<plumbline::metrics::RequestRecord> records;
  reader.forEachRequest(runs[0].id, [&](const auto& r) { records.push_back(r); });
  ASSERT_EQ(records.size(), expected.size());
  std::sort(records.begin(), records.end(),
            [](const auto& a, const auto& b) { return a.sessionId < b.sessionId; });

  std::vector<double> lagsMs;
  for (size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    SCOPED_TRACE("row at line " + std::to_string(expected[i].line));
    ASSERT_EQ(r.sessionId, i);
    // Offsets are multiples of 100 ns, so a quarter of one is exact.
    ASSERT_EQ(r.plannedNs * 4, expected[i].timestampNs - kStartOffsetNs);
    ASSERT_TRUE(r.ok()) << static_cast<int>(r.error);
    ASSERT_EQ(r.inputTokensServer, static_cast<int32_t>(expected[i].inputTokens));
    ASSERT_EQ(r.outputTokensServer, static_cast<int32_t>(expected[i].outputTokens));
    lagsMs.push_back(static_cast<double>(r.sendLagNs()) / 1e6);
  }
  std::sort(lagsMs.begin(), lagsMs.end());
  const auto at = [&](double q) {
    return lagsMs[std::min(lagsMs.size() - 1, static_cast<size_t>(q * static_cast<double>(lagsMs.size())))];
  };
  std::printf("[ trace replay ] %zu requests; send lag ms p50 %.3f p90 %.3f p99 %.3f max %.3f\n",
              lagsMs.size(), at(0.5), at(0.9), at(0.99), lagsMs.back());
  EXPECT_GE(lagsMs.front(), 0.0);  // never early
  if (kTimingChecked) {
    EXPECT_LE(at(0.99), kMachinePauseBudgetMs);
  }

  const json stats = json::parse(plumbline::test::httpGet(mock.baseUrl() + "/mock/stats").body);
  EXPECT_EQ(stats["requests_received"], expected.size());
}

TEST(TraceReplayRun, ZeroLengthRowsGoOutAsOneTokenAndTheRunSaysSo) {
  TempDir dir;
  std::ofstream(dir.file("zeros.csv")) << "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                                          "2023-11-16 18:15:46.0000000,8,3\n"
                                          "2023-11-16 18:15:46.1000000,0,0\n"
                                          "2023-11-16 18:15:46.2000000,5,2\n";
  const json w = {
      {"plumbline", 1},
      {"name", "zero-length rows"},
      {"verdict", {{"send_lag_tolerance_ms", 1000}}},
      {"target", {{"url", "embedded"}, {"api", "chat"}, {"model", "mock"}, {"stream", true}}},
      {"load", {{"arrival", "trace"}, {"trace", {{"file", "zeros.csv"}, {"format", "azure_csv"}}}}},
      {"requests", {{"sampling", {{"temperature", 0.0}, {"ignore_eos", true}}}}}};
  std::ofstream(dir.file("w.json")) << w.dump(2);
  ChildProcess run({PLUMBLINE_BIN, "run", dir.file("w.json"), "--db", dir.file("runs.db"),
                    "--workers", "1", "--summary-json", dir.file("s.json")},
                   dir.file("out.txt"));
  const int code = run.wait(120'000);
  ASSERT_TRUE(code == 0 || code == 3) << run.output();
  const std::string note =
      "load.trace: 1 of the 3 replayed rows has a 0 length (1 with 0 input, 1 with 0 output "
      "tokens) and is "
      "sent with 1 instead, as a request asks for at least one token of each (zeros.csv line 3)";
  EXPECT_NE(run.output().find(note), std::string::npos) << run.output();
  std::ifstream in(dir.file("s.json"));
  const json summary = json::parse(in);
  EXPECT_NE(summary.at("notes").dump().find("zeros.csv line 3"), std::string::npos)
      << summary.dump(2);

  plumbline::store::RunReader reader(dir.file("runs.db"));
  std::vector<plumbline::metrics::RequestRecord> records;
  reader.forEachRequest(reader.listRuns().at(0).id, [&](const auto& r) { records.push_back(r); });
  ASSERT_EQ(records.size(), 3u);
  for (const auto& r : records) {
    if (r.sessionId != 1) continue;
    EXPECT_EQ(r.inputTokensClient, 1);
    EXPECT_EQ(r.outputTokensServer, 1);
  }
}
