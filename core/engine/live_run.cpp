#include "core/engine/live_run.h"

#include <unistd.h>

#include "core/engine/verdict_policy.h"
#include "core/workload/plan_preview.h"

namespace plumbline::engine {

live::LiveHello liveHello(const store::RunInfo& info, int64_t runId, const workload::WorkloadSpec& spec,
                          const std::string& dbPath) {
  const workload::PlanPreview plan = workload::buildPreview(spec);
  live::LiveHello h;
  h.runId = runId;
  h.runName = info.name;
  h.workloadName = info.workloadName;
  h.spec = info.spec;
  h.targetUrl = info.targetUrl;
  h.model = info.model;
  h.api = info.api;
  h.workers = info.workers;
  h.coordinatorPid = getpid();
  h.durationS = plan.durationS;
  h.plannedTotal = static_cast<int64_t>(plan.requests);
  h.requestedRps = plan.durationS > 0 ? static_cast<double>(plan.requests) / plan.durationS : 0;
  h.windowNs = 1'000'000'000;
  h.t0WallNs = info.t0WallNs;
  h.toolVersion = info.toolVersion;
  h.dbPath = dbPath;
  return h;
}

LiveRun::LiveRun(const std::string& socketPath, size_t clientBufferCap)
    : m_server(LiveServerOptions{socketPath, clientBufferCap}) {}

void LiveRun::start(const store::RunInfo& info, int64_t runId, const workload::WorkloadSpec& spec,
                    const std::string& dbPath, RunSink& next) {
  m_publisher.emplace(m_server, next, verdictPolicyOf(spec.verdict),
                      liveHello(info, runId, spec, dbPath));
}

void LiveRun::finish(bool complete, const nlohmann::json& summary, std::vector<std::string>& notes) {
  if (m_ended) return;
  m_ended = true;
  if (m_publisher) m_publisher->sendHelloIfNotSent();
  for (std::string& line : m_server.takeLog()) notes.push_back(std::move(line));
  m_server.finish({complete ? "complete" : "incomplete", summary, notes});
  // Clients that did not read the End in time: too late for it, not for the report.
  for (std::string& line : m_server.takeLog()) notes.push_back(std::move(line));
}

void LiveRun::notice(const std::string& level, const std::string& text) {
  if (!m_ended && m_publisher) m_publisher->noticeAtEnd(level, text);
}

void LiveRun::fail(const std::string& why) {
  if (m_ended) return;
  m_ended = true;
  if (m_publisher) m_publisher->sendHelloIfNotSent();
  std::vector<std::string> notes = m_server.takeLog();
  notes.insert(notes.begin(), why);
  m_server.finish({"failed", nlohmann::json::object(), notes});
}

}  // namespace plumbline::engine
