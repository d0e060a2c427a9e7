// Trace replays are held to the load limits stages are (README, Workloads): a time_scale that
// overflows the planned instants, or makes the replay too long or too fast, is refused by name.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/workload/trace_replay.h"
#include "core/workload/workload_loader.h"
#include "workload_test_support.h"

using namespace plumbline::workload;
using plumbline::testing::validDocument;
using json = nlohmann::json;

namespace {

const std::string kReplayWorkloads = std::string(PLUMBLINE_SOURCE_DIR) + "/workloads";

/// `count` rows one trace second apart.
std::vector<TraceRow> rowsOneSecondApart(size_t count) {
  std::vector<TraceRow> rows(count);
  for (size_t i = 0; i < count; ++i) {
    rows[i].timestampNs = static_cast<int64_t>(i) * 1'000'000'000;
    rows[i].inputTokens = rows[i].outputTokens = 1;
    rows[i].line = static_cast<uint32_t>(i + 2);
  }
  return rows;
}

std::string selectErrorOf(std::vector<TraceRow> rows, const TraceSpec& spec,
                          const std::string& path = "load.trace") {
  try {
    selectTraceWindow(std::move(rows), spec, path);
  } catch (const WorkloadError& e) {
    return e.path() + " | " + e.reason();
  }
  return "accepted";
}

std::string windowErrorOf(size_t rows, double timeScale, const std::string& path = "load.trace") {
  TraceSpec spec;
  spec.file = "t.csv";
  spec.timeScale = timeScale;
  return selectErrorOf(rowsOneSecondApart(rows), spec, path);
}

std::string replayErrorOf(const json& trace) {
  auto document = validDocument();
  document["load"] = {{"arrival", "trace"}, {"trace", trace}};
  document["requests"].erase("input_tokens");
  document["requests"].erase("output_tokens");
  try {
    parseWorkload(document, kReplayWorkloads);
  } catch (const WorkloadError& e) {
    return e.path() + " | " + e.reason();
  }
  return "accepted";
}

}  // namespace

// QA: time_scale 1e9 overflowed int64 nanoseconds: "gap CV 27.8", the row at 0 never sent.
TEST(TraceReplayLimits, ATimeScaleThatMakesTheReplayTooLongIsRefusedBeforeItOverflows) {
  EXPECT_EQ(windowErrorOf(601, 1e4), "accepted");  // 6e6 s
  EXPECT_EQ(windowErrorOf(601, 1e9),
            "load.trace.time_scale | 1000000000 makes the replay 600000000000 s long (600 s of "
            "trace rows); at most 10000000 s of schedule");
  const std::string error = replayErrorOf({{"file", "traces/azure_llm_2023_conv.csv"},
                                           {"format", "azure_csv"},
                                           {"time_scale", 1e9},
                                           {"window_s", 600}});
  EXPECT_EQ(error.rfind("load.trace.time_scale | 1000000000 makes the replay ", 0), 0u) << error;
}

// QA: time_scale 1e-9 planned 2,996,000 sessions/s, three times the limit.
TEST(TraceReplayLimits, ATimeScaleThatMakesTheReplayTooFastIsRefused) {
  EXPECT_EQ(windowErrorOf(1000, 1e-9), "accepted");  // 1000 rows in the 1 ms a replay lasts
  EXPECT_EQ(windowErrorOf(2000, 1e-9),
            "load.trace.time_scale | 1e-09 replays 2000 rows in 0.001 s, 2000000 sessions/s; at "
            "most 1000000 sessions/s");
  EXPECT_EQ(windowErrorOf(2000, 1e-9, "--duration"),
            "--duration | replays 2000 rows in 0.001 s, 2000000 sessions/s; at most 1000000 "
            "sessions/s");
  const std::string error = replayErrorOf(
      {{"file", "traces/azure_llm_2023_conv.csv"}, {"format", "azure_csv"}, {"time_scale", 1e-9}});
  EXPECT_EQ(error.rfind("load.trace.time_scale | 1e-09 replays ", 0), 0u) << error;
}

TEST(TraceReplayLimits, AStartOffsetPastInt64NanosecondsIsRefused) {
  EXPECT_EQ(replayErrorOf({{"file", "traces/azure_llm_2023_conv.csv"},
                           {"format", "azure_csv"},
                           {"start_offset_s", 1e10}}),
            "load.trace.start_offset_s | must be <= 9000000000, got 10000000000");
}

// QA: a 4e9-token row was accepted and the worker died building a ~24 GB body. Rows replayed
// with their lengths are held to a distribution's default max; with lengths "workload" their
// counts are never used.
TEST(TraceReplayLimits, RowLengthsPastAMillionTokensAreBadRowsWhenReplayed) {
  TraceSpec spec;
  spec.file = spec.resolvedPath = "t.csv";
  auto rows = rowsOneSecondApart(3);
  rows[1].inputTokens = 1'000'000;
  EXPECT_EQ(selectErrorOf(rows, spec), "accepted");
  rows[1].inputTokens = 4'000'000'000;
  EXPECT_EQ(selectErrorOf(rows, spec),
            "t.csv:3 | field 'ContextTokens': at most 1000000 tokens, got 4000000000 (lengths "
            "\"trace\" sends each row's own)");
  spec.format = TraceFormat::MooncakeJsonl;
  rows[1].inputTokens = 7;
  rows[2].outputTokens = 1'000'001;
  EXPECT_EQ(selectErrorOf(rows, spec),
            "t.csv:4 | field 'output_length': at most 1000000 tokens, got 1000001 (lengths "
            "\"trace\" sends each row's own)");
  spec.lengthsFromTrace = false;
  EXPECT_EQ(selectErrorOf(rows, spec), "accepted");
}
