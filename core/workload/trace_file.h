#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// One request of a recorded trace, as read from the file.
struct TraceRow {
  int64_t timestampNs = 0;  ///< relative to the trace's first row
  uint32_t inputTokens = 0;
  uint32_t outputTokens = 0;
  std::vector<uint32_t> hashIds;  ///< Mooncake prefix blocks (512 tokens each); empty for Azure
  uint32_t line = 0;              ///< 1-based line in the file, for messages
};

/// Parses a trace file. Rows must be in non-decreasing time order (both public traces are).
/// Throws WorkloadError whose path is "FILE:LINE" and whose reason names the field.
std::vector<TraceRow> readTraceFile(const std::string& path, TraceFormat format);

/// Parses trace text already in memory (`name` is used in messages).
std::vector<TraceRow> parseTraceText(const std::string& text, const std::string& name,
                                     TraceFormat format);

/// "azure_csv" or "mooncake_jsonl".
const char* traceFormatName(TraceFormat format);

}  // namespace plumbline::workload
