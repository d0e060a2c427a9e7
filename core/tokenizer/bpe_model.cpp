#include "core/tokenizer/bpe_model.h"

#include "core/tokenizer/json_source.h"

#include <algorithm>

namespace plumbline::tokenizer {

const std::string BpeModel::kTokenIdExpected =
    "expected a token id (a whole number from 0 to " + std::to_string(BpeModel::kMaxTokenId) + ")";

namespace {

constexpr size_t kCacheLimit = 200'000;  // entries; cleared wholesale when full
constexpr size_t kCacheWordLimit = 256;  // longer pieces (whitespace runs, noise) are not cached

// Heap order: the smallest (rank, position) on top.
constexpr auto kLaterCandidate = [](const auto& a, const auto& b) {
  return a.rank != b.rank ? a.rank > b.rank : a.left > b.left;
};

}  // namespace

BpeModel BpeModel::fromJson(const JsonSource& source) {
  const JsonSource type = source.child("type");
  if (type.string() != "BPE")
    type.fail("unsupported model \"" + type.string() + "\" (supported: BPE)");
  if (source.has("dropout")) source.child("dropout").fail("BPE dropout is not supported");
  if (source.booleanOr("byte_fallback", false))
    source.child("byte_fallback").fail("byte_fallback BPE is not supported");
  for (const char* affix : {"continuing_subword_prefix", "end_of_word_suffix"})
    if (!source.stringOr(affix, "").empty())
      source.child(affix).fail("subword affixes are not supported");
  BpeModel model;
  model.m_ignoreMerges = source.booleanOr("ignore_merges", false);
  model.loadVocab(source.child("vocab"));
  model.loadByteIds(source.child("vocab"));
  model.loadMerges(source.child("merges"));
  return model;
}

void BpeModel::loadVocab(const JsonSource& vocab) {
  const simdjson::dom::object entries = vocab.object();
  m_vocab.reserve(entries.size());
  for (const simdjson::dom::key_value_pair entry : entries) {
    const auto place = [&] {
      return JsonSource(entry.value, vocab.file(),
                        vocab.path() + "[\"" + std::string(entry.key) + "\"]");
    };
    int64_t id = 0;
    if (entry.value.get_int64().get(id) != simdjson::SUCCESS || id < 0 || id > kMaxTokenId)
      place().fail(kTokenIdExpected);
    // nlohmann and Python keep the last of a key named twice, serde the first: refused, as
    // workload files are.
    if (!m_vocab.emplace(std::string(entry.key), static_cast<int32_t>(id)).second)
      place().fail("token named twice in the vocab");
  }
}

void BpeModel::loadByteIds(const JsonSource& vocab) {
  for (int byte = 0; byte < 256; ++byte) {
    const auto found = m_vocab.find(m_alphabet.symbol(static_cast<unsigned char>(byte)));
    if (found == m_vocab.end())
      vocab.fail("no entry for the byte-level symbol of byte " + std::to_string(byte));
    m_byteIds[static_cast<size_t>(byte)] = found->second;
  }
}

void BpeModel::loadMerges(const JsonSource& merges) {
  const simdjson::dom::array entries = merges.array();
  m_merges.reserve(entries.size());
  int32_t rank = 0;
  for (const simdjson::dom::element merge : entries) addMerge(merges, merge, rank++);
}

void BpeModel::addMerge(const JsonSource& merges, simdjson::dom::element merge, int32_t rank) {
  // The path is built only for an error: a merge list has ~150,000 entries.
  const auto place = [&] {
    return JsonSource(merge, merges.file(), merges.path() + "[" + std::to_string(rank) + "]");
  };
  std::string_view left, right;
  std::string_view text;
  if (merge.get_string().get(text) == simdjson::SUCCESS) {  // "a b"
    const size_t space = text.find(' ');
    if (space == std::string_view::npos || text.find(' ', space + 1) != std::string_view::npos)
      place().fail("expected two symbols separated by one space");
    left = text.substr(0, space);
    right = text.substr(space + 1);
  } else {  // ["a", "b"]
    const JsonSource pair = place();
    if (pair.array().size() != 2) pair.fail("expected a pair of symbols");
    size_t index = 0;
    for (const simdjson::dom::element symbol : pair.array()) {
      std::string_view& target = index == 0 ? left : right;
      if (symbol.get_string().get(target) != simdjson::SUCCESS)
        pair.element(index).fail("expected a string, got " + JsonSource::typeName(symbol));
      ++index;
    }
  }
  std::string joined;
  joined.reserve(left.size() + right.size());
  joined.append(left).append(right);
  const auto leftId = m_vocab.find(left);
  const auto rightId = m_vocab.find(right);
  const auto mergedId = m_vocab.find(std::string_view(joined));
  if (leftId == m_vocab.end() || rightId == m_vocab.end() || mergedId == m_vocab.end())
    place().fail("merge of \"" + std::string(left) + "\" and \"" + std::string(right) +
                 "\" uses a symbol missing from the vocab");
  // The first (lowest-rank) occurrence of a pair wins, as in Hugging Face's loader.
  m_merges.try_emplace(pairKey(leftId->second, rightId->second), Merge{rank, mergedId->second});
}

void BpeModel::encodeWord(std::string_view bytes, std::vector<int32_t>& ids) {
  if (bytes.empty()) return;
  if (bytes.size() == 1) {
    ids.push_back(m_byteIds[static_cast<unsigned char>(bytes[0])]);
    return;
  }
  const bool cacheable = bytes.size() <= kCacheWordLimit;
  if (cacheable) {
    if (const auto hit = m_cache.find(bytes); hit != m_cache.end()) {
      ids.insert(ids.end(), hit->second.begin(), hit->second.end());
      return;
    }
  }
  const size_t first = ids.size();
  const auto whole = m_ignoreMerges ? m_vocab.find(m_alphabet.encode(bytes)) : m_vocab.end();
  if (whole != m_vocab.end())
    ids.push_back(whole->second);
  else
    mergeWord(bytes, ids);
  if (cacheable) {
    if (m_cache.size() >= kCacheLimit) m_cache.clear();
    m_cache.emplace(std::string(bytes),
                    std::vector<int32_t>(ids.begin() + static_cast<ptrdiff_t>(first), ids.end()));
  }
}

void BpeModel::pushCandidate(int32_t left) {
  const int32_t right = m_symbols[static_cast<size_t>(left)].next;
  if (right < 0) return;
  const int32_t leftId = m_symbols[static_cast<size_t>(left)].id;
  const int32_t rightId = m_symbols[static_cast<size_t>(right)].id;
  const auto found = m_merges.find(pairKey(leftId, rightId));
  if (found == m_merges.end()) return;
  m_heap.push_back(Candidate{found->second.rank, left, leftId, rightId});
  std::push_heap(m_heap.begin(), m_heap.end(), kLaterCandidate);
}

// Applies merges lowest rank first, leftmost first among equals: the order of Hugging Face's
// BPE (Word::merge_all). Stale candidates are skipped when their symbols changed.
void BpeModel::mergeWord(std::string_view bytes, std::vector<int32_t>& ids) {
  const auto count = static_cast<int32_t>(bytes.size());
  m_symbols.clear();
  m_heap.clear();
  for (int32_t i = 0; i < count; ++i)
    m_symbols.push_back(Symbol{m_byteIds[static_cast<unsigned char>(bytes[static_cast<size_t>(i)])],
                               i - 1, i + 1 < count ? i + 1 : -1});
  for (int32_t i = 0; i + 1 < count; ++i) pushCandidate(i);
  while (!m_heap.empty()) {
    std::pop_heap(m_heap.begin(), m_heap.end(), kLaterCandidate);
    const Candidate top = m_heap.back();
    m_heap.pop_back();
    Symbol& left = m_symbols[static_cast<size_t>(top.left)];
    if (left.id != top.leftId || left.next < 0) continue;
    Symbol& right = m_symbols[static_cast<size_t>(left.next)];
    if (right.id != top.rightId) continue;
    left.id = m_merges.find(pairKey(top.leftId, top.rightId))->second.merged;
    right.id = -1;  // dead
    left.next = right.next;
    if (right.next >= 0) m_symbols[static_cast<size_t>(right.next)].prev = top.left;
    if (left.prev >= 0) pushCandidate(left.prev);
    pushCandidate(top.left);
  }
  for (int32_t i = 0; i >= 0; i = m_symbols[static_cast<size_t>(i)].next)
    ids.push_back(m_symbols[static_cast<size_t>(i)].id);
}

}  // namespace plumbline::tokenizer
