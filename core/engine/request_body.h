#pragma once
#include <string>

#include "core/engine/worker_config.h"
#include "core/util/rng.h"
#include "core/workload/planner.h"

namespace plumbline::engine {

/// Builds request bodies. The fixed parts (model, sampling, extra fields) are serialised once;
/// per request only the prompt and max_tokens are written, into a reused buffer.
///
/// Synthetic prompts: inputTokens words from a fixed vocabulary, chosen deterministically by
/// (prompt seed, session id). Each word is one token for the embedded mock (which counts
/// whitespace-separated words); real tokenizers will differ, and the run says the client's
/// input count is the planned word count.
/// max_tokens: the session's drawn output length, capped by sampling.max_tokens when set.
/// Appends n synthetic words (one token each for the mock) drawn from rng, space-separated.
void appendSyntheticWords(util::Rng& rng, uint32_t n, std::string& out);

class RequestBodyBuilder {
 public:
  explicit RequestBodyBuilder(const WorkerConfig& config);
  void build(const workload::SessionPlan& session, std::string& out) const;
  /// A body for an explicit conversation (sessions): chat sends `messages` as given ([{role,
  /// content}...]); completions sends their contents joined by blank lines as the prompt.
  void buildConversation(const nlohmann::json& messages, uint32_t outputTokens, std::string& out) const;

 private:
  void appendPrompt(const workload::SessionPlan& session, std::string& out) const;
  void appendMaxTokens(uint32_t outputTokens, std::string& out) const;
  const WorkerConfig& m_config;
  std::string m_head;  ///< {"model":...,
  std::string m_tail;  ///< stream flags, sampling, extra fields and the closing brace
};

}  // namespace plumbline::engine
