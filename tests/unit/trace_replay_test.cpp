// Trace replay: the planner reproduces the window's scaled instants exactly, with the
// trace's lengths (or the workload's), and the loader resolves the file next to the workload.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "core/workload/plan_command.h"
#include "core/workload/plan_preview.h"
#include "core/workload/planner.h"
#include "core/workload/trace_file.h"
#include "core/workload/trace_replay.h"
#include "core/workload/workload_loader.h"
#include "core/workload/workload_warnings.h"
#include "temp_text_file.h"
#include "workload_test_support.h"

using namespace plumbline::workload;
using plumbline::testing::planAll;
using plumbline::testing::validDocument;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kWorkloads = std::string(PLUMBLINE_SOURCE_DIR) + "/workloads";

json traceDocument(const json& trace) {
  auto document = validDocument();
  document["load"] = {{"arrival", "trace"}, {"trace", trace}};
  document["requests"].erase("input_tokens");
  document["requests"].erase("output_tokens");
  return document;
}

}  // namespace

TEST(TraceReplay, PlansTheScaledInstantsOfTheWindowExactly) {
  const json trace = {{"file", "traces/azure_llm_2023_conv.csv"}, {"format", "azure_csv"},
                      {"time_scale", 0.5}, {"start_offset_s", 120}, {"window_s", 60}};
  const auto spec = parseWorkload(traceDocument(trace), kWorkloads);
  const auto rows = readTraceFile(kWorkloads + "/traces/azure_llm_2023_conv.csv", TraceFormat::AzureCsv);
  std::vector<const TraceRow*> expected;
  for (const auto& row : rows)
    if (row.timestampNs >= 120'000'000'000 && row.timestampNs < 180'000'000'000) expected.push_back(&row);
  ASSERT_GT(expected.size(), 100u);

  const auto plan = planAll(spec);
  ASSERT_EQ(plan.size(), expected.size());
  for (size_t i = 0; i < plan.size(); ++i) {
    // (t − 120 s) × 0.5 exactly: Azure offsets are whole multiples of 100 ns.
    const int64_t offset = expected[i]->timestampNs - 120'000'000'000;
    ASSERT_EQ(plan[i].plannedNs * 2, offset) << i;
    ASSERT_EQ(plan[i].inputTokens, expected[i]->inputTokens) << i;
    ASSERT_EQ(plan[i].outputTokens, expected[i]->outputTokens) << i;
    ASSERT_EQ(plan[i].traceRow, static_cast<int64_t>(i));
    ASSERT_EQ(plan[i].id, i);
  }
  EXPECT_DOUBLE_EQ(spec.totalDurationS(), 30.0);
  EXPECT_NEAR(spec.load.stages.at(0).startRate, static_cast<double>(plan.size()) / 30.0, 1e-9);
}

TEST(TraceReplay, WholeTraceByDefaultAndMooncakeHashIdsReachThePlan) {
  const json trace = {{"file", "traces/mooncake_synthetic.jsonl"}, {"format", "mooncake_jsonl"}};
  const auto spec = parseWorkload(traceDocument(trace), kWorkloads);
  const auto plan = planAll(spec);
  ASSERT_EQ(plan.size(), 3993u);
  EXPECT_EQ(plan.back().plannedNs, 1'022'025'000'000);
  EXPECT_DOUBLE_EQ(spec.totalDurationS(), 1022.025);
  const auto& rows = spec.load.traceSchedule->rows;
  EXPECT_FALSE(rows.at(static_cast<size_t>(plan[5].traceRow)).hashIds.empty());
  EXPECT_EQ(plan[0].inputTokens, 40160u);
}

TEST(TraceReplay, WorkloadLengthsAreDrawnFromTheDistributions) {
  auto document = traceDocument({{"file", "traces/azure_llm_2023_code.csv"},
                                 {"format", "azure_csv"}, {"window_s", 30}, {"lengths", "workload"}});
  document["requests"]["input_tokens"] = {{"dist", "fixed"}, {"value", 77}};
  document["requests"]["output_tokens"] = {{"dist", "uniform"}, {"min", 5}, {"max", 9}};
  const auto plan = planAll(parseWorkload(document, kWorkloads));
  ASSERT_GT(plan.size(), 10u);
  for (const auto& s : plan) {
    EXPECT_EQ(s.inputTokens, 77u);
    EXPECT_GE(s.outputTokens, 5u);
    EXPECT_LE(s.outputTokens, 9u);
  }
  document["requests"].erase("output_tokens");
  EXPECT_THROW(parseWorkload(document, kWorkloads), WorkloadError);
}

TEST(TraceReplay, LoadWorkloadFileResolvesTheTraceNextToTheWorkload) {
  const fs::path dir = fs::path(::testing::TempDir()) / "plumbline_trace_dir";
  fs::create_directories(dir / "sub");
  {
    std::ofstream(dir / "sub" / "t.csv") << "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                                            "2023-11-16 18:00:00.0000000,10,2\n"
                                            "2023-11-16 18:00:01.5000000,20,3\n";
    std::ofstream(dir / "w.json") << traceDocument({{"file", "sub/t.csv"}, {"format", "azure_csv"}}).dump();
  }
  const auto spec = loadWorkloadFile((dir / "w.json").string());
  const auto plan = planAll(spec);
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].plannedNs, 0);
  EXPECT_EQ(plan[1].plannedNs, 1'500'000'000);
  EXPECT_EQ(plan[1].inputTokens, 20u);
  EXPECT_EQ(spec.load.trace->resolvedPath, (dir / "sub" / "t.csv").string());
}

TEST(TraceReplay, EmptyWindowSaysWhatTheTraceSpans) {
  try {
    parseWorkload(traceDocument({{"file", "traces/azure_llm_2023_code.csv"}, {"format", "azure_csv"},
                                 {"start_offset_s", 5000}}),
                  kWorkloads);
    FAIL() << "accepted";
  } catch (const WorkloadError& e) {
    EXPECT_EQ(e.path(), "load.trace");
    EXPECT_NE(e.reason().find("selects no rows"), std::string::npos) << e.reason();
    EXPECT_NE(e.reason().find("3435.948056 s"), std::string::npos) << e.reason();
  }
}

TEST(TraceReplay, DurationOverrideCutsTheReplayAndRateIsRefused) {
  auto spec = parseWorkload(
      traceDocument({{"file", "traces/azure_llm_2023_conv.csv"}, {"format", "azure_csv"},
                     {"time_scale", 2.0}, {"window_s", 600}}),
      kWorkloads);
  const auto full = planAll(spec);
  EXPECT_THROW(overrideLoad(spec, 10.0, std::nullopt), WorkloadError);
  overrideLoad(spec, std::nullopt, 20.0);
  const auto cut = planAll(spec);
  EXPECT_DOUBLE_EQ(spec.totalDurationS(), 20.0);
  ASSERT_GT(cut.size(), 10u);
  ASSERT_LT(cut.size(), full.size());
  for (size_t i = 0; i < cut.size(); ++i) ASSERT_EQ(cut[i].plannedNs, full[i].plannedNs);
  EXPECT_LT(cut.back().plannedNs, 20'000'000'000);
  EXPECT_GE(full[cut.size()].plannedNs, 20'000'000'000);
  // The stored document says what ran and parses back to the same schedule.
  const auto again = planAll(parseWorkload(spec.document, kWorkloads));
  ASSERT_EQ(again.size(), cut.size());
  EXPECT_EQ(again.back().plannedNs, cut.back().plannedNs);
}

// QA: a --duration past the replay's end re-cut the rows already selected, and the run's
// duration (so its rates) moved: 4.0 s became 3.86 s. It only ever cuts short.
TEST(TraceReplay, ADurationPastTheReplaysEndChangesNothing) {
  auto spec = parseWorkload(traceDocument({{"file", "traces/azure_llm_2023_conv.csv"},
                                           {"format", "azure_csv"},
                                           {"time_scale", 0.5},
                                           {"start_offset_s", 600},
                                           {"window_s", 8}}),
                            kWorkloads);
  const double before = spec.totalDurationS();
  const auto full = planAll(spec);
  EXPECT_DOUBLE_EQ(before, 4.0);
  overrideLoad(spec, std::nullopt, 10.0);
  EXPECT_DOUBLE_EQ(spec.totalDurationS(), before);
  EXPECT_EQ(planAll(spec).size(), full.size());
  EXPECT_EQ(spec.document["load"]["trace"]["window_s"], 8);
}

// QA: a trace file that is not there said "nope.csv: cannot read trace file", naming neither
// the workload field nor where it was looked for.
TEST(TraceReplay, AMissingTraceFileNamesTheFieldAndWhereItWasLookedFor) {
  nlohmann::json w = loadWorkloadFile(kWorkloads + "/azure_conv_replay.json").document;
  w["load"]["trace"]["file"] = "traces/no_such_trace.csv";
  try {
    parseWorkload(w, kWorkloads);
    ADD_FAILURE() << "accepted";
  } catch (const WorkloadError& e) {
    EXPECT_EQ(e.path(), "load.trace.file");
    EXPECT_NE(e.reason().find("'traces/no_such_trace.csv' (looked for at " + kWorkloads +
                              "/traces/no_such_trace.csv)"),
              std::string::npos)
        << e.reason();
    EXPECT_NE(e.reason().find("No such file or directory"), std::string::npos) << e.reason();
  }
}

TEST(TraceReplay, PreviewShowsTheTraceAndArrivalStatistics) {
  const auto spec = loadWorkloadFile(kWorkloads + "/azure_conv_replay.json");
  const auto preview = buildPreview(spec);
  ASSERT_TRUE(preview.trace.has_value());
  EXPECT_EQ(preview.trace->rowsInFile, 19366u);
  EXPECT_EQ(preview.trace->rowsUsed, preview.sessions);
  EXPECT_EQ(preview.trace->firstLine, 2u);
  EXPECT_NEAR(preview.arrivals.meanRate, static_cast<double>(preview.sessions) / 600.0, 1e-9);
  EXPECT_GT(preview.arrivals.gapCv, 0.5);
  const std::string text = formatPreview(preview, spec);
  EXPECT_NE(text.find("traces/azure_llm_2023_conv.csv (azure_csv)"), std::string::npos) << text;
  EXPECT_NE(text.find("gap CV"), std::string::npos) << text;
  // What it says multiplies out: the window in trace time, times the scale, is the replay.
  char line[128];
  std::snprintf(line, sizeof line,
                "%.3f s of trace time (its rows %.3f s apart, first to last) x time_scale %.3g = "
                "%.3f s replayed",
                preview.trace->replaySpanS / preview.trace->timeScale, preview.trace->traceSpanS,
                preview.trace->timeScale, preview.trace->replaySpanS);
  EXPECT_NE(text.find(line), std::string::npos) << text;
  EXPECT_NE(text.find("600.000 s of trace time"), std::string::npos) << text;
  const auto json = previewJson(preview, spec);
  EXPECT_EQ(json["trace"]["rows_used"], preview.sessions);
  EXPECT_EQ(json["arrival"], "trace");
}

// QA: a 5 s window over a trace whose rows end at 1.48 s previewed "9.80/s" over 5 s while the
// run ended at the last row. The replay now ends at the file's last row and a warning says so.
TEST(TraceReplay, AWindowPastTheFilesLastRowEndsAtThatRowAndIsWarned) {
  const std::vector<TraceRow> rows = [] {
    std::vector<TraceRow> out;
    for (int i = 0; i < 50; ++i) {
      TraceRow row;
      row.timestampNs = int64_t{30'000'000} * i;  // 0 to 1.47 s
      row.inputTokens = 10;
      row.outputTokens = 5;
      out.push_back(row);
    }
    return out;
  }();
  TraceSpec spec;
  spec.file = "t.jsonl";
  spec.windowS = 5.0;
  spec.timeScale = 2.0;
  const TraceSchedule past = selectTraceWindow(rows, spec, "load.trace");
  EXPECT_DOUBLE_EQ(past.durationS, 2.94);  // the last row, 1.47 s × 2
  EXPECT_DOUBLE_EQ(past.windowPastEndS, 10.0);
  EXPECT_NEAR(past.meanRate(), 50 / 2.94, 1e-9);
  // A window ending before the last row is the window, whatever it holds.
  spec.windowS = 1.0;
  const TraceSchedule within = selectTraceWindow(rows, spec, "load.trace");
  EXPECT_DOUBLE_EQ(within.durationS, 2.0);
  EXPECT_EQ(within.windowPastEndS, 0);

  // Through the loader, on a real trace: its last row, and the warning naming window_s.
  const auto all =
      readTraceFile(kWorkloads + "/traces/azure_llm_2023_conv.csv", TraceFormat::AzureCsv);
  const double lastS = static_cast<double>(all.back().timestampNs) * 1e-9;
  const auto workload = parseWorkload(traceDocument({{"file", "traces/azure_llm_2023_conv.csv"},
                                                     {"format", "azure_csv"},
                                                     {"start_offset_s", lastS - 2},
                                                     {"window_s", 60}}),
                                      kWorkloads);
  EXPECT_NEAR(workload.totalDurationS(), 2.0, 1e-6);
  const auto warnings = workloadWarnings(workload);
  const auto it = std::find_if(warnings.begin(), warnings.end(), [](const WorkloadWarning& w) {
    return w.path == "load.trace.window_s";
  });
  ASSERT_NE(it, warnings.end());
  EXPECT_NE(it->message.find("reaches past the trace's last row, 2.000 s in"), std::string::npos)
      << it->message;
}

TEST(TraceReplay, ZeroLengthRowsAreSentAsOneTokenAndThePlanSaysWhichLines) {
  // Lines 3, 5, 6 and 7 hold a zero: 3 inputs (3, 6, 7) and 2 outputs (3, 5).
  const plumbline::testing::TempTextFile csv(
      "TIMESTAMP,ContextTokens,GeneratedTokens\n"
      "2023-11-16 18:15:46.0000000,374,44\n"
      "2023-11-16 18:15:47.0000000,0,0\n"
      "2023-11-16 18:15:48.0000000,10,5\n"
      "2023-11-16 18:15:49.0000000,12,0\n"
      "2023-11-16 18:15:50.0000000,0,9\n"
      "2023-11-16 18:15:51.0000000,0,1\n");
  auto document = traceDocument({{"file", csv.path}, {"format", "azure_csv"}});
  const auto spec = parseWorkload(document);
  const auto sessions = planAll(spec);
  ASSERT_EQ(sessions.size(), 6u);
  EXPECT_EQ(sessions[1].inputTokens, 1u);
  EXPECT_EQ(sessions[1].outputTokens, 1u);
  EXPECT_EQ(sessions[3].outputTokens, 1u);

  auto raisedWarning = [](const WorkloadSpec& s) -> std::string {
    for (const auto& w : workloadWarnings(s))
      if (w.path == "load.trace" && w.message.find("0 length") != std::string::npos)
        return w.message;
    return "";
  };
  const std::string message = raisedWarning(spec);
  EXPECT_NE(message.find(
                "4 of the 6 replayed rows have a 0 length (3 with 0 input, 2 with 0 output tokens) "
                "and are sent with 1 instead"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find(csv.path + " lines 3, 5, 6 and 1 more)"), std::string::npos) << message;

  // `plumbline plan` prints it under load.trace.
  const plumbline::testing::TempTextFile workload(document.dump());
  std::ostringstream out, err;
  ASSERT_EQ(planCommand(workload.path, false, out, err), 0) << err.str();
  EXPECT_NE(out.str().find("  load.trace: 4 of the 6 replayed rows have a 0 length"),
            std::string::npos)
      << out.str();

  // One row: its line alone. A window past the zeros: no warning.
  document["load"]["trace"]["window_s"] = 1.5;
  EXPECT_NE(raisedWarning(parseWorkload(document)).find(csv.path + " line 3)"), std::string::npos);
  document["load"]["trace"]["window_s"] = 1.0;
  EXPECT_EQ(raisedWarning(parseWorkload(document)), "");
  // Lengths drawn from the workload: the trace's zeros are not sent, nothing to say.
  document = traceDocument({{"file", csv.path}, {"format", "azure_csv"}, {"lengths", "workload"}});
  document["requests"]["input_tokens"] = validDocument()["requests"]["input_tokens"];
  document["requests"]["output_tokens"] = validDocument()["requests"]["output_tokens"];
  EXPECT_EQ(raisedWarning(parseWorkload(document)), "");
}
