#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/metrics/request_record.h"
#include "core/store/database.h"
#include "core/store/run_row.h"
#include "core/store/window_row.h"

namespace plumbline::store {

/// Read-only access to recorded runs; safe while a writer is recording (WAL).
class RunReader {
 public:
  /// Throws StoreError (NotFound, NotADatabase, TooNew, Failure) naming the file.
  explicit RunReader(const std::string& dbPath);

  std::vector<RunRow> listRuns() const;  ///< oldest first
  std::optional<RunRow> getRun(int64_t id) const;
  /// Calls back once per request of the run, in insertion order.
  void forEachRequest(int64_t id, const std::function<void(const metrics::RequestRecord&)>& cb) const;
  int64_t requestCount(int64_t id) const;
  /// The run's completed requests in flight across a hold of their worker's loop of `minNs` or
  /// more (held_ns; none for rows stored before schema 10).
  int64_t heldRequestCount(int64_t id, int64_t minNs) const;
  std::vector<WindowRow> windows(int64_t id) const;  ///< by window index
  /// windowIdx -1 is the whole run.
  std::optional<std::string> histogram(int64_t id, const std::string& metric, int64_t windowIdx) const;
  std::vector<std::string> tags(int64_t id) const;
  /// Every run's tags (runs without tags absent), sorted, in one query: for run tables.
  std::map<int64_t, std::vector<std::string>> tagsByRun() const;
  /// (window index, blob) of one metric's per-window histograms, by window index.
  std::vector<std::pair<int64_t, std::string>> windowHistograms(int64_t id,
                                                                const std::string& metric) const;
  const std::string& path() const { return m_db.path(); }
  /// What a quick check finds wrong in the runs table ("" when nothing).
  std::string damage() const { return m_db.damageIn("runs"); }

  /// 'running' becomes 'incomplete' when the coordinator ran on another host, or its pid is
  /// gone, or that pid now names a process that started after the run did (the pid was given
  /// again after the coordinator died: a crash, a reboot). `runStartWallNs` is the run's t0 on
  /// the wall clock (0: not known, and not checked).
  static std::string effectiveStatus(const std::string& storedStatus, int64_t pid,
                                     const std::string& host, int64_t runStartWallNs);

 private:
  std::vector<RunRow> queryRuns(const std::string& where, std::optional<int64_t> id) const;

  Database m_db;
};

}  // namespace plumbline::store
