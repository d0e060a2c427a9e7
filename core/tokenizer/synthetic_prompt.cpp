#include "core/tokenizer/synthetic_prompt.h"

#include <stdexcept>

#include "core/util/rng.h"

namespace plumbline::tokenizer {

namespace {

constexpr const char* kWordList[] = {
    "the",       "of",      "and",    "to",     "in",        "is",     "you",     "that",
    "it",        "he",      "was",    "for",    "on",        "are",    "as",      "with",
    "his",       "they",    "at",     "be",     "this",      "have",   "from",    "or",
    "one",       "had",     "by",     "word",   "but",       "not",    "what",    "all",
    "were",      "we",      "when",   "your",   "can",       "said",   "there",   "use",
    "an",        "each",    "which",  "she",    "do",        "how",    "their",   "if",
    "will",      "up",      "other",  "about",  "out",       "many",   "then",    "them",
    "these",     "so",      "some",   "her",    "would",     "make",   "like",    "him",
    "into",      "time",    "has",    "look",   "two",       "more",   "write",   "go",
    "see",       "number",  "no",     "way",    "could",     "people", "my",      "than",
    "first",     "water",   "been",   "call",   "who",       "its",    "now",     "find",
    "long",      "down",    "day",    "did",    "get",       "come",   "made",    "may",
    "part",      "over",    "new",    "sound",  "take",      "only",   "little",  "work",
    "know",      "place",   "year",   "live",   "me",        "back",   "give",    "most",
    "very",      "after",   "thing",  "our",    "just",      "name",   "good",    "sentence",
    "man",       "think",   "say",    "great",  "where",     "help",   "through", "much",
    "before",    "line",    "right",  "too",    "mean",      "old",    "any",     "same",
    "tell",      "boy",     "follow", "came",   "want",      "show",   "also",    "around",
    "form",      "three",   "small",  "set",    "put",       "end",    "does",    "another",
    "well",      "large",   "must",   "big",    "even",      "such",   "because", "turn",
    "here",      "why",     "ask",    "went",   "men",       "read",   "need",    "land",
    "different", "home",    "us",     "move",   "try",       "kind",   "hand",    "picture",
    "again",     "change",  "off",    "play",   "spell",     "air",    "away",    "animal",
    "house",     "point",   "page",   "letter", "mother",    "answer", "found",   "study",
    "still",     "learn",   "should", "world",  "high",      "every",  "near",    "add",
    "food",      "between", "own",    "below",  "country",   "plant",  "last",    "school",
    "father",    "keep",    "tree",   "never",  "start",     "city",   "earth",   "eye",
    "light",     "thought", "head",   "under",  "story",     "saw",    "left",    "few",
    "while",     "along",   "might",  "close",  "something", "seem",   "next",    "hard",
    "open",      "example", "begin",  "life",   "always",    "those",  "both",    "paper",
    "together",  "got",     "group",  "often",  "run"};
constexpr int kMaxAdjustments = 256;

}  // namespace

/// A prompt under construction: its text, where each unit ends, and the word stream.
struct SyntheticPromptBuilder::Draft {
  std::string text;
  std::vector<size_t> unitEnds;
  util::Rng rng;
  uint64_t wordsLeftInSentence = 0;
};

SyntheticPromptBuilder::SyntheticPromptBuilder(Tokenizer& tokenizer) : m_tokenizer(tokenizer) {
  for (const char* word : kWordList) {
    const std::string bare(word);
    if (m_tokenizer.countTokens(bare) == 1 && m_tokenizer.countTokens(" " + bare) == 1)
      m_words.push_back(bare);
  }
  if (m_words.size() < 16)
    throw std::runtime_error("too few one-token words under " + m_tokenizer.file() +
                             " for synthetic prompts");
  m_periodIsOneToken = m_tokenizer.countTokens(".") == 1;
}

// A unit is one word (with a leading space unless it starts the prompt) or a sentence's period.
void SyntheticPromptBuilder::appendUnit(Draft& draft) const {
  if (draft.wordsLeftInSentence == 0 && !draft.text.empty() && m_periodIsOneToken) {
    draft.text += '.';
    draft.wordsLeftInSentence = 6 + draft.rng.nextU64() % 12;
  } else {
    if (draft.wordsLeftInSentence == 0) draft.wordsLeftInSentence = 6 + draft.rng.nextU64() % 12;
    if (!draft.text.empty()) draft.text += ' ';
    draft.text += m_words[draft.rng.nextU64() % m_words.size()];
    --draft.wordsLeftInSentence;
  }
  draft.unitEnds.push_back(draft.text.size());
}

void SyntheticPromptBuilder::compose(size_t tokens, uint64_t seed, std::string& out) {
  Draft draft{std::move(m_scratch), {}, util::Rng(seed), 0};
  draft.text.clear();
  draft.unitEnds.reserve(tokens);
  while (draft.unitEnds.size() < tokens) appendUnit(draft);
  out.append(draft.text);
  m_scratch = std::move(draft.text);
}

std::string SyntheticPromptBuilder::checkComposition(const std::vector<size_t>& lengths,
                                                     const std::vector<uint64_t>& seeds) {
  std::string text;
  for (const size_t tokens : lengths) {
    for (const uint64_t seed : seeds) {
      text.clear();
      compose(tokens, seed, text);
      const size_t counted = m_tokenizer.countTokens(text);
      if (counted != tokens)
        return "asked " + std::to_string(tokens) + ", counted " + std::to_string(counted) + " (seed " +
               std::to_string(seed) + ")";
    }
  }
  return {};
}

std::string SyntheticPromptBuilder::build(size_t tokens, uint64_t seed) {
  if (tokens == 0) return {};
  Draft draft{{}, {}, util::Rng(seed), 0};
  draft.text.reserve(tokens * 6);
  // Every unit is one token on its own, so `tokens` units is the first guess (compose()'s
  // text); BPE may still join units, so the whole text is re-counted and adjusted.
  while (draft.unitEnds.size() < tokens) appendUnit(draft);
  for (int attempt = 0; attempt < kMaxAdjustments; ++attempt) {
    const size_t count = m_tokenizer.countTokens(draft.text);
    if (count == tokens) return draft.text;
    if (count < tokens) {
      for (size_t missing = tokens - count; missing > 0; --missing) appendUnit(draft);
    } else if (draft.unitEnds.size() > 1) {
      draft.unitEnds.pop_back();
      draft.text.resize(draft.unitEnds.back());
    }
  }
  throw std::runtime_error("could not reach exactly " + std::to_string(tokens) + " tokens under " +
                           m_tokenizer.file());
}

}  // namespace plumbline::tokenizer
