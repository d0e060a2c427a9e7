#pragma once
// Connects a run to its LiveServer: results pass through to the next sink (the database)
// and out to live clients as Windows, Ticks and Notices.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/live_server.h"
#include "core/engine/live_tick_builder.h"
#include "core/engine/run_observer.h"
#include "core/engine/run_sink.h"
#include "core/metrics/verdict.h"

namespace plumbline::engine {

class LivePublisher : public RunSink, public RunObserver {
 public:
  /// The Hello goes out at t0 (onT0), carrying t0's wall-clock time; what comes before it
  /// (a notice) reaches clients after it.
  LivePublisher(LiveServer& server, RunSink& next, metrics::VerdictPolicy policy,
                live::LiveHello hello);

  void onRecords(const std::vector<metrics::RequestRecord>& records) override;
  /// Streams the same row the database gets, then any verdict reason it newly brings.
  void onWindow(const metrics::WindowStats& window) override;
  void onT0(int64_t t0WallNs) override;
  std::string failure() const override { return m_next.failure(); }
  /// A run that ends (or fails) before t0: its Hello as it is, so that End still follows one.
  void sendHelloIfNotSent();

  void onProgress(int64_t nowNs, const metrics::RunAggregator& aggregator) override;
  void onWorkerStats(const StatsReport& stats) override;
  void onNotice(int64_t atNs, const std::string& level, const std::string& text) override;
  void onWorkerGone(uint32_t workerId) override;
  void onHandedLate(int64_t atNs, int64_t latenessNs) override;
  void onPlanned(int64_t plannedNs, uint64_t count) override;
  void onSendsReportedThrough(int64_t ns) override;
  /// A notice after the coordinator's loop (while the run's results are being recorded),
  /// placed at the latest instant the stream has seen.
  void noticeAtEnd(const std::string& level, const std::string& text) {
    onNotice(m_lastNowNs, level, text);
  }
  /// Sends the run's last Tick, with its final counts (not-sent is only known at the end).
  void onRunOver(int64_t nowNs, const metrics::RunAggregator& aggregator, const metrics::RunSummary& summary) override;

 private:
  LiveServer& m_server;
  RunSink& m_next;
  metrics::VerdictPolicy m_policy;
  std::optional<live::LiveHello> m_hello;  ///< until sent
  LiveTickBuilder m_ticks;
  std::vector<metrics::WindowEvidence> m_evidence;
  uint64_t m_planned = 0, m_sent = 0;
  size_t m_reasonsAnnounced = 0;
  int64_t m_lastNowNs = 0;
};

}  // namespace plumbline::engine
