#include "core/engine/request_body.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "core/util/rng.h"

namespace plumbline::engine {

namespace {
constexpr std::array<std::string_view, 64> kWords = {
    "time",   "year",   "people", "way",    "day",    "man",    "thing",  "woman",
    "life",   "child",  "world",  "school", "state",  "family", "student", "group",
    "country", "problem", "hand",  "part",   "place",  "case",   "week",   "company",
    "system", "program", "question", "work", "government", "number", "night", "point",
    "home",   "water",  "room",   "mother", "area",   "money",  "story",  "fact",
    "month",  "lot",    "right",  "study",  "book",   "eye",    "job",    "word",
    "business", "issue", "side",  "kind",   "head",   "house",  "service", "friend",
    "father", "power",  "hour",   "game",   "line",   "end",    "member", "law"};
}  // namespace

RequestBodyBuilder::RequestBodyBuilder(const WorkerConfig& config) : m_config(config) {
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

void appendSyntheticWords(util::Rng& rng, uint32_t n, std::string& out) {
  uint64_t bits = 0;
  int left = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (left == 0) {
      bits = rng.nextU64();
      left = 10;
    }
    if (i != 0) out.push_back(' ');
    out.append(kWords[bits & 63]);
    bits >>= 6;
    --left;
  }
}

void RequestBodyBuilder::appendPrompt(const workload::SessionPlan& session, std::string& out) const {
  util::Rng rng = util::Rng::forStream(m_config.promptSeed, 3'000'000'000ULL + session.id);
  appendSyntheticWords(rng, session.inputTokens, out);
}

void RequestBodyBuilder::build(const workload::SessionPlan& session, std::string& out) const {
  out.clear();
  out.append(m_head);
  if (m_config.api == workload::Api::Chat) {
    out.append("\"messages\":[{\"role\":\"user\",\"content\":\"");
    appendPrompt(session, out);
    out.append("\"}],");
  } else {
    out.append("\"prompt\":\"");
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
