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

}  // namespace

ShareGptPrompts::ShareGptPrompts(const ShareGptDataset& dataset, const ShareGptSpec& spec,
                                 PromptTokenCounter& counter) {
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
    const size_t outputTokens = std::max<size_t>(1, counter.count(reply));
    p.outputTokens = static_cast<uint32_t>(std::min<size_t>(outputTokens, static_cast<size_t>(spec.maxOutputTokens)));
    m_prompts.push_back(std::move(p));
  }
  if (m_prompts.empty())
    throw WorkloadError(dataset.file(),
                        "no usable prompt among " + std::to_string(entries) + " entries (" +
                            std::to_string(skippedNoPair) + " without a human turn answered by a model turn, " +
                            std::to_string(skippedTooShort) + " shorter than min_input_tokens " +
                            std::to_string(spec.minInputTokens) + ")");
}

const ShareGptPrompt& ShareGptPrompts::pick(uint64_t seed, uint64_t sessionId) const {
  util::Rng rng = util::Rng::forStream(seed, kPickStream + sessionId);
  return m_prompts[rng.nextU64() % m_prompts.size()];
}

}  // namespace plumbline::workload
