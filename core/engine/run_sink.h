#pragma once
#include <cstdint>
#include <string>
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
  /// The run's t0 is fixed (every worker is up): its wall-clock time, ns since the Unix epoch.
  /// Called once, before any request is due.
  virtual void onT0(int64_t t0WallNs) { (void)t0WallNs; }
  /// Why results can no longer be recorded (the database could not be written), or "" while
  /// they can. The coordinator then stops the run: its figures are still whole in the summary.
  virtual std::string failure() const { return {}; }
};

}  // namespace plumbline::engine
