#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/tokenizer/tokenizer.h"

namespace plumbline::tokenizer {

/// Builds prompts of an exact token length under a tokenizer: English-looking sentences from a
/// fixed word list, drawn by seed, then trimmed or extended a word at a time while re-counting
/// the whole prompt until the count is exact.
class SyntheticPromptBuilder {
 public:
  /// Keeps the words of the built-in list that are one token under `tokenizer`, with and
  /// without a leading space. Throws std::runtime_error when fewer than 16 qualify.
  explicit SyntheticPromptBuilder(Tokenizer& tokenizer);

  /// A prompt of exactly `tokens` tokens; the same (tokens, seed) gives the same text. Throws
  /// std::runtime_error in the (not observed) case that re-counting does not converge.
  std::string build(size_t tokens, uint64_t seed);
  /// The tokenizer file the lengths hold for.
  const std::string& tokenizerFile() const { return m_tokenizer.file(); }
  size_t wordCount() const { return m_words.size(); }

 private:
  struct Draft;
  void appendUnit(Draft& draft) const;

  Tokenizer& m_tokenizer;
  std::vector<std::string> m_words;  // without the leading space
  bool m_periodIsOneToken = false;
};

}  // namespace plumbline::tokenizer
