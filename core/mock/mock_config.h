#pragma once
// Options of `plumbline mock` as given on the command line, and their resolution
// (preset < config file < explicit flags) into the settings the server runs with.
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/mock/engine_params.h"
#include "core/mock/fault_injector.h"

namespace plumbline::mock {

struct AcceptShortage;

class RequestRecorder;

/// Invalid mock options; what() is one line naming the flag or JSON path.
class MockConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What the user asked for; unset fields fall back to the config file, then the preset.
struct MockConfig {
  std::string listen = "127.0.0.1:0";  ///< HOST:PORT, IPv4 literal; port 0 = ephemeral
  std::optional<std::string> preset;   ///< see mockPresetNames()
  std::optional<double> ttftMs;
  std::optional<double> itlMs;
  /// --thinking-tokens N: a chat reply's first N tokens are reasoning_content (a model that
  /// thinks before answering), the rest content; paced as any other tokens.
  std::optional<int64_t> thinkingTokens;
  /// --tokens-per-event N: after its first token a stream sends its tokens N to an event, as a
  /// server that streams every N tokens does (fixed timing only).
  std::optional<int64_t> tokensPerEvent;
  std::optional<int> threads;           ///< 0 or unset = hardware cores
  std::optional<std::string> configPath;  ///< MOCK.json
  std::optional<std::string> recordRequests;  ///< FILE: one JSON line per request received
  /// SO_REUSEPORT: several mock processes share one port, so together they hold more
  /// connections than one process's descriptor limit allows.
  bool reusePort = false;
  /// --realtime PRIO: the loops run SCHED_FIFO at PRIO (1-99), so that on a machine it shares
  /// with the client under test its token writes never wait behind the client for a CPU.
  std::optional<int> realtimePriority;
  /// --slice-us US: each loop asks for a US µs scheduler slice (util/scheduler_slice.h, 100 to
  /// 100,000; unprivileged): woken for a token, it takes its CPU from a client with a longer
  /// slice at once instead of after that slice, without SCHED_FIFO's power to starve it.
  std::optional<int> sliceUs;
  /// --shortage-fd N (hidden): an inherited SharedAcceptShortage descriptor, given by the run
  /// that started this mock as its embedded target; -1 when there is none.
  int shortageFd = -1;
};

/// Fully resolved settings of a running mock server.
struct MockSettings {
  std::string host = "127.0.0.1";
  int port = 0;
  double ttftMs = 50.0;  ///< fixed timing (no engine)
  double itlMs = 10.0;
  int64_t thinkingTokens = 0;  ///< see MockConfig::thinkingTokens
  int64_t tokensPerEvent = 1;  ///< see MockConfig::tokensPerEvent
  int threads = 1;
  double naturalLengthMean = 128.0;
  std::optional<EngineParams> engine;  ///< set: tokens come from the simulated engine
  FaultSettings faults;
  bool reusePort = false;          ///< see MockConfig::reusePort
  int realtimePriority = 0;        ///< see MockConfig::realtimePriority; 0 = the normal policy
  int sliceUs = 0;                 ///< see MockConfig::sliceUs; 0 = the kernel's default slice
  std::string recordRequestsPath;  ///< empty = record nothing
  std::shared_ptr<RequestRecorder> recorder;  ///< opened by MockServer from recordRequestsPath
  int shortageFd = -1;                        ///< see MockConfig::shortageFd
  AcceptShortage* acceptShortage = nullptr;   ///< mapped by MockServer from shortageFd
};

/// Applies preset, config file and flags, in that order. Config file keys: preset,
/// ttft_ms, itl_ms, thinking_tokens, tokens_per_event, threads, natural_length_mean, faults ({class: rate}),
/// fault_seed, stall_ms, trickle_itl_ms, retry_after_s, engine ({max_running_seqs,
/// kv_capacity_tokens, block_tokens, max_batched_tokens, step_base_us, decode_per_seq_us,
/// context_per_token_us, prefill_per_token_us, prefix_caching, spec_tokens, spec_accept_at_zero,
/// spec_accept_per_temperature, seed}: overrides of the preset's engine, or of the
/// EngineParams defaults when the preset has none). Throws MockConfigError.
MockSettings resolveMockSettings(const MockConfig& config);

}  // namespace plumbline::mock
