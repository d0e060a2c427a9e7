#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace plumbline::tokenizer {

/// A Hugging Face `Split` step: a PCRE2 pattern (UTF + UCP, JIT-compiled when the platform
/// allows) that cuts text into pieces. Holds its match data, so one instance serves one thread.
class RegexSplitter {
 public:
  /// What becomes of the matches: Isolated keeps matches and the text between them as pieces;
  /// KeepMatches keeps only the matches (Hugging Face's "Removed" with invert: true).
  enum class Behavior { Isolated, KeepMatches };

  /// Throws std::invalid_argument with PCRE2's message and offset for a bad pattern.
  /// `literal` treats the pattern as plain text (a Split whose pattern is {"String": ...}).
  RegexSplitter(const std::string& source, Behavior behavior, bool literal = false);
  ~RegexSplitter();
  RegexSplitter(RegexSplitter&& other) noexcept;
  RegexSplitter& operator=(RegexSplitter&& other) noexcept;
  RegexSplitter(const RegexSplitter&) = delete;
  RegexSplitter& operator=(const RegexSplitter&) = delete;

  /// Appends the pieces of `text` (valid UTF-8) to `pieces`, in order; views into `text`.
  void split(std::string_view text, std::vector<std::string_view>& pieces);
  bool usesJit() const { return m_jit; }

 private:
  struct Compiled;
  std::unique_ptr<Compiled> m_compiled;
  Behavior m_behavior;
  bool m_jit = false;
};

}  // namespace plumbline::tokenizer
