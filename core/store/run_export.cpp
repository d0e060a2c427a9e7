#include "core/store/run_export.h"

#include <ostream>

namespace plumbline::store {

namespace {

using Json = nlohmann::json;

template <typename T>
Json optional(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}

Json parsed(const std::optional<std::string>& text) {
  if (!text || text->empty()) return nullptr;
  Json j = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
  return j.is_discarded() ? Json(*text) : j;  // keep unparsable text rather than lose it
}

// clang-format off
constexpr const char* kRequestColumns[] = {
    "run_id", "session_id", "turn", "worker_id", "planned_ns", "send_ns", "first_byte_ns",
    "first_token_ns", "last_token_ns", "end_ns", "input_tokens_server", "output_tokens_server",
    "input_tokens_client", "output_tokens_client", "chunks", "http_status", "error_class",
    "upload_end_ns", "retry_after_ms", "first_answer_ns", "held_ns"};
// clang-format on

Json requestToJson(int64_t runId, const metrics::RequestRecord& r) {
  return Json{{"run_id", runId},
              {"session_id", r.sessionId},
              {"turn", r.turn},
              {"worker_id", r.workerId},
              {"planned_ns", r.plannedNs},
              {"send_ns", r.sendNs},
              {"first_byte_ns", r.firstByteNs},
              {"first_token_ns", r.firstTokenNs},
              {"last_token_ns", r.lastTokenNs},
              {"end_ns", r.endNs},
              {"input_tokens_server", r.inputTokensServer},
              {"output_tokens_server", r.outputTokensServer},
              {"input_tokens_client", r.inputTokensClient},
              {"output_tokens_client", r.outputTokensClient},
              {"chunks", r.chunks},
              {"http_status", r.httpStatus},
              {"error_class", std::string(metrics::errorClassName(r.error))},
              {"upload_end_ns", r.uploadEndNs},
              {"retry_after_ms", r.retryAfterMs},
              {"first_answer_ns", r.firstAnswerNs},
              {"held_ns", r.heldNs}};
}

}  // namespace

Json runToJson(const RunRow& r) {
  return Json{{"id", r.id},
              {"name", r.name},
              {"created_at", r.createdAt},
              {"t0_wall_ns", r.t0WallNs},
              {"workload_name", r.workloadName},
              {"spec", parsed(r.specJson)},
              {"target_url", r.targetUrl},
              {"api", r.api},
              {"model", r.model},
              {"tool_version", r.toolVersion},
              {"host", r.host},
              {"cores", r.cores},
              {"workers", r.workers},
              {"coordinator_pid", r.coordinatorPid},
              {"status", r.status},
              {"stored_status", r.storedStatus},
              {"ended_at", optional(r.endedAt)},
              {"verdict", optional(r.verdict)},
              {"verdict_reasons", parsed(r.verdictReasonsJson)},
              {"summary", parsed(r.summaryJson)},
              {"planned", optional(r.planned)},
              {"sent", optional(r.sent)},
              {"completed", optional(r.completed)},
              {"errors", optional(r.errors)},
              {"requested_rps", optional(r.requestedRps)},
              {"achieved_rps", optional(r.achievedRps)},
              {"ttft_p99_ms", optional(r.ttftP99Ms)},
              {"output_tokens_per_s", optional(r.outputTokensPerS)},
              {"duration_s", optional(r.durationS)},
              {"notes", optional(r.notes)}};
}

Json windowToJson(const WindowRow& w) {
  return Json{{"idx", w.idx},
              {"start_ns", w.startNs},
              {"length_ns", w.lengthNs},
              {"planned", w.planned},
              {"sent", w.sent},
              {"completed", w.completed},
              {"errors", w.errors},
              {"errors_by_class", parsed(w.errorsJson)},
              {"input_tokens", w.inputTokens},
              {"output_tokens", w.outputTokens},
              {"in_flight", w.inFlight},
              {"connections_open", w.connectionsOpen},
              {"ttft_p50_ms", optional(w.ttftP50Ms)},
              {"ttft_p99_ms", optional(w.ttftP99Ms)},
              {"itl_p50_ms", optional(w.itlP50Ms)},
              {"itl_p99_ms", optional(w.itlP99Ms)},
              {"e2e_p50_ms", optional(w.e2eP50Ms)},
              {"e2e_p99_ms", optional(w.e2eP99Ms)},
              {"send_lag_p50_ms", optional(w.sendLagP50Ms)},
              {"send_lag_p99_ms", optional(w.sendLagP99Ms)},
              {"send_lag_max_ms", optional(w.sendLagMaxMs)},
              {"ttfa_p50_ms", optional(w.ttfaP50Ms)},
              {"ttfa_p99_ms", optional(w.ttfaP99Ms)},
              {"ttft_from_planned_p50_ms", optional(w.ttftFromPlannedP50Ms)},
              {"ttft_from_planned_p99_ms", optional(w.ttftFromPlannedP99Ms)},
              {"e2e_from_planned_p50_ms", optional(w.e2eFromPlannedP50Ms)},
              {"e2e_from_planned_p99_ms", optional(w.e2eFromPlannedP99Ms)},
              {"tpot_p50_ms", optional(w.tpotP50Ms)},
              {"tpot_p99_ms", optional(w.tpotP99Ms)},
              {"worker_cpu_max", w.workerCpuMax},
              {"worker_cpu_mean", w.workerCpuMean},
              {"loop_delay_max_ms", w.loopDelayMaxMs},
              {"cpu_wait_max_ms", w.cpuWaitMaxMs},
              {"handed_late_max_ms", optional(w.handedLateMaxMs)},
              {"sent_during", optional(w.sentDuring)},
              {"in_flight_cap_hits", w.inFlightCapHits},
              {"worker_died", w.workerDied}};
}

void exportJson(const RunReader& reader, const RunRow& run, std::ostream& out) {
  Json windows = Json::array();
  for (const WindowRow& w : reader.windows(run.id)) windows.push_back(windowToJson(w));
  Json runJson = runToJson(run);
  runJson["tags"] = reader.tags(run.id);  // a table of its own, not a column of the run's row
  // Ill-formed UTF-8 an older database holds (a name, notes) becomes U+FFFD: the JSON writer
  // would otherwise throw with the export half written.
  constexpr auto kReplace = Json::error_handler_t::replace;
  out << "{\"run\":" << runJson.dump(-1, ' ', false, kReplace)
      << ",\"windows\":" << windows.dump(-1, ' ', false, kReplace) << ",\"requests\":[";
  bool first = true;
  reader.forEachRequest(run.id, [&](const metrics::RequestRecord& r) {
    out << (first ? "\n" : ",\n") << requestToJson(run.id, r).dump();
    first = false;
  });
  out << "]}\n";
}

void exportCsv(const RunReader& reader, const RunRow& run, std::ostream& out) {
  bool first = true;
  for (const char* column : kRequestColumns) {
    out << (first ? "" : ",") << column;
    first = false;
  }
  out << '\n';
  reader.forEachRequest(run.id, [&](const metrics::RequestRecord& r) {
    out << run.id << ',' << r.sessionId << ',' << r.turn << ',' << r.workerId << ',' << r.plannedNs
        << ',' << r.sendNs << ',' << r.firstByteNs << ',' << r.firstTokenNs << ',' << r.lastTokenNs
        << ',' << r.endNs << ',' << r.inputTokensServer << ',' << r.outputTokensServer << ','
        << r.inputTokensClient << ',' << r.outputTokensClient << ',' << r.chunks << ','
        << r.httpStatus << ',' << metrics::errorClassName(r.error) << ',' << r.uploadEndNs << ','
        << r.retryAfterMs << ',' << r.firstAnswerNs << ',' << r.heldNs << '\n';
  });
}

}  // namespace plumbline::store
