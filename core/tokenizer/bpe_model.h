#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/tokenizer/byte_level.h"

namespace simdjson::dom {
class element;
}

namespace plumbline::tokenizer {

class JsonSource;  // core/tokenizer/json_source.h

/// A byte-level BPE `model` of a tokenizer.json: the vocabulary, the merges as a rank map keyed
/// by symbol-id pairs, and a cache of encoded words. Encoding mutates the cache and scratch
/// space, so one instance serves one thread.
class BpeModel {
 public:
  /// The highest token id accepted (vocab and added tokens). Decoding keeps a table indexed by
  /// id, so one stray id of 2,000,000,000 would ask for 64 GB (found by tokenizer_json_fuzz);
  /// the largest vocabularies in use have ~260,000 entries.
  static constexpr int64_t kMaxTokenId = (int64_t{1} << 22) - 1;
  /// "expected a token id (a whole number from 0 to 4194303)"
  static const std::string kTokenIdExpected;

  /// Throws TokenizerError (file and JSON path) for a model that is not usable byte-level BPE.
  static BpeModel fromJson(const JsonSource& source);

  /// Appends the ids of one pre-tokenized piece, given as raw bytes.
  void encodeWord(std::string_view bytes, std::vector<int32_t>& ids);

  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  };
  /// Looked up by std::string_view as well as std::string.
  using Vocab = std::unordered_map<std::string, int32_t, StringHash, std::equal_to<>>;
  const Vocab& vocab() const { return m_vocab; }
  const ByteLevelAlphabet& alphabet() const { return m_alphabet; }

 private:
  struct Merge {
    int32_t rank;
    int32_t merged;
  };
  struct Candidate {
    int32_t rank;
    int32_t left;
    int32_t leftId;
    int32_t rightId;
  };
  struct Symbol {
    int32_t id;
    int32_t prev;
    int32_t next;
  };

  BpeModel() = default;
  void loadVocab(const JsonSource& vocab);
  void loadMerges(const JsonSource& merges);
  void addMerge(const JsonSource& merges, simdjson::dom::element merge, int32_t rank);
  void loadByteIds(const JsonSource& vocab);
  void mergeWord(std::string_view bytes, std::vector<int32_t>& ids);
  void pushCandidate(int32_t left);
  static uint64_t pairKey(int32_t left, int32_t right) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(left)) << 32) |
           static_cast<uint32_t>(right);
  }

  Vocab m_vocab;
  std::unordered_map<uint64_t, Merge> m_merges;
  std::array<int32_t, 256> m_byteIds{};
  bool m_ignoreMerges = false;
  ByteLevelAlphabet m_alphabet;

  std::unordered_map<std::string, std::vector<int32_t>, StringHash, std::equal_to<>> m_cache;
  std::vector<Symbol> m_symbols;
  std::vector<Candidate> m_heap;
};

}  // namespace plumbline::tokenizer
