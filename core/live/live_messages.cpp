#include "core/live/live_messages.h"

#include "core/live/live_json_fields.h"
#include "core/live/live_protocol.h"
#include "core/live/live_stream.h"
#include "core/store/run_export.h"

namespace plumbline::live {

namespace {

using Json = nlohmann::json;
using protocol::LiveFrameType;

Json helloToJson(const LiveHello& h) {
  return Json{{"run_id", h.runId},           {"run_name", h.runName},
              {"workload_name", h.workloadName}, {"spec", h.spec},
              {"target_url", h.targetUrl},   {"model", h.model},
              {"api", h.api},                {"workers", h.workers},
              {"coordinator_pid", h.coordinatorPid}, {"requested_rps", h.requestedRps},
              {"duration_s", h.durationS},   {"planned_total", h.plannedTotal},
              {"window_ns", h.windowNs},     {"t0_wall_ns", h.t0WallNs},
              {"tool_version", h.toolVersion}, {"db_path", h.dbPath}};
}

LiveHello helloFromJson(const LiveJsonFields& f) {
  LiveHello h;
  h.runId = f.i64("run_id");
  h.runName = f.str("run_name");
  h.workloadName = f.str("workload_name");
  h.spec = f.any("spec");
  h.targetUrl = f.str("target_url");
  h.model = f.str("model");
  h.api = f.str("api");
  h.workers = f.i64("workers");
  h.coordinatorPid = f.i64("coordinator_pid");
  h.requestedRps = f.f64("requested_rps");
  h.durationS = f.f64("duration_s");
  h.plannedTotal = f.i64("planned_total");
  h.windowNs = f.i64("window_ns");
  h.t0WallNs = f.i64("t0_wall_ns");
  h.toolVersion = f.str("tool_version");
  h.dbPath = f.str("db_path");
  return h;
}

Json percentilesToJson(const LivePercentiles& p) {
  return Json{{"p50", p.p50}, {"p99", p.p99}, {"count", p.count}};
}

LivePercentiles percentilesFromJson(const LiveJsonFields& parent, const char* name) {
  LiveJsonFields f = parent.nested(name);
  return LivePercentiles{f.f64("p50"), f.f64("p99"), f.u64("count")};
}

// The tick's latency fields, in one place for both directions. One added after the protocol's
// first version may be absent from a recorded or older stream: it then reads as no samples.
struct TickLatency {
  const char* name;
  LivePercentiles LiveTick::*member;
  bool addedLater = false;
};
constexpr TickLatency kTickLatencies[] = {{"ttft", &LiveTick::ttft},
                                          {"itl", &LiveTick::itl},
                                          {"e2e", &LiveTick::e2e},
                                          {"ttft_from_planned", &LiveTick::ttftFromPlanned},
                                          {"e2e_from_planned", &LiveTick::e2eFromPlanned},
                                          {"send_lag", &LiveTick::sendLag},
                                          {"ttfa", &LiveTick::ttfa, true},
                                          {"tpot", &LiveTick::tpot, true}};

Json tickToJson(const LiveTick& t) {
  Json j{{"at_ns", t.atNs},
         {"planned", t.planned},
         {"sent", t.sent},
         {"completed", t.completed},
         {"not_sent", t.notSent},
         {"errors", t.errors},
         {"input_tokens", t.inputTokens},
         {"output_tokens", t.outputTokens},
         {"rates_through_ns", t.ratesThroughNs},
         {"requested_rps", t.requestedRps},
         {"achieved_rps", t.achievedRps},
         {"output_tokens_per_s", t.outputTokensPerS},
         {"in_flight", t.inFlight},
         {"connections_open", t.connectionsOpen},
         {"worker_cpu_max", t.workerCpuMax},
         {"worker_cpu_mean", t.workerCpuMean},
         {"loop_delay_max_ms", t.loopDelayMaxMs},
         {"cpu_wait_max_ms", t.cpuWaitMaxMs},
         {"handed_late_max_ms", t.handedLateMaxMs},
         {"ticks_dropped", t.ticksDropped}};
  for (const TickLatency& l : kTickLatencies) j[l.name] = percentilesToJson(t.*l.member);
  return j;
}

LiveTick tickFromJson(const LiveJsonFields& f) {
  LiveTick t;
  t.atNs = f.i64("at_ns");
  t.planned = f.u64("planned");
  t.sent = f.u64("sent");
  t.completed = f.u64("completed");
  t.notSent = f.u64("not_sent");
  t.errors = f.countsByName("errors");
  t.inputTokens = f.u64("input_tokens");
  t.outputTokens = f.u64("output_tokens");
  t.ratesThroughNs = f.i64OrNullOrAbsent("rates_through_ns").value_or(-1);  // absent before
  t.requestedRps = f.f64("requested_rps");
  t.achievedRps = f.f64("achieved_rps");
  t.outputTokensPerS = f.f64("output_tokens_per_s");
  t.inFlight = f.i64("in_flight");
  t.connectionsOpen = f.i64("connections_open");
  for (const TickLatency& l : kTickLatencies)
    if (!l.addedLater || f.has(l.name)) t.*l.member = percentilesFromJson(f, l.name);
  t.workerCpuMax = f.f64("worker_cpu_max");
  t.workerCpuMean = f.f64("worker_cpu_mean");
  t.loopDelayMaxMs = f.f64("loop_delay_max_ms");
  t.cpuWaitMaxMs = f.f64Or("cpu_wait_max_ms", -1);  // absent from streams of earlier versions
  t.handedLateMaxMs = f.f64Or("handed_late_max_ms", 0);  // as above
  t.ticksDropped = f.u64("ticks_dropped");
  return t;
}

// Window payloads are store::windowToJson's object, the same one `runs export` writes.
store::WindowRow windowFromJson(const LiveJsonFields& f) {
  store::WindowRow w;
  w.idx = f.i64("idx");
  w.startNs = f.i64("start_ns");
  w.lengthNs = f.i64("length_ns");
  w.planned = f.i64("planned");
  w.sent = f.i64("sent");
  w.completed = f.i64("completed");
  w.errors = f.i64("errors");
  w.errorsJson = f.object("errors_by_class").dump();
  w.inputTokens = f.i64("input_tokens");
  w.outputTokens = f.i64("output_tokens");
  w.inFlight = f.i64("in_flight");
  w.connectionsOpen = f.i64("connections_open");
  w.ttftP50Ms = f.f64OrNull("ttft_p50_ms");
  w.ttftP99Ms = f.f64OrNull("ttft_p99_ms");
  w.itlP50Ms = f.f64OrNull("itl_p50_ms");
  w.itlP99Ms = f.f64OrNull("itl_p99_ms");
  w.e2eP50Ms = f.f64OrNull("e2e_p50_ms");
  w.e2eP99Ms = f.f64OrNull("e2e_p99_ms");
  w.sendLagP50Ms = f.f64OrNull("send_lag_p50_ms");
  w.sendLagP99Ms = f.f64OrNull("send_lag_p99_ms");
  w.sendLagMaxMs = f.f64OrNull("send_lag_max_ms");
  w.ttfaP50Ms = f.f64OrNullOrAbsent("ttfa_p50_ms");  // absent from streams of earlier versions
  w.ttfaP99Ms = f.f64OrNullOrAbsent("ttfa_p99_ms");
  w.ttftFromPlannedP50Ms = f.f64OrNullOrAbsent("ttft_from_planned_p50_ms");
  w.ttftFromPlannedP99Ms = f.f64OrNullOrAbsent("ttft_from_planned_p99_ms");
  w.e2eFromPlannedP50Ms = f.f64OrNullOrAbsent("e2e_from_planned_p50_ms");
  w.e2eFromPlannedP99Ms = f.f64OrNullOrAbsent("e2e_from_planned_p99_ms");
  w.tpotP50Ms = f.f64OrNullOrAbsent("tpot_p50_ms");  // as above
  w.tpotP99Ms = f.f64OrNullOrAbsent("tpot_p99_ms");
  w.workerCpuMax = f.f64("worker_cpu_max");
  w.workerCpuMean = f.f64("worker_cpu_mean");
  w.loopDelayMaxMs = f.f64("loop_delay_max_ms");
  w.cpuWaitMaxMs = f.f64Or("cpu_wait_max_ms", -1);  // absent from streams of earlier versions
  w.handedLateMaxMs = f.f64OrNullOrAbsent("handed_late_max_ms");  // as above
  w.sentDuring = f.i64OrNullOrAbsent("sent_during");              // as above
  w.inFlightCapHits = f.i64("in_flight_cap_hits");
  w.workerDied = f.boolean("worker_died");
  return w;
}

LiveNotice noticeFromJson(const LiveJsonFields& f) {
  return LiveNotice{f.i64("at_ns"), f.oneOf("level", {"info", "warning", "error"}), f.str("text")};
}

LiveEnd endFromJson(const LiveJsonFields& f) {
  LiveEnd e;
  e.status = f.oneOf("status", {"complete", "incomplete", "failed"});
  e.summary = f.object("summary");
  e.notes = f.strings("notes");
  return e;
}

}  // namespace

Json toJson(const LiveMessage& m) {
  struct Visitor {
    Json operator()(const LiveHello& h) const { return helloToJson(h); }
    Json operator()(const LiveTick& t) const { return tickToJson(t); }
    Json operator()(const store::WindowRow& w) const { return store::windowToJson(w); }
    Json operator()(const LiveNotice& n) const {
      return Json{{"at_ns", n.atNs}, {"level", n.level}, {"text", n.text}};
    }
    Json operator()(const LiveEnd& e) const {
      return Json{{"status", e.status}, {"summary", e.summary}, {"notes", e.notes}};
    }
  };
  return std::visit(Visitor{}, m);
}

LiveMessage messageFromJson(uint8_t frameType, const Json& payload) {
  if (!protocol::isKnownLiveFrameType(frameType))
    throw LiveProtocolError("unknown frame type " + std::to_string(frameType));
  const auto type = static_cast<LiveFrameType>(frameType);
  const LiveJsonFields f(payload, protocol::liveFrameTypeName(type));
  switch (type) {
    case LiveFrameType::Hello: return helloFromJson(f);
    case LiveFrameType::Tick: return tickFromJson(f);
    case LiveFrameType::Window: return windowFromJson(f);
    case LiveFrameType::Notice: return noticeFromJson(f);
    case LiveFrameType::End: return endFromJson(f);
  }
  throw LiveProtocolError("unknown frame type " + std::to_string(frameType));  // unreachable
}

}  // namespace plumbline::live
