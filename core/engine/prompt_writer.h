#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/workload/planner.h"
#include "core/workload/prompt_materials.h"
#include "core/workload/prompt_spec.h"

namespace plumbline::engine {

/// Writes each request's prompt text into its body, already JSON-escaped. Everything costly
/// (loading the tokenizer and dataset, escaping dataset texts) happens in the constructor,
/// before the run's t0; per request it only appends text:
/// - synthetic, no tokenizer: `inputTokens` words from a fixed list (the approximation: the
///   embedded mock counts one token per word; a real tokenizer counts differently);
/// - synthetic with a tokenizer: SyntheticPromptBuilder::compose, exact under it (checked
///   for this tokenizer when the workload was loaded);
/// - sharegpt: the text of the session's prompt (ShareGptPrompts::pick), whose token count
///   the planner already put in inputTokens, with its conversation's system text (escapedSystem).
/// Words are chosen by (prompt seed, id), so sessions differ and no two share a prefix cache.
class PromptWriter {
 public:
  /// Throws workload::WorkloadError when a file cannot be loaded.
  PromptWriter(const workload::PromptSpec& spec, uint64_t promptSeed);

  void append(const workload::SessionPlan& session, std::string& out);
  /// Synthetic text of `tokens` tokens for prompt `promptId` (sessions use their id).
  void appendSynthetic(uint64_t promptId, uint32_t tokens, std::string& out);
  /// A replayed trace row's prompt of `tokens` tokens built from its prefix blocks
  /// (workload::promptBlockLayout): each block's text depends only on its hash id, so rows
  /// sharing ids share that prefix; the tokens past the blocks are text of prompt `promptId`.
  void appendBlocks(const std::vector<uint32_t>& hashIds, uint32_t tokens, uint64_t promptId, std::string& out);
  /// The human text of exchange `k` of session `sessionId`'s ShareGPT conversation (raw, not
  /// escaped). Throws std::logic_error without a ShareGPT source or past the exchanges.
  const std::string& datasetTurn(uint64_t sessionId, size_t k) const;
  /// The system text of session `sessionId`'s ShareGPT conversation (raw, not escaped); empty
  /// when it has none or the source is not ShareGPT.
  const std::string& datasetSystem(uint64_t sessionId) const;
  /// The same, JSON-escaped, for a body written by hand.
  const std::string& escapedSystem(const workload::SessionPlan& session) const;
  const std::string& basis() const { return m_basis; }
  /// The loaded tokenizer and dataset (the worker counts reply tokens with the tokenizer).
  const workload::PromptMaterials& materials() const { return *m_materials; }

 private:
  uint64_t m_seed;
  std::string m_basis;
  std::shared_ptr<workload::PromptMaterials> m_materials;
  std::vector<std::string> m_escaped;        ///< sharegpt texts as JSON string content
  std::vector<std::string> m_escapedSystem;  ///< their conversations' system texts, the same way
};

}  // namespace plumbline::engine
