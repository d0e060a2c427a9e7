#include "core/engine/prompt_writer.h"

#include <array>
#include <stdexcept>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/util/rng.h"
#include "core/workload/prompt_blocks.h"

namespace plumbline::engine {

namespace {
constexpr uint64_t kPromptStream = 3'000'000'000ULL;
/// Block texts: promptId kBlockPromptBase + hash id, far from session ids and session streams.
constexpr uint64_t kBlockPromptBase = 11'000'000'000'000ULL;
constexpr std::array<std::string_view, 64> kWords = {
    "time",   "year",   "people", "way",    "day",    "man",    "thing",  "woman",
    "life",   "child",  "world",  "school", "state",  "family", "student", "group",
    "country", "problem", "hand",  "part",   "place",  "case",   "week",   "company",
    "system", "program", "question", "work", "government", "number", "night", "point",
    "home",   "water",  "room",   "mother", "area",   "money",  "story",  "fact",
    "month",  "lot",    "right",  "study",  "book",   "eye",    "job",    "word",
    "business", "issue", "side",  "kind",   "head",   "house",  "service", "friend",
    "father", "power",  "hour",   "game",   "line",   "end",    "member", "law"};

void appendWords(util::Rng& rng, uint32_t words, std::string& out) {
  uint64_t bits = 0;
  int left = 0;
  for (uint32_t i = 0; i < words; ++i) {
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

std::string jsonStringContent(const std::string& text) {
  const std::string quoted = nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return quoted.substr(1, quoted.size() - 2);
}
}  // namespace

PromptWriter::PromptWriter(const workload::PromptSpec& spec, uint64_t promptSeed)
    : m_seed(promptSeed), m_basis(spec.basis()), m_materials(spec.materials) {
  if (!m_materials) m_materials = workload::loadPromptMaterials(spec, "requests.prompt");
  if (m_materials->sharegpt) {
    for (const auto& prompt : m_materials->sharegpt->prompts()) {
      m_escaped.push_back(jsonStringContent(prompt.text));
      m_escapedSystem.push_back(jsonStringContent(prompt.system));
    }
  }
}

void PromptWriter::appendSynthetic(uint64_t promptId, uint32_t tokens, std::string& out) {
  util::Rng rng = util::Rng::forStream(m_seed, kPromptStream + promptId);
  if (m_materials->synthetic) {
    m_materials->synthetic->compose(tokens, rng.nextU64(), out);
  } else {
    appendWords(rng, tokens, out);
  }
}

void PromptWriter::appendBlocks(const std::vector<uint32_t>& hashIds, uint32_t tokens, uint64_t promptId,
                                std::string& out) {
  const workload::PromptBlockLayout layout = workload::promptBlockLayout(hashIds.size(), tokens);
  // Units are one token each and blocks start with a bare word: a space between two parts
  // keeps the count additive, under the approximation and under a splitting tokenizer alike.
  for (size_t i = 0; i < layout.blocks; ++i) {
    if (i != 0) out.push_back(' ');
    appendSynthetic(kBlockPromptBase + hashIds[i], layout.blockTokens(i), out);
  }
  if (layout.uniqueTokens > 0) {
    if (layout.blocks != 0) out.push_back(' ');
    appendSynthetic(promptId, layout.uniqueTokens, out);
  }
}

const std::string& PromptWriter::datasetTurn(uint64_t sessionId, size_t k) const {
  if (!m_materials->sharegpt) throw std::logic_error("a dataset turn without a ShareGPT prompt source");
  const auto& prompts = *m_materials->sharegpt;
  return prompts.humanText(prompts.pick(m_seed, sessionId), k);
}

const std::string& PromptWriter::datasetSystem(uint64_t sessionId) const {
  static const std::string kNone;
  if (!m_materials->sharegpt) return kNone;
  return m_materials->sharegpt->pick(m_seed, sessionId).system;
}

const std::string& PromptWriter::escapedSystem(const workload::SessionPlan& session) const {
  static const std::string kNone;
  if (!m_materials->sharegpt) return kNone;
  const auto& prompts = m_materials->sharegpt->prompts();
  return m_escapedSystem[static_cast<size_t>(&m_materials->sharegpt->pick(m_seed, session.id) -
                                             prompts.data())];
}

void PromptWriter::append(const workload::SessionPlan& session, std::string& out) {
  if (m_materials->sharegpt) {
    const auto& prompts = m_materials->sharegpt->prompts();
    const auto& picked = m_materials->sharegpt->pick(m_seed, session.id);
    out.append(m_escaped[static_cast<size_t>(&picked - prompts.data())]);
    return;
  }
  appendSynthetic(session.id, session.inputTokens, out);
}

}  // namespace plumbline::engine
