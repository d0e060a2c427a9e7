#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/tokenizer/tokenizer.h"

namespace plumbline::tokenizer {

/// Builds prompts of an exact token length under a tokenizer: English-looking sentences from a
/// fixed word list, drawn by seed. Every unit (a word with its leading space, or a period) is
/// one token on its own, and the pre-tokenizers of the byte-level BPE family split text at
/// each unit, so N units are N tokens: compose() relies on that and counts nothing (cheap
/// enough for a send path); build() re-counts and trims or extends until exact.
/// checkComposition() proves the assumption for a tokenizer before a run relies on it.
class SyntheticPromptBuilder {
 public:
  /// Keeps the words of the built-in list that are one token under `tokenizer`, with and
  /// without a leading space. Throws std::runtime_error when fewer than 16 qualify.
  explicit SyntheticPromptBuilder(Tokenizer& tokenizer);

  /// A prompt of exactly `tokens` tokens; the same (tokens, seed) gives the same text. Throws
  /// std::runtime_error in the (not observed) case that re-counting does not converge.
  std::string build(size_t tokens, uint64_t seed);
  /// Appends the text build() starts from: `tokens` units, without counting. Equal to
  /// build(tokens, seed) whenever the tokenizer splits at every unit (checkComposition).
  void compose(size_t tokens, uint64_t seed, std::string& out);
  /// Composes prompts of `lengths` × `seeds` and counts them; returns a description of the
  /// first whose count differs ("asked 8, counted 7 (seed 2)"), or "" when all are exact.
  std::string checkComposition(const std::vector<size_t>& lengths, const std::vector<uint64_t>& seeds);
  /// The tokenizer file the lengths hold for.
  const std::string& tokenizerFile() const { return m_tokenizer.file(); }
  size_t wordCount() const { return m_words.size(); }

 private:
  struct Draft;
  void appendUnit(Draft& draft) const;

  Tokenizer& m_tokenizer;
  std::vector<std::string> m_words;  // without the leading space
  bool m_periodIsOneToken = false;
  std::string m_scratch;
};

}  // namespace plumbline::tokenizer
