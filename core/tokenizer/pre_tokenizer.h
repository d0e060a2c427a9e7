#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/tokenizer/regex_splitter.h"

namespace plumbline::tokenizer {

class JsonSource;  // core/tokenizer/json_source.h

/// The `pre_tokenizer` of a byte-level BPE tokenizer.json: Split steps (regex or literal) and
/// one ByteLevel step, alone or in a Sequence. Pieces stay raw UTF-8 bytes: the byte-level
/// mapping is one symbol per byte, so the model applies it when it looks bytes up.
class PreTokenizer {
 public:
  /// Throws TokenizerError for a missing ByteLevel step or a kind this implementation lacks.
  static PreTokenizer fromJson(const JsonSource& source);

  /// `text` with the ByteLevel prefix space when configured (stored in `buffer` if added).
  std::string_view withPrefixSpace(std::string_view text, std::string& buffer) const;
  /// Appends the pieces of `text` (valid UTF-8, prefix already applied) to `pieces`.
  void split(std::string_view text, std::vector<std::string_view>& pieces);
  bool usesJit() const;

 private:
  PreTokenizer() = default;
  void addStep(const JsonSource& step, bool first);
  void addSplit(const JsonSource& step);
  void addByteLevel(const JsonSource& step, bool first);

  std::vector<RegexSplitter> m_steps;
  std::vector<std::string_view> m_scratch;
  bool m_byteLevel = false;
  bool m_addPrefixSpace = false;
};

}  // namespace plumbline::tokenizer
