#include "core/mock/engine_params.h"

#include <algorithm>

namespace plumbline::mock {
namespace {

/// An 8B-parameter model in bf16 on one 80 GB H100-class GPU, as vLLM would run it:
/// ~16 GB of weights read per step at ~3 TB/s (6 ms), ~16 GFLOP per token at ~400 TFLOP/s
/// (40 µs per prefill or decode position), 128 KiB of KV per token at ~3 TB/s for attention
/// (0.04 µs per context token), ~26 GB left for KV = 200k tokens, 256 running sequences,
/// 2048 batched tokens per step, automatic prefix caching, and a 3-token speculative draft
/// head whose acceptance falls with temperature (0.80 at T=0, 0.49 at T=0.7).
EngineParams gpu8b() {
  EngineParams p;
  p.specTokens = 3;
  return p;
}

/// The same GPU with a KV cache a quarter the size and a batch cap of 32: under a few
/// requests per second it queues, so TTFT is dominated by waiting.
EngineParams overloaded() {
  EngineParams p = gpu8b();
  p.maxRunningSeqs = 32;
  p.kvCapacityTokens = 50'000;
  p.maxBatchedTokens = 1024;
  return p;
}

}  // namespace

double EngineParams::acceptRate(double temperature) const {
  return std::clamp(specAcceptAtZero + specAcceptPerTemperature * temperature, specAcceptMin, 1.0);
}

std::optional<MockPreset> mockPreset(const std::string& name) {
  if (name == "instant") return MockPreset{0.0, 0.0, std::nullopt, ""};
  if (name == "default") return MockPreset{50.0, 10.0, std::nullopt, ""};
  if (name == "gpu-8b") return MockPreset{50.0, 10.0, gpu8b(), ""};
  if (name == "overloaded") return MockPreset{50.0, 10.0, overloaded(), ""};
  // gpu-8b with roughly 1 request in 12 hitting a fault, every class represented.
  if (name == "flaky") {
    return MockPreset{50.0, 10.0, gpu8b(),
                      R"({"http_500":0.01,"http_503":0.01,"http_429":0.01,"refuse":0.01,)"
                      R"("stall_first_byte":0.01,"stall_mid_stream":0.01,"stream_cut":0.01,)"
                      R"("malformed_chunk":0.01,"slow_trickle":0.01})"};
  }
  return std::nullopt;
}

const char* mockPresetNames() { return "instant, default, gpu-8b, overloaded or flaky"; }

}  // namespace plumbline::mock
