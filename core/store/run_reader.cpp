#include "core/store/run_reader.h"

#include "core/util/host_name.h"
#include "core/util/process_start.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>

namespace plumbline::store {

namespace {

constexpr const char* kRunColumns =
    "SELECT id, name, created_at, t0_wall_ns, workload_name, spec_json, target_url, api, model, "
    "tool_version, host, cores, workers, coordinator_pid, status, ended_at, verdict, "
    "verdict_reasons_json, summary_json, planned, sent, completed, errors, requested_rps, "
    "achieved_rps, ttft_p99_ms, output_tokens_per_s, duration_s, notes FROM runs ";

std::optional<std::string> optText(const Statement& s, int c) {
  return s.isNull(c) ? std::nullopt : std::optional(s.columnText(c));
}
std::optional<int64_t> optInt(const Statement& s, int c) {
  return s.isNull(c) ? std::nullopt : std::optional(s.columnInt(c));
}
std::optional<double> optDouble(const Statement& s, int c) {
  return s.isNull(c) ? std::nullopt : std::optional(s.columnDouble(c));
}

RunRow runFromRow(const Statement& s) {
  RunRow r;
  r.id = s.columnInt(0);
  r.name = s.columnText(1);
  r.createdAt = s.columnText(2);
  r.t0WallNs = s.columnInt(3);
  r.workloadName = s.columnText(4);
  r.specJson = s.columnText(5);
  r.targetUrl = s.columnText(6);
  r.api = s.columnText(7);
  r.model = s.columnText(8);
  r.toolVersion = s.columnText(9);
  r.host = s.columnText(10);
  r.cores = s.columnInt(11);
  r.workers = s.columnInt(12);
  r.coordinatorPid = s.columnInt(13);
  r.storedStatus = s.columnText(14);
  r.endedAt = optText(s, 15);
  r.verdict = optText(s, 16);
  r.verdictReasonsJson = optText(s, 17);
  r.summaryJson = optText(s, 18);
  r.planned = optInt(s, 19);
  r.sent = optInt(s, 20);
  r.completed = optInt(s, 21);
  r.errors = optInt(s, 22);
  r.requestedRps = optDouble(s, 23);
  r.achievedRps = optDouble(s, 24);
  r.ttftP99Ms = optDouble(s, 25);
  r.outputTokensPerS = optDouble(s, 26);
  r.durationS = optDouble(s, 27);
  r.notes = optText(s, 28);
  r.status = RunReader::effectiveStatus(r.storedStatus, r.coordinatorPid, r.host, r.t0WallNs);
  return r;
}

}  // namespace

RunReader::RunReader(const std::string& dbPath)
    : m_db(Database::open(dbPath, Database::Mode::ReadOnly)) {}

std::string RunReader::effectiveStatus(const std::string& storedStatus, int64_t pid,
                                       const std::string& host, int64_t runStartWallNs) {
  if (storedStatus != "running") return storedStatus;
  if (!host.empty() && host != util::hostName()) return "incomplete";
  if (pid <= 0) return "incomplete";
  if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return "incomplete";
  // The coordinator existed before it wrote the run's t0. The slack covers the 10 ms clock
  // ticks of a start time and the wall clock being stepped forward since (a step puts the
  // process's start that much later here).
  constexpr int64_t kClockSlackNs = 60'000'000'000;
  if (runStartWallNs > 0) {
    const auto started = util::processStartWallNs(pid);
    if (started && *started > runStartWallNs + kClockSlackNs) return "incomplete";
  }
  return storedStatus;
}

std::vector<RunRow> RunReader::queryRuns(const std::string& where,
                                         std::optional<int64_t> id) const {
  Statement s = m_db.prepare(std::string(kRunColumns) + where);
  if (id) s.bindInt(1, *id);
  std::vector<RunRow> rows;
  while (s.step()) rows.push_back(runFromRow(s));
  return rows;
}

std::vector<RunRow> RunReader::listRuns() const { return queryRuns("ORDER BY id", std::nullopt); }

std::optional<RunRow> RunReader::getRun(int64_t id) const {
  auto rows = queryRuns("WHERE id = ?", id);
  if (rows.empty()) return std::nullopt;
  return std::move(rows.front());
}

void RunReader::forEachRequest(
    int64_t id, const std::function<void(const metrics::RequestRecord&)>& cb) const {
  Statement s = m_db.prepare(
      "SELECT session_id, turn, worker_id, planned_ns, send_ns, first_byte_ns, first_token_ns, "
      "last_token_ns, end_ns, input_tokens_server, output_tokens_server, input_tokens_client, "
      "output_tokens_client, chunks, http_status, error_class, upload_end_ns, retry_after_ms, "
      "first_answer_ns, held_ns FROM "
      "requests "
      "WHERE run_id = ? "
      "ORDER BY rowid");
  s.bindInt(1, id);
  metrics::RequestRecord r;
  while (s.step()) {
    r.sessionId = static_cast<uint64_t>(s.columnInt(0));
    r.turn = static_cast<uint32_t>(s.columnInt(1));
    r.workerId = static_cast<uint32_t>(s.columnInt(2));
    r.plannedNs = s.columnInt(3);
    r.sendNs = s.columnInt(4);
    r.firstByteNs = s.columnInt(5);
    r.firstTokenNs = s.columnInt(6);
    r.lastTokenNs = s.columnInt(7);
    r.endNs = s.columnInt(8);
    r.inputTokensServer = static_cast<int32_t>(s.columnInt(9));
    r.outputTokensServer = static_cast<int32_t>(s.columnInt(10));
    r.inputTokensClient = static_cast<int32_t>(s.columnInt(11));
    r.outputTokensClient = static_cast<int32_t>(s.columnInt(12));
    r.chunks = static_cast<uint32_t>(s.columnInt(13));
    r.httpStatus = static_cast<int32_t>(s.columnInt(14));
    r.error = static_cast<metrics::ErrorClass>(s.columnInt(15));
    r.uploadEndNs = s.isNull(16) ? -1 : s.columnInt(16);
    r.retryAfterMs = s.isNull(17) ? -1 : s.columnInt(17);
    r.firstAnswerNs = s.isNull(18) ? -1 : s.columnInt(18);
    r.heldNs = s.isNull(19) ? 0 : s.columnInt(19);  // not recorded before v10: read as none
    cb(r);
  }
}

int64_t RunReader::requestCount(int64_t id) const {
  Statement s = m_db.prepare("SELECT count(*) FROM requests WHERE run_id = ?");
  s.bindInt(1, id);
  s.step();
  return s.columnInt(0);
}

int64_t RunReader::heldRequestCount(int64_t id, int64_t minNs) const {
  Statement s = m_db.prepare(
      "SELECT count(*) FROM requests WHERE run_id = ? AND error_class = 0 AND held_ns >= ?");
  s.bindInt(1, id).bindInt(2, minNs);
  s.step();
  return s.columnInt(0);
}

std::vector<WindowRow> RunReader::windows(int64_t id) const {
  Statement s = m_db.prepare(
      "SELECT idx, start_ns, length_ns, planned, sent, completed, errors, errors_json, "
      "input_tokens, output_tokens, in_flight, ttft_p50_ms, ttft_p99_ms, itl_p50_ms, itl_p99_ms, "
      "e2e_p50_ms, e2e_p99_ms, send_lag_p50_ms, send_lag_p99_ms, send_lag_max_ms, "
      "worker_cpu_max, worker_cpu_mean, loop_delay_max_ms, in_flight_cap_hits, worker_died, "
      "connections_open, cpu_wait_max_ms, handed_late_max_ms, sent_during, ttfa_p50_ms, "
      "ttfa_p99_ms, ttft_from_planned_p50_ms, ttft_from_planned_p99_ms, e2e_from_planned_p50_ms, "
      "e2e_from_planned_p99_ms, tpot_p50_ms, tpot_p99_ms FROM windows WHERE "
      "run_id = ? ORDER BY idx");
  s.bindInt(1, id);
  std::vector<WindowRow> rows;
  while (s.step()) {
    WindowRow w;
    w.idx = s.columnInt(0);
    w.startNs = s.columnInt(1);
    w.lengthNs = s.columnInt(2);
    w.planned = s.columnInt(3);
    w.sent = s.columnInt(4);
    w.completed = s.columnInt(5);
    w.errors = s.columnInt(6);
    w.errorsJson = s.columnText(7);
    w.inputTokens = s.columnInt(8);
    w.outputTokens = s.columnInt(9);
    w.inFlight = s.columnInt(10);
    w.ttftP50Ms = optDouble(s, 11);
    w.ttftP99Ms = optDouble(s, 12);
    w.itlP50Ms = optDouble(s, 13);
    w.itlP99Ms = optDouble(s, 14);
    w.e2eP50Ms = optDouble(s, 15);
    w.e2eP99Ms = optDouble(s, 16);
    w.sendLagP50Ms = optDouble(s, 17);
    w.sendLagP99Ms = optDouble(s, 18);
    w.sendLagMaxMs = optDouble(s, 19);
    w.workerCpuMax = s.columnDouble(20);
    w.workerCpuMean = s.columnDouble(21);
    w.loopDelayMaxMs = s.columnDouble(22);
    w.inFlightCapHits = s.columnInt(23);
    w.workerDied = s.columnInt(24) != 0;
    w.connectionsOpen = s.columnInt(25);
    w.cpuWaitMaxMs = s.isNull(26) ? -1 : s.columnDouble(26);
    w.handedLateMaxMs = optDouble(s, 27);
    if (!s.isNull(28)) w.sentDuring = s.columnInt(28);
    w.ttfaP50Ms = optDouble(s, 29);
    w.ttfaP99Ms = optDouble(s, 30);
    w.ttftFromPlannedP50Ms = optDouble(s, 31);
    w.ttftFromPlannedP99Ms = optDouble(s, 32);
    w.e2eFromPlannedP50Ms = optDouble(s, 33);
    w.e2eFromPlannedP99Ms = optDouble(s, 34);
    w.tpotP50Ms = optDouble(s, 35);
    w.tpotP99Ms = optDouble(s, 36);
    rows.push_back(std::move(w));
  }
  return rows;
}

std::optional<std::string> RunReader::histogram(int64_t id, const std::string& metric,
                                                int64_t windowIdx) const {
  Statement s = m_db.prepare(
      "SELECT data FROM histograms WHERE run_id = ? AND metric = ? AND window_idx = ?");
  s.bindInt(1, id).bindText(2, metric).bindInt(3, windowIdx);
  if (!s.step()) return std::nullopt;
  return s.columnBlob(0);
}

std::vector<std::string> RunReader::tags(int64_t id) const {
  Statement s = m_db.prepare("SELECT tag FROM tags WHERE run_id = ? ORDER BY tag");
  s.bindInt(1, id);
  std::vector<std::string> out;
  while (s.step()) out.push_back(s.columnText(0));
  return out;
}

std::map<int64_t, std::vector<std::string>> RunReader::tagsByRun() const {
  Statement s = m_db.prepare("SELECT run_id, tag FROM tags ORDER BY run_id, tag");
  std::map<int64_t, std::vector<std::string>> out;
  while (s.step()) out[s.columnInt(0)].push_back(s.columnText(1));
  return out;
}

std::vector<std::pair<int64_t, std::string>> RunReader::windowHistograms(
    int64_t id, const std::string& metric) const {
  Statement s = m_db.prepare(
      "SELECT window_idx, data FROM histograms WHERE run_id = ? AND metric = ? AND window_idx >= 0 "
      "ORDER BY window_idx");
  s.bindInt(1, id).bindText(2, metric);
  std::vector<std::pair<int64_t, std::string>> out;
  while (s.step()) out.emplace_back(s.columnInt(0), s.columnBlob(1));
  return out;
}

}  // namespace plumbline::store
