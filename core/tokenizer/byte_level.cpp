#include "core/tokenizer/byte_level.h"

#include "core/tokenizer/utf8.h"

namespace plumbline::tokenizer {

ByteLevelAlphabet::ByteLevelAlphabet() {
  m_byteOfCodePoint.fill(-1);
  char32_t next = 256;
  for (int byte = 0; byte < 256; ++byte) {
    const bool printable = (byte >= '!' && byte <= '~') || (byte >= 0xA1 && byte <= 0xAC) ||
                           (byte >= 0xAE && byte <= 0xFF);
    const char32_t codePoint = printable ? static_cast<char32_t>(byte) : next++;
    appendUtf8(m_symbols[static_cast<size_t>(byte)], codePoint);
    m_byteOfCodePoint[codePoint] = static_cast<int16_t>(byte);
  }
}

std::string ByteLevelAlphabet::encode(std::string_view bytes) const {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) out += m_symbols[static_cast<unsigned char>(c)];
  return out;
}

std::optional<std::string> ByteLevelAlphabet::decode(std::string_view symbols) const {
  std::string out;
  out.reserve(symbols.size());
  for (size_t offset = 0; offset < symbols.size();) {
    const char32_t codePoint = nextCodePoint(symbols, offset);
    if (codePoint >= m_byteOfCodePoint.size() || m_byteOfCodePoint[codePoint] < 0)
      return std::nullopt;
    out.push_back(static_cast<char>(m_byteOfCodePoint[codePoint]));
  }
  return out;
}

}  // namespace plumbline::tokenizer
