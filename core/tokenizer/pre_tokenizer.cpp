#include "core/tokenizer/pre_tokenizer.h"

#include "core/tokenizer/json_source.h"

#include <stdexcept>

namespace plumbline::tokenizer {

namespace {

// The pattern ByteLevel applies with use_regex: true (GPT-2's).
constexpr const char* kGpt2Pattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

}  // namespace

PreTokenizer PreTokenizer::fromJson(const JsonSource& source) {
  PreTokenizer result;
  if (source.isNull()) source.fail("byte-level BPE needs a ByteLevel pre-tokenizer, got null");
  const std::string type = source.child("type").string();
  if (type == "Sequence") {
    const JsonSource steps = source.child("pretokenizers");
    for (size_t i = 0; i < steps.array().size(); ++i) result.addStep(steps.element(i), i == 0);
  } else {
    result.addStep(source, true);
  }
  if (!result.m_byteLevel) source.fail("byte-level BPE needs a ByteLevel pre-tokenizer");
  return result;
}

void PreTokenizer::addStep(const JsonSource& step, bool first) {
  const JsonSource type = step.child("type");
  const std::string name = type.string();
  if (name == "Split") {
    addSplit(step);
  } else if (name == "ByteLevel") {
    addByteLevel(step, first);
  } else {
    type.fail("unsupported pre-tokenizer \"" + name + "\" (supported: Sequence, Split, ByteLevel)");
  }
}

void PreTokenizer::addSplit(const JsonSource& step) {
  const JsonSource pattern = step.child("pattern");
  const bool regex = pattern.has("Regex");
  const JsonSource text = pattern.child(regex ? "Regex" : "String");
  const JsonSource behavior = step.child("behavior");
  const std::string behaviorName = behavior.string();
  const bool invert = step.booleanOr("invert", false);
  RegexSplitter::Behavior kind = RegexSplitter::Behavior::Isolated;
  if (behaviorName == "Removed" && invert) {
    kind = RegexSplitter::Behavior::KeepMatches;
  } else if (behaviorName != "Isolated" || invert) {
    behavior.fail("unsupported split behavior \"" + behaviorName + "\"" +
                  (invert ? " with invert" : "") + " (supported: Isolated, Removed with invert)");
  }
  try {
    m_steps.emplace_back(text.string(), kind, !regex);
  } catch (const std::invalid_argument& error) {
    text.fail(error.what());
  }
}

void PreTokenizer::addByteLevel(const JsonSource& step, bool first) {
  if (m_byteLevel) step.fail("a second ByteLevel pre-tokenizer");
  m_byteLevel = true;
  m_addPrefixSpace = step.booleanOr("add_prefix_space", false);
  if (m_addPrefixSpace && !first) step.fail("add_prefix_space is supported on the first step only");
  if (step.booleanOr("use_regex", true))
    m_steps.emplace_back(kGpt2Pattern, RegexSplitter::Behavior::Isolated);
}

std::string_view PreTokenizer::withPrefixSpace(std::string_view text, std::string& buffer) const {
  if (!m_addPrefixSpace || text.empty() || text.front() == ' ') return text;
  buffer.assign(" ").append(text);
  return buffer;
}

void PreTokenizer::split(std::string_view text, std::vector<std::string_view>& pieces) {
  if (m_steps.empty()) {
    if (!text.empty()) pieces.push_back(text);
    return;
  }
  // Each step splits every piece of the previous one; the last step writes to `pieces`.
  std::vector<std::string_view> current{text};
  for (size_t s = 0; s < m_steps.size(); ++s) {
    const bool last = s + 1 == m_steps.size();
    std::vector<std::string_view>& target = last ? pieces : m_scratch;
    if (!last) m_scratch.clear();
    for (const std::string_view piece : current) m_steps[s].split(piece, target);
    if (!last) current.swap(m_scratch);
  }
}

bool PreTokenizer::usesJit() const {
  for (const auto& step : m_steps)
    if (!step.usesJit()) return false;
  return true;
}

}  // namespace plumbline::tokenizer
