#include "core/tokenizer/utf8.h"

namespace plumbline::tokenizer {

namespace {

/// Length of the valid sequence at text[i], or 0 with `bad` set to the bytes to replace.
size_t validSequenceLength(std::string_view text, size_t i, size_t& bad) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char lead = byte(0);
  bad = 1;
  if (lead < 0x80) return 1;
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF)
    length = 2;
  else if (lead >= 0xE0 && lead <= 0xEF)
    length = 3;
  else if (lead >= 0xF0 && lead <= 0xF4)
    length = 4;
  else
    return 0;
  if (lead == 0xE0) low = 0xA0;
  if (lead == 0xED) high = 0x9F;
  if (lead == 0xF0) low = 0x90;
  if (lead == 0xF4) high = 0x8F;
  for (size_t k = 1; k < length; ++k) {
    if (i + k >= text.size()) return 0;
    const unsigned char next = byte(k);
    if (next < (k == 1 ? low : 0x80) || next > (k == 1 ? high : 0xBF)) return 0;
    bad = k + 1;
  }
  return length;
}

}  // namespace

bool isValidUtf8(std::string_view text) {
  size_t bad = 0;
  for (size_t i = 0; i < text.size();) {
    const size_t length = validSequenceLength(text, i, bad);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

std::string toValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t bad = 0;
  for (size_t i = 0; i < text.size();) {
    const size_t length = validSequenceLength(text, i, bad);
    if (length == 0) {
      out += "\xEF\xBF\xBD";
      i += bad;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

void appendUtf8(std::string& out, char32_t codePoint) {
  const auto put = [&](uint32_t value) { out.push_back(static_cast<char>(value)); };
  const auto cp = static_cast<uint32_t>(codePoint);
  if (cp < 0x80) {
    put(cp);
  } else if (cp < 0x800) {
    put(0xC0 | (cp >> 6));
    put(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    put(0xE0 | (cp >> 12));
    put(0x80 | ((cp >> 6) & 0x3F));
    put(0x80 | (cp & 0x3F));
  } else {
    put(0xF0 | (cp >> 18));
    put(0x80 | ((cp >> 12) & 0x3F));
    put(0x80 | ((cp >> 6) & 0x3F));
    put(0x80 | (cp & 0x3F));
  }
}

char32_t nextCodePoint(std::string_view text, size_t& offset) {
  const auto lead = static_cast<unsigned char>(text[offset]);
  size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  uint32_t cp = length == 1   ? lead
                : length == 2 ? (lead & 0x1F)
                : length == 3 ? (lead & 0x0F)
                              : (lead & 0x07);
  for (size_t k = 1; k < length && offset + k < text.size(); ++k)
    cp = (cp << 6) | (static_cast<unsigned char>(text[offset + k]) & 0x3F);
  offset += length;
  return static_cast<char32_t>(cp);
}

}  // namespace plumbline::tokenizer
