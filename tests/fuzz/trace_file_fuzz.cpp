// Fuzzes the trace file parser (core/workload/trace_file.h) in both formats: any text must
// parse or throw WorkloadError, never crash; parsed rows keep the promises the replay relies
// on (non-decreasing time from 0, 1-based increasing line numbers).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/workload/trace_file.h"
#include "core/workload/workload_error.h"

using namespace plumbline::workload;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  // The first byte picks the format; the rest is the file's text.
  const TraceFormat format = (data[0] & 1) == 0 ? TraceFormat::AzureCsv : TraceFormat::MooncakeJsonl;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    const auto rows = parseTraceText(text, "fuzz.trace", format);
    int64_t previousNs = 0;
    uint32_t previousLine = 0;
    for (const auto& row : rows) {
      if (row.timestampNs < previousNs || row.line <= previousLine) __builtin_trap();
      previousNs = row.timestampNs;
      previousLine = row.line;
    }
  } catch (const WorkloadError&) {
  }
  return 0;
}
