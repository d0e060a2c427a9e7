#include "core/net/content_encoding.h"

#include <algorithm>
#include <cctype>

namespace plumbline::net {

std::string bodyContentCoding(std::string_view value) {
  const auto space = [](char c) { return c == ' ' || c == '\t'; };
  while (!value.empty() && space(value.front())) value.remove_prefix(1);
  while (!value.empty() && space(value.back())) value.remove_suffix(1);
  const bool identity =
      value.size() == 8 && std::equal(value.begin(), value.end(), "identity", [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == b;
      });
  if (value.empty() || identity) return {};
  return std::string(value.substr(0, kMaxContentCoding));
}

std::string unaskedContentCodingText(std::string_view coding, bool completion) {
  return "the reply is Content-Encoding: " + std::string(coding) +
         ", which was not asked for (the request sends no Accept-Encoding); " +
         (completion ? "its body cannot be read as a completion" : "its body is not shown");
}

}  // namespace plumbline::net
