#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/workload/prompt_spec.h"

namespace plumbline::workload {

enum class Api { Chat, Completions };

struct TargetSpec {
  std::string url = "embedded";  ///< "embedded" or an http(s) base URL (without /v1/...)
  Api api = Api::Chat;
  std::string model = "mock";
  bool stream = true;
  std::string apiKeyEnv;          ///< name of the environment variable holding the key; never the key
  double timeoutS = 60.0;         ///< per-request timeout
  std::string mockPreset;         ///< for url "embedded": preset passed to `plumbline mock`
  std::optional<double> mockTtftMs, mockItlMs;
  std::optional<int64_t> mockThinkingTokens;  ///< chat replies' first tokens are thinking
  /// After its first token a stream sends this many tokens an event (`plumbline mock
  /// --tokens-per-event`): a server that streams every N tokens.
  std::optional<int64_t> mockTokensPerEvent;
};

enum class Arrival { Constant, Poisson, Gamma, Trace };

enum class TraceFormat { AzureCsv, MooncakeJsonl };

/// load.trace: which file to replay and how (arrival "trace" only).
struct TraceSpec {
  std::string file;          ///< as written in the workload (relative to the workload file)
  std::string resolvedPath;  ///< the path actually read
  TraceFormat format = TraceFormat::AzureCsv;
  double timeScale = 1.0;    ///< multiplies every gap: 0.5 replays twice as fast
  double startOffsetS = 0;   ///< trace seconds skipped from its first row
  std::optional<double> windowS;  ///< trace seconds replayed from the offset (all when absent)
  bool lengthsFromTrace = true;   ///< "lengths": "trace" (true) or "workload"
};

struct TraceSchedule;  // core/workload/trace_replay.h

/// One stage of the load profile. A fixed stage has startRate == endRate; a ramp goes
/// linearly from startRate to endRate over durationS. Rates are session arrivals per second.
struct Stage {
  double startRate = 0;
  double endRate = 0;
  double durationS = 0;
  bool isRamp() const { return startRate != endRate; }
};

struct LoadSpec {
  Arrival arrival = Arrival::Constant;
  uint64_t seed = 1;
  std::vector<Stage> stages;  ///< for "trace": one stage spanning the replay at its mean rate
  int64_t maxInFlight = 20000;
  double cv = 1.0;  ///< gamma only: coefficient of variation of the inter-arrival gaps
  std::optional<TraceSpec> trace;
  std::shared_ptr<const TraceSchedule> traceSchedule;  ///< the rows to replay, loaded with the spec
  /// The file's stages when --rate or --duration alone (`flattenedBy`) flattened a profile of
  /// several stages or a ramp into one stage, which is warned of; empty otherwise.
  std::vector<Stage> flattenedStages;
  std::string flattenedBy;
};

enum class DistKind { Fixed, Uniform, Normal, Lognormal, Exponential };

/// A token-length distribution with optional clamps. Parameters by kind:
/// Fixed(value) Uniform(min,max) Normal(mean,stddev) Lognormal(median,sigma) Exponential(mean).
struct LengthDist {
  DistKind kind = DistKind::Fixed;
  double p1 = 0;  ///< value | min | mean | median | mean
  double p2 = 0;  ///< -     | max | stddev | sigma | -
  int64_t clampMin = 1;
  int64_t clampMax = 1'000'000;
  nlohmann::json source;  ///< the JSON it was read from, for display and storage
};

struct SamplingSpec {
  std::optional<double> temperature;
  std::optional<double> topP;
  std::optional<int64_t> maxTokens;  ///< when absent, each request's drawn output length is sent
  std::optional<bool> ignoreEos;
  std::optional<int64_t> seed;
  nlohmann::json extra = nlohmann::json::object();  ///< other body fields, passed through as-is
};

/// requests.prompt.shared_prefix: sessions fall into `groups` by seed; every request of a
/// session starts with its group's system prompt of `tokens` tokens.
struct SharedPrefixSpec {
  uint32_t groups = 0;  ///< 0 = no shared prefix
  uint32_t tokens = 0;
};

struct RequestsSpec {
  LengthDist inputTokens;
  LengthDist outputTokens;
  PromptSpec prompt;  ///< for sharegpt, inputTokens/outputTokens are unused (source {"dist":"sharegpt"})
  SharedPrefixSpec sharedPrefix;
  SamplingSpec sampling;
};

/// How strictly the harness judges itself ("verdict" in the file; all optional).
struct VerdictSpec {
  double sendLagToleranceMs = 1.0;  ///< p99 send lag allowed in every window
  double minSentFraction = 0.99;    ///< of planned, in every window and overall
  /// A worker's event loop held this long or longer while requests were in flight may have
  /// pushed their timings late by as much (RequestRecord::heldNs); over 1% of them is a limit.
  /// Unset: 10 ms, or the send-lag tolerance when that is longer (the delay of its own the
  /// workload allows the harness, for sends and reads alike).
  std::optional<double> holdToleranceMs;
};

/// A distribution of durations in seconds: LengthDist's syntax, non-integer values allowed,
/// clamps default to 0..inf (see session_parser.h).
struct SecondsDist {
  DistKind kind = DistKind::Fixed;
  double p1 = 0, p2 = 0;
  double clampMin = 0;
  double clampMax = 1e300;
  nlohmann::json source;
};

enum class SessionShape { Single, MultiTurn, Tree, Agentic, Summarize };

/// The "session" object (see session_parser.h for the keys each shape takes).
struct SessionSpec {
  std::string shape = "single";
  SessionShape kind = SessionShape::Single;
  LengthDist count;             ///< turns (multi_turn), steps (agentic), chunks (summarize)
  SecondsDist delay;            ///< think_time_s (multi_turn), tool_latency_s (agentic)
  LengthDist toolResultTokens;  ///< agentic only
  uint32_t branching = 0, depth = 0;  ///< tree only
};

/// A validated workload file (format v1, see DESIGN.md).
struct WorkloadSpec {
  int version = 1;
  std::string name;
  std::string description;
  TargetSpec target;
  LoadSpec load;
  RequestsSpec requests;
  SessionSpec session;
  VerdictSpec verdict;
  nlohmann::json document;  ///< the whole file as read (stored with the run; holds no secrets)

  double totalDurationS() const;
};

}  // namespace plumbline::workload
