#include "core/engine/token_count_basis.h"

namespace plumbline::engine {

void describeTokenCounts(const workload::WorkloadSpec& spec, metrics::RunSummary& summary) {
  const auto& prompt = spec.requests.prompt;
  const bool tokenizer = !prompt.tokenizer.empty();
  summary.promptTokensBasis = prompt.basis();
  summary.clientInputCount = (prompt.sharegpt ? "dataset prompt length (" : "planned prompt length (") +
                             prompt.basis() + ")";
  summary.clientInputBasis = tokenizer ? "tokenizer:" + prompt.tokenizer : "approximate";
  if (tokenizer) {
    summary.clientOutputCount = "reply text as received, tokenized (tokenizer: " + prompt.tokenizer + ")";
    summary.clientOutputBasis = "tokenizer:" + prompt.tokenizer;
  } else if (spec.target.stream) {
    summary.clientOutputCount = "content chunks (one per streamed delta with generated text)";
    summary.clientOutputBasis = "chunks";
  } else {
    summary.clientOutputCount = "none (not streaming)";
    summary.clientOutputBasis = "none";
  }
}

}  // namespace plumbline::engine
