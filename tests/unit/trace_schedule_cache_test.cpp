// The studio validates a workload after every pause in editing: a trace replay's schedule is
// built once per version of its file and settings, and rebuilt when either changes.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "core/workload/trace_replay.h"
#include "core/workload/trace_schedule_cache.h"
#include "core/workload/workload_error.h"

using namespace plumbline::workload;
namespace fs = std::filesystem;

namespace {

void writeAzureTrace(const fs::path& file, int rows) {
  std::ofstream out(file);
  out << "TIMESTAMP,ContextTokens,GeneratedTokens\n";
  for (int i = 0; i < rows; ++i)
    out << "2023-11-16 18:00:0" << i << ".0000000," << 10 + i << ",2\n";
}

TraceSpec azureSpec(const fs::path& file) {
  TraceSpec spec;
  spec.file = file.filename().string();
  spec.resolvedPath = file.string();
  spec.format = TraceFormat::AzureCsv;
  return spec;
}

}  // namespace

TEST(TraceScheduleCache, TheSameFileAndSettingsShareOneScheduleAndAChangeRebuildsIt) {
  const fs::path dir = fs::path(::testing::TempDir()) / "plumbline_trace_cache";
  fs::create_directories(dir);
  const fs::path file = dir / "t.csv";
  writeAzureTrace(file, 3);
  const TraceSpec spec = azureSpec(file);
  const auto first = sharedTraceSchedule(spec, "load.trace");
  ASSERT_EQ(first->rows.size(), 3u);
  EXPECT_EQ(sharedTraceSchedule(spec, "load.trace"), first);  // not read again

  TraceSpec faster = spec;
  faster.timeScale = 0.5;
  const auto scaled = sharedTraceSchedule(faster, "load.trace");
  EXPECT_NE(scaled, first);
  EXPECT_EQ(scaled->plannedNs.back(), 1'000'000'000);  // 2 s of trace at half the time

  writeAzureTrace(file, 4);  // the file edited: read again
  fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(1));
  const auto edited = sharedTraceSchedule(faster, "load.trace");
  EXPECT_NE(edited, scaled);
  EXPECT_EQ(edited->rows.size(), 4u);

  fs::remove(file);  // gone: the error names the file, and nothing stale comes back
  EXPECT_THROW(sharedTraceSchedule(faster, "load.trace"), WorkloadError);
}
