#pragma once
// The last trace replay built, kept for the next validation of the same workload.
#include <memory>
#include <string>

#include "core/workload/trace_replay.h"

namespace plumbline::workload {

/// The schedule of a trace replay, built once per version of its file and of its load.trace
/// settings. The studio validates a workload after every pause in editing, and each validation
/// of a Mooncake replay read and parsed its 3 MB file again (~100 ms on the GUI thread). Keeps
/// the last schedule built; a file whose size or modification time changed is read again, and
/// a file that cannot be examined is read as buildTraceSchedule reads it (its error names it).
/// Errors are not kept. Thread-safe.
std::shared_ptr<const TraceSchedule> sharedTraceSchedule(const TraceSpec& spec,
                                                         const std::string& path);

}  // namespace plumbline::workload
