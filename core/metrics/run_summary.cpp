#include "core/metrics/run_summary.h"

#include <cstdio>
#include <stdexcept>

namespace plumbline::metrics {

namespace {

constexpr double kNsPerMs = 1e6;

double toMs(int64_t ns) { return static_cast<double>(ns) / kNsPerMs; }

const nlohmann::json& field(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) throw std::invalid_argument("run summary: expected an object");
  auto it = j.find(key);
  if (it == j.end()) throw std::invalid_argument(std::string("run summary: missing key ") + key);
  return *it;
}

template <class T>
T get(const nlohmann::json& j, const char* key) {
  const auto& v = field(j, key);
  try {
    return v.get<T>();
  } catch (const nlohmann::json::exception&) {
    throw std::invalid_argument(std::string("run summary: wrong type for ") + key);
  }
}

Percentiles getPercentiles(const nlohmann::json& j, const char* key) {
  try {
    return Percentiles::fromJson(field(j, key));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string(e.what()) + " in " + key);
  }
}

}  // namespace

Percentiles Percentiles::fromHistogram(const LatencyHistogram& h) {
  return {toMs(h.percentile(0.50)), toMs(h.percentile(0.90)), toMs(h.percentile(0.99)),
          toMs(h.max()), static_cast<int64_t>(h.count())};
}

nlohmann::json Percentiles::toJson() const {
  // Of no values (no request got that far) there is no figure: null, never a 0 that reads as
  // 0 ms (QA: a non-streaming run's "ttft_ms": {"count": 0, "p50": 0.0, ...}).
  if (count == 0)
    return {{"p50", nullptr}, {"p90", nullptr}, {"p99", nullptr}, {"max", nullptr}, {"count", 0}};
  nlohmann::json j = {{"p50", p50}, {"p90", p90}, {"p99", p99}, {"max", max}};
  if (count >= 0) j["count"] = count;
  return j;
}

bool Percentiles::emptyJson(const nlohmann::json& j) {
  if (!j.is_object()) return false;
  const auto n = j.find("count");
  return n != j.end() && n->is_number() && n->get<double>() == 0;
}

Percentiles Percentiles::fromJson(const nlohmann::json& j) {
  if (emptyJson(j)) {  // null figures (or the 0s stored before they were null)
    for (const char* key : {"p50", "p90", "p99", "max"})
      if (!j.contains(key) || !(j.at(key).is_null() || j.at(key).is_number()))
        throw std::invalid_argument(std::string("run summary: ") + key +
                                    " must be null or a number");
    return {0, 0, 0, 0, 0};
  }
  return {get<double>(j, "p50"), get<double>(j, "p90"), get<double>(j, "p99"),
          get<double>(j, "max"), j.contains("count") ? get<int64_t>(j, "count") : -1};
}

std::string retryAfterWaitText(int64_t minMs, int64_t maxMs) {
  auto seconds = [](int64_t ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", static_cast<double>(ms) / 1000.0);
    return std::string(buf);
  };
  return (minMs == maxMs ? seconds(maxMs) : seconds(minMs) + "\u2013" + seconds(maxMs)) + " s";
}

std::string thoughtFirstText(uint64_t thoughtFirst, uint64_t completed) {
  return "reasoning: " + std::to_string(thoughtFirst) + " of " + std::to_string(completed) +
         (completed == 1 ? " stream" : " streams") +
         " thought before answering; ttft counts the first thinking token, ttfa the first answer "
         "token";
}

std::string tokensPerEventText(std::optional<double> tokensPerEvent, const std::string& countSource) {
  if (!tokensPerEvent || *tokensPerEvent < kSeveralTokensPerEvent) return {};
  const char* by = countSource == "server"   ? "the server's usage"
                   : countSource == "client" ? "the client's count"
                                             : "the server's usage where it gave one, else the client's count";
  char text[320];
  std::snprintf(text, sizeof text,
                "tokens per event: %.2f by %s, so each inter-token gap (one per streamed event) spans "
                "several tokens; tpot is the time per token",
                *tokensPerEvent, by);
  return text;
}

std::string heldText(uint64_t held, uint64_t completed, double maxMs, double toleranceMs) {
  char text[512];
  std::snprintf(
      text, sizeof text,
      "timing: %llu of %llu completed requests (%.1f%%) were in flight while a worker's event "
      "loop was held %g ms or more (up to %.1f ms at once: busy, or without a CPU); bytes that "
      "came meanwhile were read at the hold's end, so their TTFT, inter-token and end-to-end "
      "times may include up to that much of the harness's own delay",
      static_cast<unsigned long long>(held), static_cast<unsigned long long>(completed),
      completed > 0 ? 100.0 * static_cast<double>(held) / static_cast<double>(completed) : 0.0,
      toleranceMs, maxMs);
  return text;
}

bool heldIsANote(uint64_t held, uint64_t completed) {
  return held > 0 && static_cast<double>(held) <= kMaxHeldShare * static_cast<double>(completed);
}

std::string failedText(const nlohmann::json& summary) {
  if (!summary.is_object()) return "";
  const auto errors = summary.find("errors");
  const auto sent = summary.find("sent");
  if (errors == summary.end() || !errors->is_object() || sent == summary.end() ||
      !sent->is_number())
    return "";
  uint64_t failed = 0;
  std::string byClass;
  for (const auto& [cls, n] : errors->items()) {
    if (!n.is_number_unsigned() && !n.is_number_integer()) continue;
    const auto count = n.get<int64_t>();
    if (count <= 0) continue;
    failed += static_cast<uint64_t>(count);
    byClass += (byClass.empty() ? "" : ", ") + cls + " " + std::to_string(count);
  }
  if (failed == 0) return "";
  return std::to_string(failed) + " of " + std::to_string(sent->get<int64_t>()) + " sent failed (" +
         byClass + ")";
}

std::string tokensSpanText(double tokensSpanS, double durationS) {
  char span[32];
  std::snprintf(span, sizeof span, "%.2f s", tokensSpanS);
  return std::string(span) + (tokensSpanS > durationS
                                  ? ", to the end of the last reply"
                                  : ", the schedule's length (the last reply ended within it)");
}

std::string httpClientText(const std::string& name) {
  if (name == "native_arrival_stamps")
    return "native HTTP/1.1 client, bytes timed by their kernel arrival stamps";
  if (name == "native_read_times")
    return "native HTTP/1.1 client, bytes timed when read (PLUMBLINE_ARRIVAL_STAMPS=0, or not "
           "streaming)";
  if (name == "curl") return "libcurl, bytes timed when read";
  if (name.empty()) return "not recorded (a run stored before it was)";
  return name;
}

nlohmann::json RunSummary::toJson() const {
  nlohmann::json j = nlohmann::json::object();
  j["run_id"] = runId;
  j["verdict"] = verdict.nothingDue ? nlohmann::json() : nlohmann::json(verdictName(verdict.kind));
  j["verdict_reasons"] = verdict.reasons;
  j["planned"] = planned;
  j["sent"] = sent;
  j["completed"] = completed;
  j["not_sent"] = notSent;
  j["errors"] = nlohmann::json::object();
  for (const auto& [name, n] : errors) j["errors"][name] = n;
  j["failure_samples"] = failureSamplesJson(failureSamples);
  j["retry_after"] = {
      {"responses", retryAfterResponses}, {"min_ms", retryAfterMinMs}, {"max_ms", retryAfterMaxMs}};
  j["duration_s"] = durationS;
  j["requested_rps"] = requestedRps;
  j["asked_load"] = askedLoad;
  j["achieved_rps"] = achievedRps;
  j["send_lag_ms"] = sendLagMs.toJson();
  j["timing_held"] = {
      {"requests", heldRequests}, {"max_ms", heldMaxMs}, {"tolerance_ms", holdToleranceMs}};
  j["ttft_ms"] = ttftMs.toJson();
  j["ttfa_ms"] = answerMs.toJson();
  j["thought_first"] = thoughtFirst;
  j["itl_ms"] = itlMs.toJson();
  j["tpot_ms"] = tpotMs.toJson();
  j["tokens_per_event"] = tokensPerEvent ? nlohmann::json(*tokensPerEvent) : nlohmann::json();
  j["e2e_ms"] = e2eMs.toJson();
  j["ttft_from_planned_ms"] = ttftFromPlannedMs.toJson();
  j["e2e_from_planned_ms"] = e2eFromPlannedMs.toJson();
  j["upload_ms"] = uploadMs.toJson();
  j["tokens_span_s"] = tokensSpanS;
  j["input_tokens_per_s"] = inputTokensPerS;
  j["output_tokens_per_s"] =
      outputTokensPerS ? nlohmann::json(*outputTokensPerS) : nlohmann::json();
  j["token_count_source"] = tokenCountSource;
  j["token_counts"] = {
      {"requests_with_server_usage", requestsWithServerCounts},
      {"requests_with_client_counts_only", requestsWithClientCountsOnly},
      {"client_input", clientInputCount},
      {"client_output", clientOutputCount},
      {"used_for_rates", tokenCountSource},
      {"client_input_basis", clientInputBasis},
      {"client_output_basis", clientOutputBasis},
      {"server", {{"input", serverInputTokens}, {"output", serverOutputTokens}}},
      {"client",
       {{"input", clientInputTokens},
        {"output", clientOutputTokens ? nlohmann::json(*clientOutputTokens) : nlohmann::json()}}}};
  if (lengthCheckedRequests > 0)
    j["token_counts"]["output_length"] = {{"requests", lengthCheckedRequests},
                                          {"planned", lengthPlannedTokens},
                                          {"server", lengthServerTokens}};
  j["prompt_tokens_basis"] = promptTokensBasis;
  j["http_client"] = httpClient.empty() ? nlohmann::json() : nlohmann::json(httpClient);
  j["complete"] = complete;
  j["notes"] = notes;
  return j;
}

RunSummary RunSummary::fromJson(const nlohmann::json& j) {
  RunSummary s;
  s.runId = get<int64_t>(j, "run_id");
  if (j.contains("verdict") && j.at("verdict").is_null()) {
    s.verdict.nothingDue = true;
  } else {
    auto kind = verdictFromName(get<std::string>(j, "verdict"));
    if (!kind) throw std::invalid_argument("run summary: unknown verdict");
    s.verdict.kind = *kind;
  }
  s.verdict.reasons = get<std::vector<std::string>>(j, "verdict_reasons");
  s.planned = get<uint64_t>(j, "planned");
  s.sent = get<uint64_t>(j, "sent");
  s.completed = get<uint64_t>(j, "completed");
  s.notSent = get<uint64_t>(j, "not_sent");
  s.errors = get<std::map<std::string, uint64_t>>(j, "errors");
  // Absent from summaries stored before samples were kept.
  if (j.contains("failure_samples"))
    s.failureSamples = failureSamplesFromJson(j.at("failure_samples"));
  if (j.contains("retry_after")) {  // absent from summaries stored before it was recorded
    const nlohmann::json& r = j.at("retry_after");
    s.retryAfterResponses = get<uint64_t>(r, "responses");
    s.retryAfterMinMs = get<int64_t>(r, "min_ms");
    s.retryAfterMaxMs = get<int64_t>(r, "max_ms");
  }
  s.durationS = get<double>(j, "duration_s");
  s.requestedRps = get<double>(j, "requested_rps");
  s.askedLoad = j.value("asked_load", std::string());
  s.achievedRps = get<double>(j, "achieved_rps");
  s.sendLagMs = getPercentiles(j, "send_lag_ms");
  if (const auto held = j.find("timing_held"); held != j.end()) {  // absent before holds were timed
    s.heldRequests = get<uint64_t>(*held, "requests");
    s.heldMaxMs = get<double>(*held, "max_ms");
    s.holdToleranceMs = get<double>(*held, "tolerance_ms");
  }
  s.ttftMs = getPercentiles(j, "ttft_ms");
  // Absent before the answer's first token was timed apart: none known, nobody seen thinking.
  s.answerMs = j.contains("ttfa_ms") ? getPercentiles(j, "ttfa_ms") : Percentiles{0, 0, 0, 0, 0};
  if (j.contains("thought_first")) s.thoughtFirst = get<uint64_t>(j, "thought_first");
  s.itlMs = getPercentiles(j, "itl_ms");
  // Absent before streams were timed per token: none known.
  s.tpotMs = j.contains("tpot_ms") ? getPercentiles(j, "tpot_ms") : Percentiles{0, 0, 0, 0, 0};
  if (j.contains("tokens_per_event") && !field(j, "tokens_per_event").is_null())
    s.tokensPerEvent = get<double>(j, "tokens_per_event");
  s.e2eMs = getPercentiles(j, "e2e_ms");
  s.ttftFromPlannedMs = getPercentiles(j, "ttft_from_planned_ms");
  s.e2eFromPlannedMs = getPercentiles(j, "e2e_from_planned_ms");
  if (j.contains("upload_ms")) s.uploadMs = getPercentiles(j, "upload_ms");  // absent before upload timing
  // Absent before it was recorded: those rates were per second of the schedule.
  s.tokensSpanS = j.contains("tokens_span_s") ? get<double>(j, "tokens_span_s") : s.durationS;
  s.inputTokensPerS = get<double>(j, "input_tokens_per_s");
  if (!field(j, "output_tokens_per_s").is_null())  // null: no request had an output count
    s.outputTokensPerS = get<double>(j, "output_tokens_per_s");
  s.tokenCountSource = get<std::string>(j, "token_count_source");
  // Summaries stored before these keys existed read as "unknown".
  s.promptTokensBasis = j.value("prompt_tokens_basis", std::string("unknown"));
  if (const auto counts = j.find("token_counts"); counts != j.end() && counts->is_object()) {
    s.requestsWithServerCounts = counts->value("requests_with_server_usage", uint64_t{0});
    s.requestsWithClientCountsOnly = counts->value("requests_with_client_counts_only", uint64_t{0});
    s.clientInputCount = counts->value("client_input", std::string());
    s.clientOutputCount = counts->value("client_output", std::string());
    s.clientInputBasis = counts->value("client_input_basis", std::string());
    s.clientOutputBasis = counts->value("client_output_basis", std::string());
    if (const auto server = counts->find("server"); server != counts->end() && server->is_object()) {
      s.serverInputTokens = server->value("input", uint64_t{0});
      s.serverOutputTokens = server->value("output", uint64_t{0});
    }
    if (const auto client = counts->find("client"); client != counts->end() && client->is_object()) {
      s.clientInputTokens = client->value("input", uint64_t{0});
      if (const auto out = client->find("output"); out != client->end() && !out->is_null())
        s.clientOutputTokens = out->get<uint64_t>();  // null: nothing counted
    }
    if (const auto len = counts->find("output_length"); len != counts->end() && len->is_object()) {
      s.lengthCheckedRequests = len->value("requests", uint64_t{0});
      s.lengthPlannedTokens = len->value("planned", uint64_t{0});
      s.lengthServerTokens = len->value("server", uint64_t{0});
    }
  }
  if (const auto client = j.find("http_client"); client != j.end() && !client->is_null())
    s.httpClient = get<std::string>(j, "http_client");  // absent or null: not recorded
  s.complete = get<bool>(j, "complete");
  if (j.contains("notes"))
    s.notes = get<std::vector<std::string>>(j, "notes");  // absent before they were kept
  return s;
}

}  // namespace plumbline::metrics
