#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/request_record.h"
#include "core/store/run_info.h"
#include "core/store/window_row.h"

namespace plumbline::store {

/// Metric name → serialized histogram.
using HistogramBlobs = std::vector<std::pair<std::string, std::string>>;

/// Records one run. The caller (the coordinator) only queues; a writer thread owns the
/// SQLite connection and commits everything queued in one transaction at most every ~100 ms,
/// so a run killed midway keeps every batch it committed. Not thread-safe for callers: one
/// thread feeds it. Errors of the writer thread are rethrown by the next call or by finish().
class RunWriter {
 public:
  /// Opens (creating/migrating) the database and inserts the run as 'running' before returning.
  RunWriter(const std::string& dbPath, const RunInfo& info);
  /// Without finish(): flushes what is queued, leaves the run 'running' (read as incomplete
  /// once this process is gone). Never throws.
  ~RunWriter();
  RunWriter(const RunWriter&) = delete;
  RunWriter& operator=(const RunWriter&) = delete;

  int64_t runId() const { return m_runId; }
  void addRequests(std::vector<metrics::RequestRecord> batch);
  void addWindow(WindowRow row, HistogramBlobs histogramBlobs = {});
  /// Queues the run's t0 on the wall clock (runs.t0_wall_ns), which replaces the provisional
  /// one of RunInfo (the run's creation) once the coordinator has fixed t0.
  void setT0Wall(int64_t t0WallNs);
  /// Called every ~50 ms while finish() waits for the writer, with how long its current write
  /// has waited for another process's lock (0 s when it is not waiting); returning false
  /// gives that wait up (the write fails, Busy).
  using KeepWaiting = std::function<bool(double lockWaitS)>;
  /// Queues the final update (status 'complete' or 'incomplete', verdict and headline columns
  /// from the summary json), writes everything, stops the writer thread. Call once.
  void finish(const nlohmann::json& summary, HistogramBlobs runHistogramBlobs, bool complete,
              const KeepWaiting& keepWaiting = {});
  /// How long writes waited, in all, for another process's lock on the database (0: never).
  int64_t lockWaitNs() const { return m_lockWaitNs.load(); }
  /// How long one write may wait for such a lock before the recording fails.
  static constexpr std::chrono::minutes kBusyPatience{10};

 private:
  struct PendingWindow {
    WindowRow row;
    HistogramBlobs histograms;
  };
  struct Final {
    nlohmann::json summary;
    HistogramBlobs histograms;
    bool complete = true;
  };
  struct Queue {
    std::vector<metrics::RequestRecord> requests;
    std::vector<PendingWindow> windows;
    std::optional<Final> final;
    std::optional<int64_t> t0WallNs;
    bool empty() const { return requests.empty() && windows.empty() && !final && !t0WallNs; }
  };
  class Connection;  // the writer thread's database and prepared statements

  void writerLoop();
  /// Writes batch, waiting out other processes' locks (up to kBusyPatience); false (and
  /// m_error set) when it could not.
  bool writeWaitingOutLocks(const Queue& batch);
  void stopAndJoin();
  void throwIfFailed();

  std::string m_path;
  int64_t m_runId = 0;
  std::unique_ptr<Connection> m_connection;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  Queue m_queue;
  bool m_stop = false;
  bool m_finished = false;
  std::exception_ptr m_error;
  std::atomic<int64_t> m_lockWaitNs{0};
  std::atomic<int64_t> m_lockWaitSinceNs{0};  ///< steady clock; 0 while no write waits for a lock
  std::atomic<bool> m_giveUpWaiting{false};
  std::atomic<bool> m_threadDone{false};
  std::thread m_thread;
};

}  // namespace plumbline::store
