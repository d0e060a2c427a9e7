#include "core/store/run_writer.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "core/metrics/run_summary.h"
#include "core/store/database.h"
#include "core/store/store_error.h"
#include "core/store/time_format.h"
#include "core/util/background_thread.h"
#include "core/util/host_name.h"

namespace plumbline::store {

namespace {

using Json = nlohmann::json;
constexpr auto kCommitInterval = std::chrono::milliseconds(100);
/// One try's wait for another connection's lock: short, so that giving the wait up is prompt.
constexpr int kBusyTryMs = 250;

int64_t steadyNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void bindOptionalInt(Statement& s, int index, const Json& j, const char* key) {
  if (auto it = j.find(key); it != j.end() && it->is_number()) s.bindInt(index, it->get<int64_t>());
  else s.bindNull(index);
}

void bindOptionalDouble(Statement& s, int index, const Json* j) {
  if (j && j->is_number()) s.bindDouble(index, j->get<double>());
  else s.bindNull(index);
}

const Json* member(const Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

}  // namespace

/// The writer thread's connection and its prepared statements.
class RunWriter::Connection {
 public:
  explicit Connection(const std::string& path)
      : m_db(Database::open(path, Database::Mode::ReadWrite)),
        m_request(m_db.prepare(requestInsert(1))),
        m_requestBlock(m_db.prepare(requestInsert(kRequestBlock))),
        m_window(m_db.prepare(
            "INSERT OR REPLACE INTO windows (run_id, idx, start_ns, length_ns, planned, sent, "
            "completed, errors, errors_json, input_tokens, output_tokens, in_flight, ttft_p50_ms, "
            "ttft_p99_ms, itl_p50_ms, itl_p99_ms, e2e_p50_ms, e2e_p99_ms, send_lag_p50_ms, "
            "send_lag_p99_ms, send_lag_max_ms, worker_cpu_max, worker_cpu_mean, loop_delay_max_ms, "
            "in_flight_cap_hits, worker_died, connections_open, cpu_wait_max_ms, "
            "handed_late_max_ms, sent_during, ttfa_p50_ms, ttfa_p99_ms, "
            "ttft_from_planned_p50_ms, ttft_from_planned_p99_ms, e2e_from_planned_p50_ms, "
            "e2e_from_planned_p99_ms, tpot_p50_ms, tpot_p99_ms) VALUES "
            "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")),
        m_histogram(m_db.prepare("INSERT OR REPLACE INTO histograms VALUES (?,?,?,?)")) {}

  /// A run is not added to a database whose runs (or the highest id given) cannot be read
  /// whole: its id would come from a damaged page, and `runs list` could not show it.
  void refuseDamage() {
    for (const char* table : {"runs", "run_id_high"})
      if (const std::string damage = m_db.damageIn(table); !damage.empty())
        throw StoreError::damaged(
            m_db.path(), std::string(table) + " table: " + damage,
            "nothing was run; use another --db, or recover this one (sqlite3 " + m_db.path() +
                " .recover)");
  }

  int64_t insertRun(const RunInfo& info) {
    Statement s = m_db.prepare(
        "INSERT INTO runs (id, name, created_at, t0_wall_ns, workload_name, spec_json, target_url, "
        "api, model, tool_version, host, cores, workers, coordinator_pid, status) "
        // Above every id given before, deleted ones included (schema v6).
        "VALUES ((SELECT MAX(h.id, COALESCE((SELECT MAX(id) FROM runs), 0)) + 1"
        "         FROM run_id_high h), ?,?,?,?,?,?,?,?,?,?,?,?,?,'running')");
    s.bindText(1, info.name).bindText(2, isoUtcNow()).bindInt(3, info.t0WallNs);
    s.bindText(4, info.workloadName).bindText(5, info.spec.dump()).bindText(6, info.targetUrl);
    s.bindText(7, info.api).bindText(8, info.model).bindText(9, info.toolVersion);
    s.bindText(10, info.host.empty() ? util::hostName() : info.host);
    s.bindInt(11, info.cores).bindInt(12, info.workers).bindInt(13, getpid());
    s.run();
    return sqlite3LastId();
  }

  void setRunId(int64_t id) { m_runId = id; }
  void setBusyTimeout(int ms) { m_db.setBusyTimeout(ms); }

  void write(const Queue& q) {
    Transaction tx(m_db);
    if (q.t0WallNs) {
      Statement s = m_db.prepare("UPDATE runs SET t0_wall_ns = ? WHERE id = ?");
      s.bindInt(1, *q.t0WallNs).bindInt(2, m_runId);
      s.run();
    }
    insertRequests(q.requests);
    for (const PendingWindow& w : q.windows) {
      insertWindow(w.row);
      for (const auto& [metric, blob] : w.histograms) insertHistogram(metric, w.row.idx, blob);
    }
    if (q.final) {
      for (const auto& [metric, blob] : q.final->histograms) insertHistogram(metric, -1, blob);
      updateFinal(*q.final);
    }
    tx.commit();
  }

 private:
  int64_t sqlite3LastId() {
    Statement s = m_db.prepare("SELECT last_insert_rowid()");
    s.step();
    return s.columnInt(0);
  }

  /// Rows go in blocks of kRequestBlock per statement: one statement per row spent more time
  /// in SQLite's per-statement work than in the rows (bench/store_bench).
  static constexpr size_t kRequestBlock = 32;
  static constexpr int kRequestColumns = 21;

  static std::string requestInsert(size_t rows) {
    std::string sql = "INSERT INTO requests VALUES ";
    std::string row = "(?";
    for (int c = 1; c < kRequestColumns; ++c) row += ",?";
    row += ")";
    for (size_t i = 0; i < rows; ++i) sql += (i == 0 ? "" : ",") + row;
    return sql;
  }

  void insertRequests(const std::vector<metrics::RequestRecord>& rows) {
    size_t i = 0;
    for (; i + kRequestBlock <= rows.size(); i += kRequestBlock) {
      for (size_t k = 0; k < kRequestBlock; ++k) bindRequest(m_requestBlock, static_cast<int>(k) * kRequestColumns, rows[i + k]);
      m_requestBlock.run();
    }
    for (; i < rows.size(); ++i) {
      bindRequest(m_request, 0, rows[i]);
      m_request.run();
    }
  }

  /// Binds one row's 21 columns at parameters base+1 .. base+21 (the table's order).
  void bindRequest(Statement& s, int base, const metrics::RequestRecord& r) const {
    s.bindInt(base + 1, m_runId).bindInt(base + 2, static_cast<int64_t>(r.sessionId)).bindInt(base + 3, r.turn);
    s.bindInt(base + 4, r.workerId).bindInt(base + 5, r.plannedNs).bindInt(base + 6, r.sendNs);
    s.bindInt(base + 7, r.firstByteNs).bindInt(base + 8, r.firstTokenNs).bindInt(base + 9, r.lastTokenNs);
    s.bindInt(base + 10, r.endNs).bindInt(base + 11, r.inputTokensServer).bindInt(base + 12, r.outputTokensServer);
    s.bindInt(base + 13, r.inputTokensClient).bindInt(base + 14, r.outputTokensClient).bindInt(base + 15, r.chunks);
    s.bindInt(base + 16, r.httpStatus).bindInt(base + 17, static_cast<int64_t>(r.error)).bindInt(base + 18, r.uploadEndNs);
    if (r.retryAfterMs < 0)
      s.bindNull(base + 19);
    else
      s.bindInt(base + 19, r.retryAfterMs);
    if (r.firstAnswerNs < 0)
      s.bindNull(base + 20);
    else
      s.bindInt(base + 20, r.firstAnswerNs);
    s.bindInt(base + 21, r.heldNs);  // 0, not NULL, when none: NULL is a row stored before v10
  }

  void insertWindow(const WindowRow& w) {
    Statement& s = m_window;
    s.bindInt(1, m_runId).bindInt(2, w.idx).bindInt(3, w.startNs).bindInt(4, w.lengthNs);
    s.bindInt(5, w.planned).bindInt(6, w.sent).bindInt(7, w.completed).bindInt(8, w.errors);
    s.bindText(9, w.errorsJson).bindInt(10, w.inputTokens).bindInt(11, w.outputTokens);
    s.bindInt(12, w.inFlight).bindDouble(13, w.ttftP50Ms).bindDouble(14, w.ttftP99Ms);
    s.bindDouble(15, w.itlP50Ms).bindDouble(16, w.itlP99Ms).bindDouble(17, w.e2eP50Ms);
    s.bindDouble(18, w.e2eP99Ms).bindDouble(19, w.sendLagP50Ms).bindDouble(20, w.sendLagP99Ms);
    s.bindDouble(21, w.sendLagMaxMs).bindDouble(22, w.workerCpuMax);
    s.bindDouble(23, w.workerCpuMean).bindDouble(24, w.loopDelayMaxMs);
    s.bindInt(25, w.inFlightCapHits).bindInt(26, w.workerDied ? 1 : 0).bindInt(27, w.connectionsOpen);
    if (w.cpuWaitMaxMs < 0)
      s.bindNull(28);
    else
      s.bindDouble(28, w.cpuWaitMaxMs);
    s.bindDouble(29, w.handedLateMaxMs);
    if (w.sentDuring)
      s.bindInt(30, *w.sentDuring);
    else
      s.bindNull(30);
    s.bindDouble(31, w.ttfaP50Ms).bindDouble(32, w.ttfaP99Ms);
    s.bindDouble(33, w.ttftFromPlannedP50Ms).bindDouble(34, w.ttftFromPlannedP99Ms);
    s.bindDouble(35, w.e2eFromPlannedP50Ms).bindDouble(36, w.e2eFromPlannedP99Ms);
    s.bindDouble(37, w.tpotP50Ms).bindDouble(38, w.tpotP99Ms);
    s.run();
  }

  void insertHistogram(const std::string& metric, int64_t windowIdx, const std::string& blob) {
    m_histogram.bindInt(1, m_runId).bindText(2, metric).bindInt(3, windowIdx).bindBlob(4, blob);
    m_histogram.run();
  }

  void updateFinal(const Final& f) {
    Statement s = m_db.prepare(
        "UPDATE runs SET status=?, ended_at=?, verdict=?, verdict_reasons_json=?, "
        "summary_json=?, planned=?, sent=?, completed=?, errors=?, requested_rps=?, "
        "achieved_rps=?, ttft_p99_ms=?, output_tokens_per_s=?, duration_s=? WHERE id=?");
    const Json& j = f.summary;
    s.bindText(1, f.complete ? "complete" : "incomplete").bindText(2, isoUtcNow());
    const Json* verdict = member(j, "verdict");
    const Json* reasons = member(j, "verdict_reasons");
    if (verdict && verdict->is_object()) {  // tolerate {"kind": ..., "reasons": [...]}
      if (!reasons) reasons = member(*verdict, "reasons");
      verdict = member(*verdict, "kind");
    }
    if (verdict && verdict->is_string()) s.bindText(3, verdict->get<std::string>());
    else s.bindNull(3);
    if (reasons) s.bindText(4, reasons->dump());
    else s.bindNull(4);
    s.bindText(5, j.dump());
    bindOptionalInt(s, 6, j, "planned");
    bindOptionalInt(s, 7, j, "sent");
    bindOptionalInt(s, 8, j, "completed");
    if (const Json* errors = member(j, "errors"); errors && errors->is_object()) {
      int64_t sum = 0;
      for (const auto& [cls, n] : errors->items())
        if (n.is_number()) sum += n.get<int64_t>();
      s.bindInt(9, sum);
    } else {
      bindOptionalInt(s, 9, j, "errors");
    }
    bindOptionalDouble(s, 10, member(j, "requested_rps"));
    bindOptionalDouble(s, 11, member(j, "achieved_rps"));
    const Json* ttft = member(j, "ttft_ms");
    const bool noTtft = ttft && metrics::Percentiles::emptyJson(*ttft);
    bindOptionalDouble(s, 12, ttft && !noTtft ? member(*ttft, "p99") : nullptr);  // none: NULL
    bindOptionalDouble(s, 13, member(j, "output_tokens_per_s"));
    bindOptionalDouble(s, 14, member(j, "duration_s"));
    s.bindInt(15, m_runId);
    s.run();
  }

  Database m_db;
  Statement m_request;
  Statement m_requestBlock;
  Statement m_window;
  Statement m_histogram;
  int64_t m_runId = 0;
};

RunWriter::RunWriter(const std::string& dbPath, const RunInfo& info)
    : m_path(dbPath), m_connection(std::make_unique<Connection>(dbPath)) {
  m_connection->refuseDamage();
  m_runId = m_connection->insertRun(info);
  m_connection->setRunId(m_runId);
  m_connection->setBusyTimeout(
      kBusyTryMs);  // the run's own writes: waited out below, in short tries
  m_thread = std::thread([this] {
    writerLoop();
    m_threadDone = true;
  });
}

RunWriter::~RunWriter() { stopAndJoin(); }

void RunWriter::throwIfFailed() {
  std::lock_guard lock(m_mutex);
  if (m_error) std::rethrow_exception(m_error);
  if (m_finished) throw StoreError(m_path, "recording run " + std::to_string(m_runId),
                                   "the run is already finished", StoreErrorKind::InvalidInput);
}

void RunWriter::addRequests(std::vector<metrics::RequestRecord> batch) {
  throwIfFailed();
  {
    std::lock_guard lock(m_mutex);
    if (m_queue.requests.empty()) m_queue.requests = std::move(batch);
    else m_queue.requests.insert(m_queue.requests.end(), batch.begin(), batch.end());
  }
  m_wake.notify_one();
}

void RunWriter::addWindow(WindowRow row, HistogramBlobs histogramBlobs) {
  throwIfFailed();
  {
    std::lock_guard lock(m_mutex);
    m_queue.windows.push_back({std::move(row), std::move(histogramBlobs)});
  }
  m_wake.notify_one();
}

void RunWriter::setT0Wall(int64_t t0WallNs) {
  throwIfFailed();
  {
    std::lock_guard lock(m_mutex);
    m_queue.t0WallNs = t0WallNs;
  }
  m_wake.notify_one();
}

void RunWriter::finish(const nlohmann::json& summary, HistogramBlobs runHistogramBlobs,
                       bool complete, const KeepWaiting& keepWaiting) {
  throwIfFailed();
  {
    std::lock_guard lock(m_mutex);
    m_queue.final = Final{summary, std::move(runHistogramBlobs), complete};
    m_finished = true;
    m_stop = true;
  }
  m_wake.notify_one();
  // A lock held by another process can hold the last write for minutes: the caller hears how
  // long, and may give the wait up (a person pressing Ctrl-C), instead of a silent hang.
  while (keepWaiting && !m_threadDone.load()) {
    const int64_t since = m_lockWaitSinceNs.load();
    const double waitedS = since == 0 ? 0.0 : static_cast<double>(steadyNs() - since) / 1e9;
    if (!keepWaiting(waitedS)) m_giveUpWaiting = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  stopAndJoin();
  std::lock_guard lock(m_mutex);
  if (m_error) std::rethrow_exception(m_error);
}

void RunWriter::stopAndJoin() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_wake.notify_one();
  if (m_thread.joinable()) m_thread.join();
}

bool RunWriter::writeWaitingOutLocks(const Queue& batch) {
  // Another process holding the database (a reader's long transaction, a backup) is waited
  // out: each try waits SQLite's busy timeout (kBusyTryMs), the batch is kept (its transaction
  // rolled back), and what the run queues meanwhile waits in memory. Only a lock held past
  // kBusyPatience, a wait given up (finish()'s caller), or any other error ends the recording.
  const int64_t startNs = steadyNs();
  bool waitedForALock = false;
  for (;;) {
    try {
      m_connection->write(batch);
      m_lockWaitSinceNs = 0;
      if (waitedForALock) m_lockWaitNs += steadyNs() - startNs;
      return true;
    } catch (const StoreError& e) {
      const auto waited = std::chrono::nanoseconds(steadyNs() - startNs);
      if (e.kind() == StoreErrorKind::Busy && !waitedForALock) m_lockWaitSinceNs = startNs;
      waitedForALock = true;
      if (e.kind() == StoreErrorKind::Busy && m_giveUpWaiting.load()) {
        char held[32];
        std::snprintf(held, sizeof held, "%.1f s", static_cast<double>(waited.count()) / 1e9);
        std::lock_guard lock(m_mutex);
        m_error = std::make_exception_ptr(StoreError(
            m_path, "recording run " + std::to_string(m_runId),
            "gave up waiting for another process's lock on the database after " + std::string(held),
            StoreErrorKind::Busy));
        m_lockWaitSinceNs = 0;
        return false;
      }
      if (e.kind() != StoreErrorKind::Busy || waited > kBusyPatience) {
        std::lock_guard lock(m_mutex);
        m_error = std::current_exception();
        m_lockWaitSinceNs = 0;
        return false;
      }
      // SQLite may report a lock at once instead of waiting its busy timeout: never spin.
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    } catch (...) {
      std::lock_guard lock(m_mutex);
      m_error = std::current_exception();
      m_lockWaitSinceNs = 0;
      return false;
    }
  }
}

void RunWriter::writerLoop() {
  util::markBackgroundThread("pl-writer");  // named for top and perf; never preempts a worker's spin
  auto lastCommit = std::chrono::steady_clock::now() - kCommitInterval;
  for (;;) {
    Queue batch;
    bool stopping = false;
    {
      std::unique_lock lock(m_mutex);
      m_wake.wait(lock, [&] { return m_stop || !m_queue.empty(); });
      // Coalesce: let more arrive until the commit interval has passed, unless stopping.
      m_wake.wait_until(lock, lastCommit + kCommitInterval,
                        [&] { return m_stop || m_queue.final.has_value(); });
      std::swap(batch, m_queue);
      stopping = m_stop;
    }
    if (!batch.empty()) {
      if (!writeWaitingOutLocks(batch)) return;
      lastCommit = std::chrono::steady_clock::now();
    }
    if (stopping) {
      std::lock_guard lock(m_mutex);
      if (m_queue.empty()) return;
    }
  }
}

}  // namespace plumbline::store
