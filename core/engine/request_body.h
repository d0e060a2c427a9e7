#pragma once
#include <string>

#include "core/engine/prompt_writer.h"
#include "core/engine/worker_config.h"
#include "core/workload/planner.h"

namespace plumbline::engine {

/// Builds request bodies. The fixed parts (model, sampling, extra fields) are serialised once;
/// per request only the prompt and max_tokens are written, into a reused buffer.
///
/// Prompt text comes from a PromptWriter (synthetic words, exact synthetic text under a
/// tokenizer, or a ShareGPT prompt); see there. A ShareGPT conversation's system text leads:
/// as a system message (chat), or before the prompt and a blank line (completions, as
/// buildConversation joins messages).
/// max_tokens: the session's drawn output length, capped by sampling.max_tokens when set.
class RequestBodyBuilder {
 public:
  explicit RequestBodyBuilder(const WorkerConfig& config);
  void build(const workload::SessionPlan& session, std::string& out);
  /// A body for an explicit conversation (sessions): chat sends `messages` as given ([{role,
  /// content}...]); completions sends their contents joined by blank lines as the prompt.
  void buildConversation(const nlohmann::json& messages, uint32_t outputTokens, std::string& out) const;
  /// Synthetic text of `tokens` tokens for prompt `promptId` (see PromptWriter).
  void appendSynthetic(uint64_t promptId, uint32_t tokens, std::string& out) {
    m_prompts.appendSynthetic(promptId, tokens, out);
  }
  /// See PromptWriter::appendBlocks and PromptWriter::datasetTurn.
  void appendBlocks(const std::vector<uint32_t>& hashIds, uint32_t tokens, uint64_t promptId, std::string& out) {
    m_prompts.appendBlocks(hashIds, tokens, promptId, out);
  }
  const std::string& datasetTurn(uint64_t sessionId, size_t k) const { return m_prompts.datasetTurn(sessionId, k); }
  const std::string& datasetSystem(uint64_t sessionId) const {
    return m_prompts.datasetSystem(sessionId);
  }

  const workload::PromptMaterials& promptMaterials() const { return m_prompts.materials(); }

 private:
  void appendPrompt(const workload::SessionPlan& session, std::string& out);
  void appendMaxTokens(uint32_t outputTokens, std::string& out) const;
  const WorkerConfig& m_config;
  PromptWriter m_prompts;
  std::string m_head;  ///< {"model":...,
  std::string m_tail;  ///< stream flags, sampling, extra fields and the closing brace
};

}  // namespace plumbline::engine
