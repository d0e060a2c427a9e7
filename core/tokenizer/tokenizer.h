#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/tokenizer/added_tokens.h"
#include "core/tokenizer/bpe_model.h"
#include "core/tokenizer/normalizer.h"
#include "core/tokenizer/pre_tokenizer.h"

namespace simdjson {
struct padded_string;
}

namespace plumbline::tokenizer {

/// A Hugging Face tokenizer.json of the byte-level BPE family (GPT-2, Llama 3, Qwen):
/// added tokens → normalizer (none or NFC) → pre-tokenizer (Split regexes run by PCRE2, then
/// ByteLevel) → BPE merges. Token ids match Hugging Face's `encode(text,
/// add_special_tokens=false)`: no template tokens (BOS…) are added.
///
/// Encoding reuses caches and PCRE2 match data, so a Tokenizer serves one thread at a time;
/// give each thread its own.
class Tokenizer {
 public:
  /// Throws TokenizerError naming the file and the JSON path of anything unusable.
  static Tokenizer fromFile(const std::string& path);
  /// The text of a tokenizer.json; `file` names the source in errors and in file().
  static Tokenizer fromText(std::string_view text, const std::string& file);
  /// The same from a document built in code (tests).
  static Tokenizer fromJson(const nlohmann::json& json, const std::string& file);

  std::vector<int32_t> encode(std::string_view text);
  /// Appends the ids of `text` to `ids`. Ill-formed UTF-8 is first repaired (U+FFFD).
  void encodeInto(std::string_view text, std::vector<int32_t>& ids);
  size_t countTokens(std::string_view text);
  /// The text of `ids` (invalid UTF-8 from partial sequences becomes U+FFFD). Throws
  /// std::out_of_range for an id outside the vocabulary.
  std::string decode(std::span<const int32_t> ids) const;

  /// The id of a vocabulary entry or added token, written as in the file ("Ġthe", "<|im_end|>").
  std::optional<int32_t> tokenId(std::string_view token) const;
  /// One past the highest id.
  size_t vocabSize() const { return m_idBytes.size(); }
  /// Where it was loaded from: results name the tokenizer they were counted with.
  const std::string& file() const { return m_file; }
  /// Whether every pre-tokenizer pattern runs JIT-compiled.
  bool usesJit() const { return m_preTokenizer.usesJit(); }

 private:
  Tokenizer(std::string file, Normalizer normalizer, PreTokenizer preTokenizer, BpeModel model,
            AddedTokens added);
  /// Parses `text` (simdjson's padded buffer; fromFile reads the file straight into one).
  static Tokenizer fromParsed(const simdjson::padded_string& text, const std::string& file);
  static Tokenizer fromRoot(const JsonSource& root);
  void buildDecodeTable();
  void encodePlain(std::string_view text, std::vector<int32_t>& ids);

  std::string m_file;
  Normalizer m_normalizer;
  PreTokenizer m_preTokenizer;
  BpeModel m_model;
  AddedTokens m_added;
  std::vector<std::string> m_idBytes;  // the bytes each id stands for
  std::vector<bool> m_idKnown;

  std::vector<AddedTokens::Segment> m_segments;
  std::vector<std::string_view> m_pieces;
  std::vector<int32_t> m_countScratch;
  std::string m_repairBuffer, m_normalBuffer, m_prefixBuffer;
};

}  // namespace plumbline::tokenizer
