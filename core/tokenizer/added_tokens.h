#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plumbline::tokenizer {

class JsonSource;  // core/tokenizer/json_source.h

/// The `added_tokens` of a tokenizer.json (<|im_start|>, <think>…): matched literally in the
/// raw text before normalization and pre-tokenization, leftmost-longest, each becoming its id.
class AddedTokens {
 public:
  struct Token {
    std::string content;
    int32_t id = 0;
    bool special = false;
  };
  /// A stretch of input: either plain text (id < 0) or one added token.
  struct Segment {
    std::string_view text;
    int32_t id = -1;
  };

  /// Throws TokenizerError for malformed entries; lstrip/rstrip/single_word are refused.
  static AddedTokens fromJson(const JsonSource& source);

  /// Appends the segments of `text` to `segments`, in order.
  void split(std::string_view text, std::vector<Segment>& segments) const;
  const std::vector<Token>& tokens() const { return m_tokens; }

 private:
  /// The longest token starting at text[offset], or nullptr.
  const Token* longestAt(std::string_view text, size_t offset) const;

  std::vector<Token> m_tokens;          // longest content first
  std::array<bool, 256> m_firstByte{};  // bytes some token starts with
};

}  // namespace plumbline::tokenizer
