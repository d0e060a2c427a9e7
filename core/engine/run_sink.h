#pragma once
#include <vector>

#include "core/metrics/request_record.h"
#include "core/metrics/window_stats.h"

namespace plumbline::engine {

/// Where a run's results go as they are produced (the database, a live socket, a test).
/// Called on the coordinator's thread; implementations must not block for long.
class RunSink {
 public:
  virtual ~RunSink() = default;
  virtual void onRecords(const std::vector<metrics::RequestRecord>& records) = 0;
  /// A window closed: it is final.
  virtual void onWindow(const metrics::WindowStats& window) = 0;
};

}  // namespace plumbline::engine
