#include "core/workload/trace_schedule_cache.h"

#include <filesystem>
#include <mutex>
#include <optional>
#include <system_error>

namespace plumbline::workload {

namespace {

/// What the schedule was built from: the settings, the JSON path its messages name, and the
/// file's version.
struct ScheduleKey {
  TraceSpec spec;
  std::string path;
  std::uintmax_t size = 0;
  std::filesystem::file_time_type modified;

  bool operator==(const ScheduleKey& o) const {
    const TraceSpec& a = spec;
    const TraceSpec& b = o.spec;
    return a.file == b.file && a.resolvedPath == b.resolvedPath && a.format == b.format &&
           a.timeScale == b.timeScale && a.startOffsetS == b.startOffsetS &&
           a.windowS == b.windowS && a.lengthsFromTrace == b.lengthsFromTrace && path == o.path &&
           size == o.size && modified == o.modified;
  }
};

std::mutex g_mutex;
std::optional<ScheduleKey> g_key;
std::shared_ptr<const TraceSchedule> g_schedule;

std::optional<ScheduleKey> keyOf(const TraceSpec& spec, const std::string& path) {
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(spec.resolvedPath, error);
  if (error) return std::nullopt;
  const auto modified = std::filesystem::last_write_time(spec.resolvedPath, error);
  if (error) return std::nullopt;
  return ScheduleKey{spec, path, size, modified};
}

}  // namespace

std::shared_ptr<const TraceSchedule> sharedTraceSchedule(const TraceSpec& spec,
                                                         const std::string& path) {
  const std::optional<ScheduleKey> key = keyOf(spec, path);
  if (key) {
    const std::lock_guard lock(g_mutex);
    if (g_key == key) return g_schedule;
  }
  auto schedule = std::make_shared<const TraceSchedule>(buildTraceSchedule(spec, path));
  if (key) {
    const std::lock_guard lock(g_mutex);
    g_key = key;
    g_schedule = schedule;
  }
  return schedule;
}

}  // namespace plumbline::workload
