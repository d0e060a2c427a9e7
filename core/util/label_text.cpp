#include "core/util/label_text.h"

#include <cstdio>

#include "core/tokenizer/utf8.h"

namespace plumbline::util {

namespace {

bool isControl(char32_t c) { return c < 0x20 || (c >= 0x7F && c <= 0x9F); }

/// The length of the well-formed character at text[i], or 0 when the bytes there are not one.
size_t characterLength(std::string_view text, size_t i) {
  for (size_t length = 1; length <= 4 && i + length <= text.size(); ++length)
    if (tokenizer::isValidUtf8(text.substr(i, length))) return length;
  return 0;
}

std::string hex(const char* format, unsigned value) {
  char buf[16];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

/// "" or the first reason `text` fails: ill-formed UTF-8, then a control character not in
/// `allowed`, each located.
std::string textProblem(std::string_view text, std::string_view allowed) {
  size_t n = 1;
  for (size_t i = 0; i < text.size(); ++n) {
    const size_t length = characterLength(text, i);
    if (length == 0)
      return "must be valid UTF-8 (" + hex("byte 0x%02X", static_cast<unsigned char>(text[i])) +
             " at byte " + std::to_string(i + 1) + " is not)";
    size_t next = i;
    const char32_t c = tokenizer::nextCodePoint(text, next);
    if (isControl(c) && allowed.find(static_cast<char>(c)) == std::string_view::npos)
      return "must not contain control characters (" + hex("U+%04X", static_cast<unsigned>(c)) +
             " at character " + std::to_string(n) + ")";
    i += length;
  }
  return {};
}

}  // namespace

size_t characterCount(std::string_view text) {
  size_t n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

std::string labelProblem(std::string_view text, size_t maxCharacters) {
  if (text.empty()) return "must not be empty";
  if (tokenizer::isValidUtf8(text)) {
    if (const size_t n = characterCount(text); n > maxCharacters)
      return "must be at most " + std::to_string(maxCharacters) + " characters (it has " +
             std::to_string(n) + ")";
  }
  return textProblem(text, {});
}

std::string notesProblem(std::string_view text) { return textProblem(text, "\n\t"); }

std::string terminalSafe(std::string_view text, std::string_view keep) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t length = characterLength(text, i);
    if (length == 0) {
      out += hex("\\x%02X", static_cast<unsigned char>(text[i++]));
      continue;
    }
    size_t next = i;
    const char32_t c = tokenizer::nextCodePoint(text, next);
    if (isControl(c) && keep.find(static_cast<char>(c)) == std::string_view::npos)
      out += hex(c < 0x80 ? "\\x%02X" : "\\u%04X", static_cast<unsigned>(c));
    else
      out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

std::string trimmedLabel(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const size_t last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

}  // namespace plumbline::util
