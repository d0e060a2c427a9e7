#include "core/util/shown_key.h"

#include <cstdio>

namespace plumbline::util {

std::string shownKey(std::string_view key) {
  constexpr size_t kMaxShown = 64;
  std::string out;
  for (const char ch : key) {
    if (out.size() >= kMaxShown) return out + "...";
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += ch;
    }
  }
  return out;
}

}  // namespace plumbline::util
