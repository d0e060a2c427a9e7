#include "core/workload/trace_schedule_cache.h"

#include <optional>

#include "core/util/file_version.h"
#include "core/util/last_built.h"

namespace plumbline::workload {

namespace {

/// What the schedule was built from: the settings, the JSON path its messages name, and the
/// file's version.
struct ScheduleKey {
  TraceSpec spec;
  std::string path;
  util::FileVersion version;

  bool operator==(const ScheduleKey& o) const {
    const TraceSpec& a = spec;
    const TraceSpec& b = o.spec;
    return a.file == b.file && a.resolvedPath == b.resolvedPath && a.format == b.format &&
           a.timeScale == b.timeScale && a.startOffsetS == b.startOffsetS &&
           a.windowS == b.windowS && a.lengthsFromTrace == b.lengthsFromTrace && path == o.path &&
           version == o.version;
  }
};

util::LastBuilt<ScheduleKey, std::shared_ptr<const TraceSchedule>> g_schedules;

std::optional<ScheduleKey> keyOf(const TraceSpec& spec, const std::string& path) {
  const std::optional<util::FileVersion> version = util::fileVersion(spec.resolvedPath);
  if (!version) return std::nullopt;
  return ScheduleKey{spec, path, *version};
}

}  // namespace

std::shared_ptr<const TraceSchedule> sharedTraceSchedule(const TraceSpec& spec,
                                                         const std::string& path) {
  return g_schedules.get(keyOf(spec, path), [&] {
    return std::make_shared<const TraceSchedule>(buildTraceSchedule(spec, path));
  });
}

}  // namespace plumbline::workload
