#include "core/mock/completion_formatter.h"

#include <algorithm>
#include <cstdio>

namespace plumbline::mock {
namespace {
constexpr std::string_view kToken = "tok ";

void appendTokens(std::string& out, int64_t count) {
  for (int64_t i = 0; i < count; ++i) out += kToken;
}
}  // namespace

std::string jsonEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

CompletionFormatter::CompletionFormatter(const MockRequest& request, int64_t completionTokens,
                                         uint64_t id, int64_t created, int64_t thinkingTokens)
    : m_kind(request.kind),
      m_includeUsage(request.includeUsage),
      m_completionTokens(completionTokens),
      m_thinkingTokens(request.kind == ApiKind::Chat ? std::max<int64_t>(0, thinkingTokens) : 0),
      m_promptTokens(request.promptTokens),
      m_hitMaxTokens(request.maxTokens && completionTokens >= *request.maxTokens) {
  m_id = (m_kind == ApiKind::Chat ? "chatcmpl-mock-" : "cmpl-mock-") + std::to_string(id);
  m_createdAndModel = ",\"created\":" + std::to_string(created) + ",\"model\":\"" + jsonEscape(request.model) + "\"";
}

const char* CompletionFormatter::finishReason() const { return m_hitMaxTokens ? "\"length\"" : "\"stop\""; }

void CompletionFormatter::appendHead(std::string& out, bool chunk) const {
  out += "{\"id\":\"";
  out += m_id;
  out += "\",\"object\":";
  if (m_kind == ApiKind::Chat) {
    out += chunk ? "\"chat.completion.chunk\"" : "\"chat.completion\"";
  } else {
    out += "\"text_completion\"";
  }
  out += m_createdAndModel;
}

void CompletionFormatter::appendUsage(std::string& out) const {
  out += "\"usage\":{\"prompt_tokens\":";
  out += std::to_string(m_promptTokens);
  out += ",\"completion_tokens\":";
  out += std::to_string(m_completionTokens);
  out += ",\"total_tokens\":";
  out += std::to_string(m_promptTokens + m_completionTokens);
  out += '}';
}

void CompletionFormatter::appendMalformedChunk(std::string& out) const {
  out += "data: ";
  appendHead(out, true);
  out += ",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"tok \n\n";
}

void CompletionFormatter::appendChatText(std::string& out, int64_t index, int64_t count) const {
  const int64_t thinking = std::clamp<int64_t>(m_thinkingTokens - index, 0, count);
  if (thinking > 0) {
    out += "\"reasoning_content\":\"";
    appendTokens(out, thinking);
    out += '"';
  }
  if (thinking < count || thinking == 0) {  // a speculative step can cross into the answer
    out += thinking > 0 ? ",\"content\":\"" : "\"content\":\"";
    appendTokens(out, count - thinking);
    out += '"';
  }
}

void CompletionFormatter::appendTokenChunk(std::string& out, int64_t index, int64_t count) const {
  const bool last = index + count >= m_completionTokens;
  out += "data: ";
  appendHead(out, true);
  out += ",\"choices\":[{\"index\":0,";
  if (m_kind == ApiKind::Chat) {
    out += index == 0 ? "\"delta\":{\"role\":\"assistant\"," : "\"delta\":{";
    appendChatText(out, index, count);
    out += '}';
  } else {
    out += "\"text\":\"";
    appendTokens(out, count);
    out += '"';
  }
  out += ",\"logprobs\":null,\"finish_reason\":";
  out += last ? finishReason() : "null";
  out += m_includeUsage ? "}],\"usage\":null}\n\n" : "}]}\n\n";
}

void CompletionFormatter::appendStreamEnd(std::string& out) const {
  if (m_includeUsage) {
    out += "data: ";
    appendHead(out, true);
    out += ",\"choices\":[],";
    appendUsage(out);
    out += "}\n\n";
  }
  out += "data: [DONE]\n\n";
}

void CompletionFormatter::appendFullBody(std::string& out) const {
  appendHead(out, false);
  out += ",\"choices\":[{\"index\":0,";
  if (m_kind == ApiKind::Chat) {
    const int64_t thinking = std::min(m_thinkingTokens, m_completionTokens);
    out += "\"message\":{\"role\":\"assistant\",\"content\":\"";
    appendTokens(out, m_completionTokens - thinking);
    out += '"';
    if (thinking > 0) {
      out += ",\"reasoning_content\":\"";
      appendTokens(out, thinking);
      out += '"';
    }
    out += '}';
  } else {
    out += "\"text\":\"";
    appendTokens(out, m_completionTokens);
    out += '"';
  }
  out += ",\"logprobs\":null,\"finish_reason\":";
  out += finishReason();
  out += "}],";
  appendUsage(out);
  out += '}';
}

}  // namespace plumbline::mock
