#pragma once
// The messages of the live-telemetry protocol (live_protocol.h) as plain structs, with their
// JSON payload encoding. Shared by the coordinator (writer) and the studio (reader).
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/store/window_row.h"

namespace plumbline::live {

/// Sent first: what is running.
struct LiveHello {
  int64_t runId = 0;
  std::string runName;
  std::string workloadName;
  nlohmann::json spec;          ///< the workload as run (after --rate/--duration overrides)
  std::string targetUrl;        ///< never with credentials
  std::string model;
  std::string api;
  int64_t workers = 0;
  int64_t coordinatorPid = 0;
  double requestedRps = 0;      ///< mean planned rate over the whole schedule
  double durationS = 0;         ///< scheduled length of the run
  int64_t plannedTotal = 0;     ///< requests the plan holds
  int64_t windowNs = 0;
  int64_t t0WallNs = 0;  ///< the run's t0 on the wall clock, ns since the Unix epoch
  std::string toolVersion;
  std::string dbPath;

  bool operator==(const LiveHello&) const = default;
};

/// {p50, p99} in milliseconds over what a Tick covers; count 0 means no samples.
struct LivePercentiles {
  double p50 = 0, p99 = 0;
  uint64_t count = 0;

  bool operator==(const LivePercentiles&) const = default;
};

/// Every 250 ms: cumulative counters, rates over the last second, and latency of the
/// requests that ended in the last second (provisional: the final figures are in Windows).
struct LiveTick {
  int64_t atNs = 0;                ///< since t0
  uint64_t planned = 0, sent = 0, completed = 0, notSent = 0;  ///< cumulative
  std::map<std::string, uint64_t> errors;  ///< cumulative, by class name; zero omitted
  uint64_t inputTokens = 0, outputTokens = 0;  ///< cumulative
  /// The rates are over [ratesThroughNs − 1 s, ratesThroughNs): the latest whole second every
  /// worker had reported its sends for, a little before atNs. 0: no whole second yet (no rates);
  /// −1: over the second before atNs (streams of earlier versions).
  int64_t ratesThroughNs = -1;
  double requestedRps = 0;         ///< requests planned in that second
  double achievedRps = 0;          ///< sends made in that second
  double outputTokensPerS = 0;     ///< over the last second
  int64_t inFlight = 0;
  int64_t connectionsOpen = 0;
  LivePercentiles ttft, itl, e2e, ttftFromPlanned, e2eFromPlanned, sendLag;
  /// Send to the first answer token, after a reasoning model's thinking (streams that had one);
  /// "ttfa", absent from streams of earlier versions (read as no samples).
  LivePercentiles ttfa;
  /// Time per output token of the requests that ended (RequestRecord::tpotNs: a stream's first to
  /// last token over its tokens less one), per token where itl is per streamed event; "tpot",
  /// absent from streams of earlier versions (read as no samples).
  LivePercentiles tpot;
  double workerCpuMax = 0, workerCpuMean = 0;  ///< 0..1 of one core, latest samples
  double loopDelayMaxMs = 0;
  double cpuWaitMaxMs = -1;  ///< most one worker waited for a CPU over the last second; -1 unknown
  /// The latest that a session handed out in the last second reached its worker after it was
  /// due (the coordinator was held up); 0 when none was late.
  double handedLateMaxMs = 0;
  uint64_t ticksDropped = 0;       ///< ticks this client missed because it read too slowly

  bool operator==(const LiveTick&) const = default;
};

struct LiveNotice {
  int64_t atNs = 0;
  std::string level;  ///< "info" | "warning" | "error"
  std::string text;

  bool operator==(const LiveNotice&) const = default;
};

/// The run is over. summary is the --summary-json object (RunSummary::toJson()).
struct LiveEnd {
  std::string status;  ///< "complete" | "incomplete" | "failed"
  nlohmann::json summary;
  std::vector<std::string> notes;

  bool operator==(const LiveEnd&) const = default;
};

using LiveMessage = std::variant<LiveHello, LiveTick, store::WindowRow, LiveNotice, LiveEnd>;

/// JSON payloads (field names are snake_case versions of the members).
nlohmann::json toJson(const LiveMessage& m);
/// Throws LiveProtocolError naming the frame type and the missing or mistyped field.
LiveMessage messageFromJson(uint8_t frameType, const nlohmann::json& payload);

}  // namespace plumbline::live
