#include "core/workload/embedded_capacity.h"

#include <algorithm>
#include <cmath>

#include "core/mock/engine_params.h"

namespace plumbline::workload {

std::optional<EmbeddedCapacity> embeddedCapacity(const TargetSpec& target, double meanInput,
                                                 double meanOutput, double temperature) {
  if (target.url != "embedded") return std::nullopt;
  EmbeddedCapacity out;
  out.preset = target.mockPreset.empty() ? "default" : target.mockPreset;
  const auto preset = mock::mockPreset(out.preset);
  if (!preset) return std::nullopt;
  const double ttftMs = target.mockTtftMs.value_or(preset->ttftMs);
  const double itlMs = target.mockItlMs.value_or(preset->itlMs);
  out.latencyS = (ttftMs + itlMs * meanOutput) / 1000.0;
  if (!preset->engine) return out;

  // A full batch: as many sequences as both the batch cap and the KV cache hold.
  const mock::EngineParams& e = *preset->engine;
  const double perSequenceKv = std::max(1.0, meanInput + meanOutput);
  const double running = std::max(
      1.0, std::min<double>(e.maxRunningSeqs, static_cast<double>(e.kvCapacityTokens) / perSequenceKv));
  const double k = e.specTokens;
  const double stepUs = e.stepBaseUs * (1 + e.specDraftCost * k) +
                        e.decodePerSeqUs * running * (1 + k) +
                        e.contextPerTokenUs * running * (meanInput + meanOutput / 2);
  // Tokens a sequence gains per step: 1 plus the accepted prefix of k drafts.
  const double a = e.acceptRate(temperature);
  double tokensPerStep = 1;
  for (int i = 1; i <= e.specTokens; ++i) tokensPerStep += std::pow(a, i);
  const double decodeS = meanOutput * stepUs / tokensPerStep * 1e-6;
  const double prefillS = meanInput * e.prefillPerTokenUs * 1e-6;
  out.maxRps = running / std::max(1e-6, decodeS + prefillS);
  return out;
}

}  // namespace plumbline::workload
