#pragma once
// The --live part of `plumbline run`: the socket is served from before the run starts until
// after it ends, and the stream always ends with an End frame, even when the run fails.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/engine/live_publisher.h"
#include "core/engine/live_server.h"
#include "core/store/run_info.h"
#include "core/workload/workload_spec.h"

namespace plumbline::engine {

class LiveRun {
 public:
  /// Listens at socketPath; throws LiveServerError if it cannot be used.
  LiveRun(const std::string& socketPath, size_t clientBufferCap);

  /// From now on sink() streams what passes through it to `next`; Hello goes out at t0
  /// (RunSink::onT0), with t0's wall-clock time, or before End when the run never got there.
  void start(const store::RunInfo& info, int64_t runId, const workload::WorkloadSpec& spec,
             const std::string& dbPath, RunSink& next);
  /// What the coordinator writes to (valid after start()).
  RunSink& sink() { return *m_publisher; }
  RunObserver* observer() { return &*m_publisher; }

  /// Sends End with status "complete" or "incomplete"; the server's log (slow clients
  /// disconnected) is appended to notes first, so that the run's report shows it too.
  void finish(bool complete, const nlohmann::json& summary, std::vector<std::string>& notes);
  /// A notice between the run's end and finish() (a wait to record its results).
  void notice(const std::string& level, const std::string& text);
  /// Sends End with status "failed" (idempotent; nothing after finish()).
  void fail(const std::string& why);

 private:
  LiveServer m_server;
  std::optional<LivePublisher> m_publisher;
  bool m_ended = false;
};

/// Hello for a run: what the database's run row says, plus the plan's totals.
live::LiveHello liveHello(const store::RunInfo& info, int64_t runId, const workload::WorkloadSpec& spec,
                          const std::string& dbPath);

}  // namespace plumbline::engine
