#include "core/mock/completion_formatter.h"

#include <cstdio>

namespace plumbline::mock {
namespace {
constexpr std::string_view kToken = "tok ";
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

CompletionFormatter::CompletionFormatter(const MockRequest& request, int64_t completionTokens, uint64_t id,
                                         int64_t created)
    : m_kind(request.kind),
      m_includeUsage(request.includeUsage),
      m_completionTokens(completionTokens),
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

void CompletionFormatter::appendTokenChunk(std::string& out, int64_t index, int64_t count) const {
  const bool last = index + count >= m_completionTokens;
  out += "data: ";
  appendHead(out, true);
  out += ",\"choices\":[{\"index\":0,";
  if (m_kind == ApiKind::Chat) {
    out += index == 0 ? "\"delta\":{\"role\":\"assistant\",\"content\":\"" : "\"delta\":{\"content\":\"";
    for (int64_t i = 0; i < count; ++i) out += kToken;
    out += "\"}";
  } else {
    out += "\"text\":\"";
    for (int64_t i = 0; i < count; ++i) out += kToken;
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
  out += m_kind == ApiKind::Chat ? "\"message\":{\"role\":\"assistant\",\"content\":\"" : "\"text\":\"";
  for (int64_t i = 0; i < m_completionTokens; ++i) out += kToken;
  out += m_kind == ApiKind::Chat ? "\"}" : "\"";
  out += ",\"logprobs\":null,\"finish_reason\":";
  out += finishReason();
  out += "}],";
  appendUsage(out);
  out += '}';
}

}  // namespace plumbline::mock
