#include "core/tokenizer/added_tokens.h"

#include "core/tokenizer/bpe_model.h"
#include "core/tokenizer/json_source.h"

#include <algorithm>

namespace plumbline::tokenizer {

AddedTokens AddedTokens::fromJson(const JsonSource& source) {
  AddedTokens result;
  if (source.isNull()) return result;
  for (size_t i = 0; i < source.array().size(); ++i) {
    const JsonSource entry = source.element(i);
    Token token{entry.child("content").string(), 0, entry.booleanOr("special", false)};
    const int64_t id = entry.child("id").integer();
    if (id < 0 || id > BpeModel::kMaxTokenId) entry.child("id").fail(BpeModel::kTokenIdExpected);
    token.id = static_cast<int32_t>(id);
    if (token.content.empty()) entry.child("content").fail("an added token cannot be empty");
    for (const char* flag : {"lstrip", "rstrip", "single_word"})
      if (entry.booleanOr(flag, false))
        entry.child(flag).fail("added tokens with this flag are not supported");
    result.m_firstByte[static_cast<unsigned char>(token.content[0])] = true;
    result.m_tokens.push_back(std::move(token));
  }
  std::stable_sort(
      result.m_tokens.begin(), result.m_tokens.end(),
      [](const Token& a, const Token& b) { return a.content.size() > b.content.size(); });
  return result;
}

const AddedTokens::Token* AddedTokens::longestAt(std::string_view text, size_t offset) const {
  if (!m_firstByte[static_cast<unsigned char>(text[offset])]) return nullptr;
  const std::string_view rest = text.substr(offset);
  for (const Token& token : m_tokens)
    if (rest.starts_with(token.content)) return &token;
  return nullptr;
}

void AddedTokens::split(std::string_view text, std::vector<Segment>& segments) const {
  size_t plainStart = 0;
  for (size_t offset = 0; offset < text.size();) {
    const Token* token = m_tokens.empty() ? nullptr : longestAt(text, offset);
    if (token == nullptr) {
      ++offset;
      continue;
    }
    if (offset > plainStart)
      segments.push_back(Segment{text.substr(plainStart, offset - plainStart), -1});
    segments.push_back(Segment{text.substr(offset, token->content.size()), token->id});
    offset += token->content.size();
    plainStart = offset;
  }
  if (plainStart < text.size()) segments.push_back(Segment{text.substr(plainStart), -1});
}

}  // namespace plumbline::tokenizer
