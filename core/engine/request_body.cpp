#include "core/engine/request_body.h"

#include <algorithm>
#include <array>
#include <string_view>


namespace plumbline::engine {

RequestBodyBuilder::RequestBodyBuilder(const WorkerConfig& config)
    : m_config(config), m_prompts(config.prompt, config.promptSeed) {
  m_head = "{\"model\":" + nlohmann::json(config.model).dump() + ",";
  nlohmann::json tail = nlohmann::json::object();
  if (config.stream) {
    tail["stream"] = true;
    tail["stream_options"] = {{"include_usage", true}};
  } else {
    tail["stream"] = false;
  }
  const auto& s = config.sampling;
  if (s.temperature) tail["temperature"] = *s.temperature;
  if (s.topP) tail["top_p"] = *s.topP;
  if (s.ignoreEos) tail["ignore_eos"] = *s.ignoreEos;
  if (s.seed) tail["seed"] = *s.seed;
  for (const auto& [key, value] : s.extra.items()) tail[key] = value;
  const std::string t = tail.dump();  // "{...}": splice its members after ours
  m_tail = t.size() > 2 ? "," + t.substr(1) : "}";
}

void RequestBodyBuilder::appendPrompt(const workload::SessionPlan& session, std::string& out) {
  m_prompts.append(session, out);
}

void RequestBodyBuilder::build(const workload::SessionPlan& session, std::string& out) {
  out.clear();
  out.append(m_head);
  const std::string& system = m_prompts.escapedSystem(session);
  if (m_config.api == workload::Api::Chat) {
    out.append("\"messages\":[");
    if (!system.empty()) {
      out.append("{\"role\":\"system\",\"content\":\"");
      out.append(system);
      out.append("\"},");
    }
    out.append("{\"role\":\"user\",\"content\":\"");
    appendPrompt(session, out);
    out.append("\"}],");
  } else {
    out.append("\"prompt\":\"");
    if (!system.empty()) {
      out.append(system);
      out.append("\\n\\n");
    }
    appendPrompt(session, out);
    out.append("\",");
  }
  appendMaxTokens(session.outputTokens, out);
}

void RequestBodyBuilder::appendMaxTokens(uint32_t outputTokens, std::string& out) const {
  int64_t maxTokens = outputTokens;
  if (m_config.sampling.maxTokens) maxTokens = std::min<int64_t>(maxTokens, *m_config.sampling.maxTokens);
  out.append("\"max_tokens\":");
  out.append(std::to_string(maxTokens));
  out.append(m_tail);
}

void RequestBodyBuilder::buildConversation(const nlohmann::json& messages, uint32_t outputTokens,
                                           std::string& out) const {
  out.clear();
  out.append(m_head);
  if (m_config.api == workload::Api::Chat) {
    out.append("\"messages\":");
    out.append(messages.dump());
  } else {
    std::string prompt;
    for (const auto& m : messages) {
      if (!prompt.empty()) prompt.append("\n\n");
      prompt.append(m.at("content").get_ref<const std::string&>());
    }
    out.append("\"prompt\":");
    out.append(nlohmann::json(prompt).dump());
  }
  out.push_back(',');
  appendMaxTokens(outputTokens, out);
}

}  // namespace plumbline::engine
