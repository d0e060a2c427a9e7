#pragma once
// One filled-in instance of every live-protocol message, each field distinct from its default.
#include "core/live/live_messages.h"

namespace plumbline::live::testing {

inline LiveHello sampleHello() {
  LiveHello h;
  h.runId = 42;
  h.runName = "nightly \"quoted\" ü";
  h.workloadName = "chat, poisson sweep";
  h.spec = nlohmann::json{{"plumbline", 1}, {"load", {{"arrival", "poisson"}, {"seed", 7}}}};
  h.targetUrl = "http://127.0.0.1:8000/v1";
  h.model = "mock";
  h.api = "chat";
  h.workers = 3;
  h.coordinatorPid = 12345;
  h.requestedRps = 20.5;
  h.durationS = 6;
  h.plannedTotal = 123;
  h.windowNs = 1'000'000'000;
  h.t0WallNs = 1'790'000'000'000'000'000;
  h.toolVersion = "0.1.0";
  h.dbPath = "/tmp/runs.db";
  return h;
}

inline LiveTick sampleTick() {
  LiveTick t;
  t.atNs = 2'750'000'000;
  t.planned = 60;
  t.sent = 55;
  t.completed = 50;
  t.notSent = 1;
  t.errors = {{"http_5xx", 2}, {"timeout", 1}};
  t.inputTokens = 25'000;
  t.outputTokens = 12'000;
  t.ratesThroughNs = 2'500'000'000;
  t.requestedRps = 20;
  t.achievedRps = 19.75;
  t.outputTokensPerS = 4100.5;
  t.inFlight = 5;
  t.connectionsOpen = 7;
  t.ttft = {12.5, 40.25, 19};
  t.itl = {3.5, 9.0, 900};
  t.e2e = {800, 1200, 19};
  t.ttftFromPlanned = {12.75, 41, 19};
  t.e2eFromPlanned = {801, 1201, 19};
  t.sendLag = {0.05, 0.4, 20};
  t.ttfa = {52.5, 90.75, 18};
  t.tpot = {4.25, 6.5, 17};
  t.workerCpuMax = 0.35;
  t.workerCpuMean = 0.2;
  t.loopDelayMaxMs = 1.5;
  t.cpuWaitMaxMs = 12.25;
  t.handedLateMaxMs = 950.5;
  t.ticksDropped = 3;
  return t;
}

inline store::WindowRow sampleWindow(int64_t idx = 2) {
  store::WindowRow w;
  w.idx = idx;
  w.startNs = idx * 1'000'000'000;
  w.lengthNs = 1'000'000'000;
  w.planned = 20;
  w.sent = 19;
  w.completed = 18;
  w.errors = 2;
  w.errorsJson = R"({"http_5xx":2})";
  w.inputTokens = 9000;
  w.outputTokens = 4000;
  w.inFlight = 4;
  w.connectionsOpen = 6;
  w.ttftP50Ms = 12;
  w.ttftP99Ms = 40;
  w.itlP50Ms = 3;
  w.itlP99Ms = 9;
  w.e2eP50Ms = 800;
  w.e2eP99Ms = 1200;
  w.sendLagP50Ms = 0.05;
  w.sendLagP99Ms = 0.4;
  w.sendLagMaxMs = 0.9;
  w.ttfaP50Ms = 70.5;
  w.ttfaP99Ms = 95.25;
  w.ttftFromPlannedP50Ms = 22.5;
  w.ttftFromPlannedP99Ms = 140;
  w.e2eFromPlannedP50Ms = 810.25;
  w.e2eFromPlannedP99Ms = 1300.5;
  w.tpotP50Ms = 4.5;
  w.tpotP99Ms = 7.25;
  w.workerCpuMax = 0.3;
  w.workerCpuMean = 0.2;
  w.loopDelayMaxMs = 1.25;
  w.cpuWaitMaxMs = 23.5;
  w.handedLateMaxMs = 40.75;
  w.sentDuring = 21;
  w.inFlightCapHits = 1;
  w.workerDied = true;
  return w;
}

inline LiveNotice sampleNotice() { return LiveNotice{3'000'000'000, "warning", "worker 2 died"}; }

inline LiveEnd sampleEnd() {
  LiveEnd e;
  e.status = "incomplete";
  e.summary = nlohmann::json{{"run_id", 42}, {"verdict", "kept_up"}, {"planned", 123}};
  e.notes = {"stopped by SIGINT", "second note"};
  return e;
}

inline std::vector<LiveMessage> sampleMessages() {
  return {sampleHello(), sampleTick(), sampleWindow(), sampleNotice(), sampleEnd()};
}

}  // namespace plumbline::live::testing
