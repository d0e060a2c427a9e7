#pragma once
// Renders OpenAI-format response bodies and SSE chunks for one mock completion.
#include <cstdint>
#include <string>

#include "core/mock/mock_request.h"

namespace plumbline::mock {

/// Appends OpenAI's exact wire format (chat.completion[.chunk] or text_completion) to
/// a string; one instance per response, so the constant prefix is rendered once.
class CompletionFormatter {
 public:
  /// `thinkingTokens`: a chat reply's first tokens are a reasoning model's thinking, sent as
  /// `reasoning_content` (a completions reply has no such field: its text is all answer).
  CompletionFormatter(const MockRequest& request, int64_t completionTokens, uint64_t id,
                      int64_t created, int64_t thinkingTokens = 0);

  /// `data: {...}\n\n` for `count` tokens from `index` (0-based) in one chunk (a speculative
  /// step yields several): the first carries the role, the last the finish_reason.
  void appendTokenChunk(std::string& out, int64_t index, int64_t count = 1) const;
  /// A chunk whose JSON is cut short (fault injection).
  void appendMalformedChunk(std::string& out) const;
  /// The include_usage chunk (empty choices) when requested, then `data: [DONE]`.
  void appendStreamEnd(std::string& out) const;
  /// The whole non-streaming JSON body.
  void appendFullBody(std::string& out) const;

  int64_t completionTokens() const { return m_completionTokens; }

 private:
  void appendHead(std::string& out, bool chunk) const;
  void appendUsage(std::string& out) const;
  /// The chat fields of tokens [index, index + count): thinking, answer, or both at the turn.
  void appendChatText(std::string& out, int64_t index, int64_t count) const;
  const char* finishReason() const;

  ApiKind m_kind;
  bool m_includeUsage;
  int64_t m_completionTokens;
  int64_t m_thinkingTokens;  ///< of m_completionTokens; 0 for completions
  int64_t m_promptTokens;
  bool m_hitMaxTokens;
  std::string m_id;
  std::string m_createdAndModel;  ///< `,"created":…,"model":"…"`, rendered once
};

/// Escapes a string for inclusion between JSON double quotes.
std::string jsonEscape(std::string_view text);

}  // namespace plumbline::mock
