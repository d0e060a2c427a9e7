#include "core/workload/prompt_token_counter.h"

#include <cctype>
#include <vector>

#include "core/mock/mock_request.h"

namespace plumbline::workload {
namespace {

bool isSpaceCharacter(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

/// Where the `words`-th word ends (0 = nothing kept).
size_t endOfWord(std::string_view text, size_t words) {
  size_t seen = 0, i = 0;
  while (i < text.size() && seen < words) {
    while (i < text.size() && isSpaceCharacter(text[i])) ++i;
    if (i == text.size()) break;
    while (i < text.size() && !isSpaceCharacter(text[i])) ++i;
    ++seen;
  }
  return seen == 0 ? 0 : i;
}

}  // namespace

size_t PromptTokenCounter::count(std::string_view text) {
  return m_tokenizer ? m_tokenizer->countTokens(text) : static_cast<size_t>(mock::countWords(text));
}

std::string PromptTokenCounter::keepStart(std::string_view text, size_t tokens) {
  if (!m_tokenizer) return std::string(text.substr(0, endOfWord(text, tokens)));
  std::vector<int32_t> ids = m_tokenizer->encode(text);
  if (ids.size() <= tokens) return std::string(text);
  // Decoding a cut sequence and encoding it again can merge across the cut (or leave a
  // partial UTF-8 character as U+FFFD): step back until the result fits.
  for (size_t keep = tokens; keep > 0; --keep) {
    std::string cut = m_tokenizer->decode(std::span<const int32_t>(ids.data(), keep));
    if (m_tokenizer->countTokens(cut) <= tokens) return cut;
  }
  return {};
}

}  // namespace plumbline::workload
