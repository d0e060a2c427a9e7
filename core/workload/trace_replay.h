#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/workload/trace_file.h"
#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// The part of a trace a workload replays, with each row's planned instant already scaled.
struct TraceSchedule {
  std::vector<TraceRow> rows;       ///< the selected rows, in time order
  std::vector<int64_t> plannedNs;   ///< per row: (offset − start_offset) × time_scale, rounded
  size_t rowsInFile = 0;
  size_t firstRow = 0;              ///< index of rows[0] among the file's rows
  double traceSpanS = 0;            ///< first to last selected row, in trace seconds
  double durationS = 0;             ///< the replay's length on the run's clock
  /// window_s on the run's clock where it reaches past the file's last row (the replay then ends
  /// at that row: the file says nothing of what came after it); 0 otherwise.
  double windowPastEndS = 0;
  /// Selected rows with a 0 input or output length, which a replay of the trace's lengths
  /// raises to 1 (a request asks for at least one token of each): how many of each, and the
  /// file lines of the first few such rows.
  size_t zeroInputRows = 0, zeroOutputRows = 0, zeroLengthRows = 0;
  std::vector<uint32_t> zeroLengthLines;  ///< at most kZeroLengthLinesKept
  static constexpr size_t kZeroLengthLinesKept = 3;
  double meanRate() const { return durationS > 0 ? static_cast<double>(rows.size()) / durationS : 0; }
};

/// Validates load.trace (`path` is its JSON path). Resolves "file" against `baseDir`
/// (the workload file's directory; empty means the current directory).
TraceSpec parseTraceSpec(const nlohmann::json& value, const std::string& path,
                         const std::string& baseDir);

/// Reads the file and selects the window. Throws WorkloadError when the window holds no row.
TraceSchedule buildTraceSchedule(const TraceSpec& spec, const std::string& path);

/// Selects and scales rows already read (for tests and for buildTraceSchedule).
TraceSchedule selectTraceWindow(std::vector<TraceRow> rows, const TraceSpec& spec,
                                const std::string& path);

}  // namespace plumbline::workload
