#include "core/workload/trace_replay.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "core/workload/json_fields.h"
#include "core/workload/workload_error.h"

namespace plumbline::workload {
namespace {

/// A replay whose rows all share one instant still lasts this long, so rates stay finite.
constexpr double kMinDurationS = 0.001;

TraceFormat parseFormat(const JsonFields& fields) {
  const std::string format = fields.requireString("format");
  if (format == "azure_csv") return TraceFormat::AzureCsv;
  if (format == "mooncake_jsonl") return TraceFormat::MooncakeJsonl;
  throw WorkloadError(fields.childPath("format"),
                      "expected \"azure_csv\" or \"mooncake_jsonl\", got '" + format + "'");
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
  const int64_t endNs = spec.windowS ? startNs + std::llround(*spec.windowS * 1e9)
                                     : std::numeric_limits<int64_t>::max();
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
