#pragma once
// Parameters of the simulated serving engine (one GPU running one model), and the presets.
#include <cstdint>
#include <optional>
#include <string>

namespace plumbline::mock {

/// Cost and capacity model of one engine step (vLLM-style continuous batching):
///   step = stepBase * (1 + specDraftCost * specTokens)        (only when something decodes)
///        + decodePerSeq * decodingSeqs * (1 + specTokens)       (verifying k+1 positions)
///        + contextPerToken * sum of the decoding seqs' context  (attention reads the KV)
///        + prefillPerToken * prompt tokens computed this step   (chunked prefill)
/// Times are in microseconds.
struct EngineParams {
  int maxRunningSeqs = 256;          ///< max sequences in the running batch
  int64_t kvCapacityTokens = 200'000;  ///< KV-cache size, in tokens
  int blockTokens = 16;              ///< KV block size, also the prefix-cache hashing unit (words)
  int64_t maxBatchedTokens = 2048;   ///< per-step token budget: decodes first, then prefill chunks
  double stepBaseUs = 6000.0;        ///< fixed cost of a step (reading the weights)
  double decodePerSeqUs = 40.0;
  double contextPerTokenUs = 0.04;
  double prefillPerTokenUs = 40.0;
  bool prefixCaching = true;
  int specTokens = 0;                ///< speculative (draft) tokens per decode step; 0 = off
  double specAcceptAtZero = 0.8;     ///< per-draft-token acceptance probability at temperature 0
  double specAcceptPerTemperature = -0.45;  ///< added per unit of temperature
  double specAcceptMin = 0.05;
  double specDraftCost = 0.05;       ///< step-base fraction each draft token costs
  uint64_t seed = 1;                 ///< drives speculative acceptance draws

  /// Acceptance probability of one draft token at `temperature`.
  double acceptRate(double temperature) const;
};

/// Timing and engine behind a preset name. `engine` empty = fixed TTFT/ITL timing.
struct MockPreset {
  double ttftMs = 50.0;
  double itlMs = 10.0;
  std::optional<EngineParams> engine;
  /// Fault rates as a JSON object text ("" = none), e.g. for `flaky`.
  std::string faultsJson;
};

/// instant, default, gpu-8b, overloaded, flaky (see the definitions in engine_params.cpp);
/// nullopt for an unknown name.
std::optional<MockPreset> mockPreset(const std::string& name);

/// "instant, default, gpu-8b, overloaded or flaky"
const char* mockPresetNames();

}  // namespace plumbline::mock
