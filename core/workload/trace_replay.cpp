#include "core/workload/trace_replay.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "core/workload/json_fields.h"
#include "core/workload/load_limits.h"
#include "core/workload/workload_error.h"

namespace plumbline::workload {
namespace {

/// A replay whose rows all share one instant still lasts this long, so rates stay finite.
constexpr double kMinDurationS = 0.001;
/// Trace instants are int64 nanoseconds (≤ 9.2e9 s); no row lies past this offset.
constexpr double kMaxTraceSeconds = 9e9;

TraceFormat parseFormat(const JsonFields& fields) {
  const std::string format = fields.requireString("format");
  if (format == "azure_csv") return TraceFormat::AzureCsv;
  if (format == "mooncake_jsonl") return TraceFormat::MooncakeJsonl;
  throw WorkloadError(fields.childPath("format"),
                      "expected \"azure_csv\" or \"mooncake_jsonl\", got '" + format + "'");
}

/// What to name when a replay breaks a load limit: the time_scale that made it so, or the
/// --duration that cut it.
std::string limitPath(const std::string& path) {
  return path.rfind("--", 0) == 0 ? path : path + ".time_scale";
}

/// The scaled span of the rows, checked before any instant is rounded to int64 nanoseconds
/// (QA: time_scale 1e9 overflowed them and planned gaps of nonsense).
void checkReplayLength(double traceSpanS, const TraceSpec& spec, const std::string& path) {
  const double replayS = traceSpanS * spec.timeScale;
  if (replayS > kMaxSeconds)
    throw WorkloadError(limitPath(path), formatNumber(spec.timeScale) + " makes the replay " +
                                             formatNumber(replayS) + " s long (" +
                                             formatNumber(traceSpanS) +
                                             " s of trace rows); at most " +
                                             formatNumber(kMaxSeconds) + " s of schedule");
}

/// The limits stages are held to, for the schedule a replay plans (QA: time_scale 1e-9 planned
/// 3 million sessions/s).
void checkReplayRate(const TraceSchedule& schedule, const TraceSpec& spec,
                     const std::string& path) {
  if (schedule.durationS > kMaxSeconds)  // a window longer than its rows' span
    throw WorkloadError(path.rfind("--", 0) == 0 ? path : path + ".window_s",
                        "makes the replay " + formatNumber(schedule.durationS) +
                            " s long; at most " + formatNumber(kMaxSeconds) + " s of schedule");
  const auto rows = static_cast<double>(schedule.rows.size());
  if (rows > kMaxExpectedSessions)
    throw WorkloadError(
        path, "the replay plans " + formatNumber(rows) + " sessions; at most 1e8 are supported");
  if (schedule.meanRate() > kMaxRate)
    throw WorkloadError(limitPath(path),
                        (path.rfind("--", 0) == 0 ? "" : formatNumber(spec.timeScale) + " ") +
                            "replays " + formatNumber(rows) + " rows in " +
                            formatNumber(schedule.durationS) + " s, " +
                            formatNumber(schedule.meanRate()) + " sessions/s; at most " +
                            formatNumber(kMaxRate) + " sessions/s");
}

/// Rows replayed with their own lengths ask for no more than a distribution may by default
/// (QA: a 4e9-token row was accepted and took the worker down building its body). With
/// lengths "workload" a row's counts are never used, so they are not checked.
void checkRowLengths(const TraceSchedule& schedule, const TraceSpec& spec) {
  if (!spec.lengthsFromTrace) return;
  const bool azure = spec.format == TraceFormat::AzureCsv;
  auto check = [&](uint32_t tokens, const TraceRow& row, const char* field) {
    if (tokens > kMaxRowTokens)
      throw WorkloadError(spec.resolvedPath + ":" + std::to_string(row.line),
                          std::string("field '") + field + "': at most " +
                              formatNumber(kMaxRowTokens) + " tokens, got " +
                              std::to_string(tokens) + " (lengths \"trace\" sends each row's own)");
  };
  for (const TraceRow& row : schedule.rows) {
    check(row.inputTokens, row, azure ? "ContextTokens" : "input_length");
    check(row.outputTokens, row, azure ? "GeneratedTokens" : "output_length");
  }
}

}  // namespace

TraceSpec parseTraceSpec(const nlohmann::json& value, const std::string& path,
                         const std::string& baseDir) {
  JsonFields fields(value, path,
                    {"file", "format", "time_scale", "start_offset_s", "window_s", "lengths"});
  TraceSpec spec;
  spec.file = fields.requireString("file");
  if (spec.file.empty()) throw WorkloadError(fields.childPath("file"), "must not be empty");
  const std::filesystem::path file(spec.file);
  spec.resolvedPath = (file.is_absolute() || baseDir.empty())
                          ? file.string()
                          : (std::filesystem::path(baseDir) / file).string();
  spec.format = parseFormat(fields);
  if (auto scale = fields.number("time_scale")) {
    checkPositive(*scale, fields.childPath("time_scale"));
    spec.timeScale = *scale;
  }
  if (auto offset = fields.number("start_offset_s")) {
    checkNonNegative(*offset, fields.childPath("start_offset_s"));
    checkAtMost(*offset, kMaxTraceSeconds, fields.childPath("start_offset_s"));
    spec.startOffsetS = *offset;
  }
  if (auto window = fields.number("window_s")) {
    checkPositive(*window, fields.childPath("window_s"));
    spec.windowS = *window;
  }
  if (auto lengths = fields.string("lengths")) {
    if (*lengths != "trace" && *lengths != "workload")
      throw WorkloadError(fields.childPath("lengths"),
                          "expected \"trace\" or \"workload\", got '" + *lengths + "'");
    spec.lengthsFromTrace = *lengths == "trace";
  }
  return spec;
}

TraceSchedule selectTraceWindow(std::vector<TraceRow> rows, const TraceSpec& spec,
                                const std::string& path) {
  TraceSchedule schedule;
  schedule.rowsInFile = rows.size();
  const auto startNs = static_cast<int64_t>(std::llround(spec.startOffsetS * 1e9));
  // A window reaching past int64 nanoseconds reaches past every row.
  const double endS = spec.startOffsetS + spec.windowS.value_or(kMaxTraceSeconds);
  const int64_t endNs =
      endS < kMaxTraceSeconds ? std::llround(endS * 1e9) : std::numeric_limits<int64_t>::max();
  const auto first = std::lower_bound(rows.begin(), rows.end(), startNs,
                                      [](const TraceRow& r, int64_t t) { return r.timestampNs < t; });
  const auto last = std::lower_bound(first, rows.end(), endNs,
                                     [](const TraceRow& r, int64_t t) { return r.timestampNs < t; });
  if (first == last) {
    const double spanS = rows.empty() ? 0 : static_cast<double>(rows.back().timestampNs) * 1e-9;
    throw WorkloadError(path, "the window [" + formatNumber(spec.startOffsetS) + " s, " +
                                  (spec.windowS ? formatNumber(spec.startOffsetS + *spec.windowS) + " s"
                                                : std::string("end")) +
                                  ") selects no rows of " + spec.file + " (its rows span 0 to " +
                                  formatNumber(spanS) + " s)");
  }
  schedule.firstRow = static_cast<size_t>(first - rows.begin());
  checkReplayLength(static_cast<double>((last - 1)->timestampNs - startNs) * 1e-9, spec, path);
  schedule.rows.assign(std::make_move_iterator(first), std::make_move_iterator(last));
  schedule.plannedNs.reserve(schedule.rows.size());
  for (const TraceRow& row : schedule.rows) {
    schedule.plannedNs.push_back(std::llround(
        static_cast<double>(row.timestampNs - startNs) * spec.timeScale));
    if (row.inputTokens != 0 && row.outputTokens != 0) continue;
    schedule.zeroInputRows += row.inputTokens == 0 ? 1 : 0;
    schedule.zeroOutputRows += row.outputTokens == 0 ? 1 : 0;
    if (++schedule.zeroLengthRows <= TraceSchedule::kZeroLengthLinesKept)
      schedule.zeroLengthLines.push_back(row.line);
  }
  schedule.traceSpanS =
      static_cast<double>(schedule.rows.back().timestampNs - schedule.rows.front().timestampNs) *
      1e-9;
  const double lastS = static_cast<double>(schedule.plannedNs.back()) * 1e-9;
  schedule.durationS = spec.windowS ? *spec.windowS * spec.timeScale : lastS;
  if (spec.windowS && last == rows.end() && schedule.durationS > lastS) {
    // A window past the end of the file: its rates over the whole window read 3.4 times too low
    // for a 5 s window over 1.48 s of rows, and the run ended at the last row regardless.
    schedule.windowPastEndS = schedule.durationS;
    schedule.durationS = lastS;
  }
  schedule.durationS = std::max({schedule.durationS, lastS, kMinDurationS});
  checkReplayRate(schedule, spec, path);
  checkRowLengths(schedule, spec);
  return schedule;
}

TraceSchedule buildTraceSchedule(const TraceSpec& spec, const std::string& path) {
  std::vector<TraceRow> rows;
  try {
    rows = readTraceFile(spec.resolvedPath, spec.format);
  } catch (const WorkloadError& e) {
    // A file that cannot be opened names the field that asked for it and where it was looked
    // for (QA: "nope.csv: cannot read trace file" left both to guess). Row errors keep FILE:LINE.
    if (e.path() != spec.resolvedPath || std::filesystem::exists(spec.resolvedPath)) throw;
    throw WorkloadError(
        path + ".file",
        "'" + spec.file + "' (looked for at " +
            std::filesystem::absolute(spec.resolvedPath).lexically_normal().string() +
            "): " + e.reason());
  }
  return selectTraceWindow(std::move(rows), spec, path);
}

}  // namespace plumbline::workload
