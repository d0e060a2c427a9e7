#include "core/engine/live_publisher.h"

#include "core/engine/store_sink.h"

namespace plumbline::engine {

LivePublisher::LivePublisher(LiveServer& server, RunSink& next, metrics::VerdictPolicy policy,
                             live::LiveHello hello)
    : m_server(server), m_next(next), m_policy(policy), m_hello(std::move(hello)) {}

void LivePublisher::onT0(int64_t t0WallNs) {
  m_next.onT0(t0WallNs);
  if (m_hello) m_hello->t0WallNs = t0WallNs;
  sendHelloIfNotSent();
}

void LivePublisher::sendHelloIfNotSent() {
  if (!m_hello) return;
  m_server.hello(*m_hello);
  m_hello.reset();
}

void LivePublisher::onRecords(const std::vector<metrics::RequestRecord>& records) {
  m_next.onRecords(records);
  m_ticks.addRecords(records);
}

void LivePublisher::onWindow(const metrics::WindowStats& window) {
  m_next.onWindow(window);
  m_server.window(toWindowRow(window));
  // Verdict reasons as they become known: judge the windows so far and announce each new
  // reason once (a reason whose window range merely grows is not new). Send lag is judged
  // only over complete groups of sends, as the final verdict will judge them: a p99 over the
  // few sends of a slow run's first seconds is their maximum, not a p99.
  m_evidence.push_back(metrics::WindowEvidence::from(window));
  m_planned += window.planned;
  m_sent += window.sent;
  const metrics::Verdict v = metrics::judgeEvidence(m_evidence, m_planned, m_sent, m_policy, {},
                                                           metrics::Judging::SoFar);
  for (size_t i = m_reasonsAnnounced; i < v.reasons.size(); ++i)
    m_server.notice({window.startNs + window.lengthNs, "warning", "harness limited: " + v.reasons[i]});
  m_reasonsAnnounced = std::max(m_reasonsAnnounced, v.reasons.size());
}

void LivePublisher::onProgress(int64_t nowNs, const metrics::RunAggregator& aggregator) {
  m_lastNowNs = nowNs;
  if (auto tick = m_ticks.due(nowNs, aggregator)) m_server.tick(*tick);
}

void LivePublisher::onWorkerStats(const StatsReport& stats) { m_ticks.addStats(stats); }

void LivePublisher::onNotice(int64_t atNs, const std::string& level, const std::string& text) {
  m_server.notice({atNs, level, text});
}

void LivePublisher::onWorkerGone(uint32_t workerId) { m_ticks.removeWorker(workerId); }

void LivePublisher::onHandedLate(int64_t atNs, int64_t latenessNs) {
  m_ticks.addHandedLate(atNs, latenessNs);
}

void LivePublisher::onPlanned(int64_t plannedNs, uint64_t count) {
  m_ticks.addPlanned(plannedNs, count);
}

void LivePublisher::onSendsReportedThrough(int64_t ns) { m_ticks.setSendsReportedThrough(ns); }

void LivePublisher::onRunOver(int64_t nowNs, const metrics::RunAggregator& aggregator,
                              const metrics::RunSummary& summary) {
  m_ticks.setSendsReportedThrough(INT64_MAX);  // every worker has ended: all it sent is in
  live::LiveTick t = m_ticks.build(std::max(nowNs, m_lastNowNs), aggregator);
  // The last tick carries the summary's counts, so that completed + failed + not sent ==
  // planned holds in the stream exactly as in the summary and the database.
  t.planned = summary.planned;
  t.sent = summary.sent;
  t.completed = summary.completed;
  t.notSent = summary.notSent;
  m_server.tick(t);
}

}  // namespace plumbline::engine
