#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace plumbline::tokenizer {

/// GPT-2's byte-level alphabet: each of the 256 byte values stands for one printable code point
/// (bytes_to_unicode), so that BPE vocabularies hold any byte sequence as visible text.
class ByteLevelAlphabet {
 public:
  ByteLevelAlphabet();

  /// The UTF-8 text of the code point standing for `byte`.
  const std::string& symbol(unsigned char byte) const { return m_symbols[byte]; }
  /// `bytes` written in the alphabet ("Ġhello" for " hello").
  std::string encode(std::string_view bytes) const;
  /// The bytes a vocabulary entry stands for; nullopt when it holds a code point outside the
  /// alphabet. `symbols` must be valid UTF-8.
  std::optional<std::string> decode(std::string_view symbols) const;

 private:
  std::array<std::string, 256> m_symbols;
  std::array<int16_t, 512> m_byteOfCodePoint{};  // every symbol is below U+0144
};

}  // namespace plumbline::tokenizer
