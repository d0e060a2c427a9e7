#include "core/workload/sharegpt_prompts.h"

#include <algorithm>

#include "core/util/rng.h"
#include "core/workload/workload_error.h"

namespace plumbline::workload {
namespace {

constexpr uint64_t kPickStream = 5'000'000'000ULL;

/// Index of the first human turn that a non-empty model turn answers, or -1.
long firstExchange(const ShareGptConversation& c) {
  for (size_t i = 0; i + 1 < c.turns.size(); ++i) {
    if (isHumanRole(c.turns[i].from) && isModelRole(c.turns[i + 1].from) && !c.turns[i + 1].value.empty())
      return static_cast<long>(i);
    if (isHumanRole(c.turns[i].from)) return -1;  // the first human turn went unanswered
  }
  return -1;
}

/// The system turns before the human turn at `first`, joined by blank lines. A system turn
/// later in a conversation is not one of them: it breaks the alternation, which ends the replay.
std::string leadingSystem(const ShareGptConversation& c, size_t first) {
  std::string text;
  for (size_t i = 0; i < first; ++i) {
    if (!isSystemRole(c.turns[i].from) || c.turns[i].value.empty()) continue;
    if (!text.empty()) text.append("\n\n");
    text.append(c.turns[i].value);
  }
  return text;
}

struct CutText {
  std::string text;  ///< empty when the input fits
  size_t tokens = 0;
};

/// The keep_start policy: an input over max_input_tokens keeps its first max_input_tokens.
CutText cutInput(const std::string& input, const ShareGptSpec& spec, PromptTokenCounter& counter) {
  CutText cut;
  cut.tokens = counter.count(input);
  if (cut.tokens > static_cast<size_t>(spec.maxInputTokens)) {
    cut.text = counter.keepStart(input, static_cast<size_t>(spec.maxInputTokens));
    cut.tokens = counter.count(cut.text);
  }
  return cut;
}

uint32_t replyTokens(const std::string& reply, const ShareGptSpec& spec, PromptTokenCounter& counter) {
  const size_t tokens = std::max<size_t>(1, counter.count(reply));
  return static_cast<uint32_t>(std::min<size_t>(tokens, static_cast<size_t>(spec.maxOutputTokens)));
}

/// Exchanges after the one at `first`: human right after the previous model turn, answered
/// by a non-empty model turn; stops at the first turn that breaks the alternation.
std::vector<ShareGptExchange> laterExchanges(const ShareGptConversation& c, size_t first, const ShareGptSpec& spec,
                                             PromptTokenCounter& counter) {
  std::vector<ShareGptExchange> out;
  for (size_t i = first + 2; i + 1 < c.turns.size(); i += 2) {
    if (!isHumanRole(c.turns[i].from) || !isModelRole(c.turns[i + 1].from) || c.turns[i + 1].value.empty()) break;
    CutText cut = cutInput(c.turns[i].value, spec, counter);
    if (cut.tokens == 0) break;  // an empty user message is not a turn anyone sends
    out.push_back(ShareGptExchange{i, std::move(cut.text), static_cast<uint32_t>(cut.tokens),
                                   replyTokens(c.turns[i + 1].value, spec, counter)});
  }
  return out;
}

}  // namespace

ShareGptPrompts::ShareGptPrompts(const ShareGptDataset& dataset, const ShareGptSpec& spec,
                                 PromptTokenCounter& counter)
    : m_dataset(&dataset) {
  const auto& conversations = dataset.conversations();
  entries = conversations.size();
  for (size_t i = 0; i < conversations.size(); ++i) {
    const long at = firstExchange(conversations[i]);
    if (at < 0) {
      ++skippedNoPair;
      continue;
    }
    const std::string& input = conversations[i].turns[static_cast<size_t>(at)].value;
    const std::string& reply = conversations[i].turns[static_cast<size_t>(at) + 1].value;
    ShareGptPrompt p;
    p.conversation = i;
    size_t inputTokens = counter.count(input);
    if (inputTokens < static_cast<size_t>(spec.minInputTokens)) {
      ++skippedTooShort;
      continue;
    }
    if (inputTokens > static_cast<size_t>(spec.maxInputTokens)) {
      p.text = counter.keepStart(input, static_cast<size_t>(spec.maxInputTokens));
      inputTokens = counter.count(p.text);
      p.truncated = true;
      ++truncatedInputs;
      if (inputTokens < static_cast<size_t>(spec.minInputTokens)) {
        ++skippedTooShort;
        continue;
      }
    } else {
      p.text = input;
    }
    p.inputTokens = static_cast<uint32_t>(inputTokens);
    p.outputTokens = replyTokens(reply, spec, counter);
    p.laterTurns = laterExchanges(conversations[i], static_cast<size_t>(at), spec, counter);
    p.system = leadingSystem(conversations[i], static_cast<size_t>(at));
    p.systemTokens = static_cast<uint32_t>(counter.count(p.system));
    withSystemTurn += p.system.empty() ? 0 : 1;
    m_prompts.push_back(std::move(p));
  }
  if (m_prompts.empty())
    throw WorkloadError(dataset.file(),
                        "no usable prompt among " + std::to_string(entries) + " entries (" +
                            std::to_string(skippedNoPair) + " without a human turn answered by a model turn, " +
                            std::to_string(skippedTooShort) + " shorter than min_input_tokens " +
                            std::to_string(spec.minInputTokens) + ")");
}

const std::string& ShareGptPrompts::humanText(const ShareGptPrompt& prompt, size_t k) const {
  if (k == 0) return prompt.text;
  const ShareGptExchange& e = prompt.laterTurns.at(k - 1);
  if (!e.cut.empty()) return e.cut;
  return m_dataset->conversations()[prompt.conversation].turns[e.humanTurn].value;
}

const ShareGptPrompt& ShareGptPrompts::pick(uint64_t seed, uint64_t sessionId) const {
  util::Rng rng = util::Rng::forStream(seed, kPickStream + sessionId);
  return m_prompts[rng.nextU64() % m_prompts.size()];
}

}  // namespace plumbline::workload
