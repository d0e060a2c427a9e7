#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/tokenizer/tokenizer.h"

namespace plumbline::workload {

/// Counts and cuts prompt text by tokens: with a tokenizer exactly, without one by the
/// documented approximation (one whitespace-separated word per token, as the embedded mock
/// counts: mock::countWords, the one definition). Not thread-safe (the tokenizer reuses buffers).
class PromptTokenCounter {
 public:
  /// `tokenizer` may be null (approximation); it must outlive the counter.
  explicit PromptTokenCounter(tokenizer::Tokenizer* tokenizer) : m_tokenizer(tokenizer) {}

  size_t count(std::string_view text);
  /// The longest start of `text` that has at most `tokens` tokens (whole words without a
  /// tokenizer; with one, the decoded first ids, shortened until it re-counts within bounds).
  std::string keepStart(std::string_view text, size_t tokens);
  bool exact() const { return m_tokenizer != nullptr; }

 private:
  tokenizer::Tokenizer* m_tokenizer;
};

}  // namespace plumbline::workload
