#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/workload/prompt_spec.h"
#include "core/workload/prompt_token_counter.h"
#include "core/workload/sharegpt_dataset.h"

namespace plumbline::workload {

/// A later exchange of a prompt's conversation: a human turn and the model turn answering it.
struct ShareGptExchange {
  size_t humanTurn = 0;       ///< index into the conversation's turns
  std::string cut;            ///< the human text cut to max_input_tokens; empty when whole
  uint32_t inputTokens = 0;   ///< of the (cut) human text
  uint32_t outputTokens = 0;  ///< of the model turn, clamped to [1, max_output_tokens]
};

/// One usable prompt of a ShareGPT file, already filtered and truncated.
struct ShareGptPrompt {
  size_t conversation = 0;    ///< index into the dataset's conversations()
  std::string text;           ///< the first human turn (cut to max_input_tokens)
  uint32_t inputTokens = 0;   ///< of `text`, under the counter it was built with
  uint32_t outputTokens = 0;  ///< of the following model turn, clamped to max_output_tokens
  bool truncated = false;
  /// The conversation's system turns before its first human turn, joined by blank lines (sent
  /// whole, as the system message that leads the conversation); empty when it has none.
  std::string system;
  uint32_t systemTokens = 0;  ///< of `system`
  /// The exchanges after the first, in order, for multi-turn sessions: each human turn that
  /// directly follows the previous model turn and is answered by a non-empty model turn; the
  /// list ends where the conversation stops alternating that way. Same cut and clamp policy.
  std::vector<ShareGptExchange> laterTurns;

  /// What the first request sends: the system text and the prompt.
  uint32_t firstRequestTokens() const { return systemTokens + inputTokens; }
};

/// The prompts a workload can send from a ShareGPT file, and the deterministic choice of one
/// per session. Policy (the only one, see DESIGN/README): input = the first human turn, led by
/// the system turns before it, output length = the model turn right after it; entries without such
/// a pair, with an empty reply, or with an input shorter than min_input_tokens are skipped; longer
/// inputs are cut to their first max_input_tokens tokens ("keep_start"); output lengths are clamped
/// to [1, max_output_tokens].
class ShareGptPrompts {
 public:
  /// Throws WorkloadError(file, ...) when no entry is usable. Keeps a reference to `dataset`.
  ShareGptPrompts(const ShareGptDataset& dataset, const ShareGptSpec& spec, PromptTokenCounter& counter);

  /// The prompt of a session: uniform over the usable prompts, with replacement, from a
  /// stream derived from (seed, session id) — independent of workers and shards.
  const ShareGptPrompt& pick(uint64_t seed, uint64_t sessionId) const;
  const std::vector<ShareGptPrompt>& prompts() const { return m_prompts; }
  /// The human text of exchange `k` of a prompt's conversation (0: the prompt itself).
  /// The dataset given to the constructor must still be alive.
  const std::string& humanText(const ShareGptPrompt& prompt, size_t k) const;

  size_t entries = 0;          ///< conversations in the file
  size_t skippedNoPair = 0;    ///< no human turn followed by a non-empty model turn
  size_t skippedTooShort = 0;  ///< input below min_input_tokens
  size_t truncatedInputs = 0;  ///< cut to max_input_tokens
  size_t withSystemTurn = 0;   ///< usable prompts led by a system turn

 private:
  const ShareGptDataset* m_dataset;
  std::vector<ShareGptPrompt> m_prompts;
};

}  // namespace plumbline::workload
