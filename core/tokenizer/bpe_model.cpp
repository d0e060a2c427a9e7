#include "core/tokenizer/bpe_model.h"

#include <algorithm>

namespace plumbline::tokenizer {

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
  m_vocab.reserve(vocab.object().size());
  for (const auto& [token, id] : vocab.object().items()) {
    if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() > INT32_MAX)
      JsonSource(id, vocab.file(), vocab.path() + "[\"" + token + "\"]")
          .fail("expected a token id");
    m_vocab.emplace(token, id.get<int32_t>());
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
  const size_t count = merges.array().size();
  m_merges.reserve(count);
  for (size_t rank = 0; rank < count; ++rank)
    addMerge(merges.element(rank), static_cast<int32_t>(rank));
}

void BpeModel::addMerge(const JsonSource& merge, int32_t rank) {
  std::string left, right;
  if (merge.value().is_string()) {  // "a b"
    const std::string text = merge.string();
    const size_t space = text.find(' ');
    if (space == std::string::npos || text.find(' ', space + 1) != std::string::npos)
      merge.fail("expected two symbols separated by one space");
    left = text.substr(0, space);
    right = text.substr(space + 1);
  } else {  // ["a", "b"]
    if (merge.array().size() != 2) merge.fail("expected a pair of symbols");
    left = merge.element(0).string();
    right = merge.element(1).string();
  }
  const auto leftId = m_vocab.find(left);
  const auto rightId = m_vocab.find(right);
  const auto mergedId = m_vocab.find(left + right);
  if (leftId == m_vocab.end() || rightId == m_vocab.end() || mergedId == m_vocab.end())
    merge.fail("merge of \"" + left + "\" and \"" + right +
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
