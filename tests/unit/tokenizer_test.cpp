// The tokenizer's own behaviour on a tiny hand-made GPT-2-style tokenizer.json, and its errors.
#include <array>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/tokenizer/byte_level.h"
#include "core/tokenizer/tokenizer.h"
#include "core/tokenizer/tokenizer_error.h"
#include "core/tokenizer/utf8.h"

using namespace plumbline::tokenizer;

namespace {

// 256 byte symbols (ids 0..255), then merges h+e, l+l, he+ll, Ġ+w; GPT-2's ByteLevel regex.
nlohmann::json tinyTokenizer() {
  const ByteLevelAlphabet alphabet;
  nlohmann::json vocab = nlohmann::json::object();
  for (int byte = 0; byte < 256; ++byte)
    vocab[alphabet.symbol(static_cast<unsigned char>(byte))] = byte;
  vocab["he"] = 256;
  vocab["ll"] = 257;
  vocab["hell"] = 258;
  vocab["Ġw"] = 259;
  return {
      {"version", "1.0"},
      {"added_tokens", {{{"id", 260}, {"content", "<|end|>"}, {"special", true}}}},
      {"normalizer", nullptr},
      {"pre_tokenizer", {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", true}}},
      {"decoder", {{"type", "ByteLevel"}}},
      {"model", {{"type", "BPE"}, {"vocab", vocab}, {"merges", {"h e", "l l", "he ll", "Ġ w"}}}}};
}

std::string tokenizerTextErrorOf(std::string_view text) {
  try {
    Tokenizer::fromText(text, "tiny.json");
  } catch (const TokenizerError& error) {
    return error.what();
  }
  return "no error";
}

std::string tokenizerErrorOf(const nlohmann::json& json) {
  return tokenizerTextErrorOf(json.dump());
}

/// The tiny tokenizer as text, with its vocab's `"ll": 257` replaced by `replacement`.
std::string tinyTokenizerTextWithLl(std::string_view replacement) {
  std::string text = tinyTokenizer().dump();
  const std::string entry = "\"ll\":257";
  const size_t at = text.find(entry);
  if (at == std::string::npos) return "entry not found";
  return text.replace(at, entry.size(), replacement);
}

}  // namespace

TEST(Tokenizer, AppliesMergesInRankOrder) {
  auto tokenizer = Tokenizer::fromJson(tinyTokenizer(), "tiny.json");
  EXPECT_EQ(tokenizer.encode("hello"), (std::vector<int32_t>{258, 'o'}));
  EXPECT_EQ(tokenizer.encode("hello world"),
            (std::vector<int32_t>{258, 'o', 259, 'o', 'r', 'l', 'd'}));
  EXPECT_EQ(tokenizer.encode(""), std::vector<int32_t>{});
}

TEST(Tokenizer, SplitsAddedTokensOutFirst) {
  auto tokenizer = Tokenizer::fromJson(tinyTokenizer(), "tiny.json");
  EXPECT_EQ(tokenizer.encode("he<|end|>he"), (std::vector<int32_t>{256, 260, 256}));
  EXPECT_EQ(tokenizer.tokenId("<|end|>"), 260);
  EXPECT_EQ(tokenizer.tokenId("Ġw"), 259);
  EXPECT_FALSE(tokenizer.tokenId("nope"));
}

TEST(Tokenizer, DecodesBackToTheText) {
  auto tokenizer = Tokenizer::fromJson(tinyTokenizer(), "tiny.json");
  for (const char* text : {"hello world", "  tabs\tand\nnewlines  ", "é 😀 中文", "<|end|>x"})
    EXPECT_EQ(tokenizer.decode(tokenizer.encode(text)), std::string(text));
  EXPECT_THROW(tokenizer.decode(std::vector<int32_t>{9999}), std::out_of_range);
}

TEST(Tokenizer, RepairsIllFormedUtf8) {
  auto tokenizer = Tokenizer::fromJson(tinyTokenizer(), "tiny.json");
  EXPECT_EQ(tokenizer.decode(tokenizer.encode("a\xff"
                                              "b")),
            "a\xEF\xBF\xBD"
            "b");
  // Half of a two-byte character decodes as U+FFFD too.
  EXPECT_EQ(tokenizer.decode(std::vector<int32_t>{0xC3}), "\xEF\xBF\xBD");
}

TEST(Tokenizer, AddsThePrefixSpaceWhenConfigured) {
  auto json = tinyTokenizer();
  json["pre_tokenizer"]["add_prefix_space"] = true;
  auto tokenizer = Tokenizer::fromJson(json, "tiny.json");
  EXPECT_EQ(tokenizer.encode("w"), (std::vector<int32_t>{259}));
}

TEST(Tokenizer, AcceptsMergesAsPairs) {
  auto json = tinyTokenizer();
  using Pair = std::array<const char*, 2>;
  json["model"]["merges"] =
      nlohmann::json::array({Pair{"h", "e"}, Pair{"l", "l"}, Pair{"he", "ll"}, Pair{"Ġ", "w"}});
  auto tokenizer = Tokenizer::fromJson(json, "tiny.json");
  EXPECT_EQ(tokenizer.encode("hello"), (std::vector<int32_t>{258, 'o'}));
}

TEST(TokenizerErrors, NameTheFileAndJsonPath) {
  auto json = tinyTokenizer();
  json["model"]["merges"][2] = "he ll x";
  EXPECT_EQ(tokenizerErrorOf(json),
            "tiny.json: model.merges[2]: expected two symbols separated by one space");
  json = tinyTokenizer();
  json["model"]["merges"][1] = "l zz";
  EXPECT_NE(tokenizerErrorOf(json).find("tiny.json: model.merges[1]: merge of \"l\" and \"zz\""),
            std::string::npos);
  json = tinyTokenizer();
  json["model"]["type"] = "WordPiece";
  EXPECT_EQ(tokenizerErrorOf(json),
            "tiny.json: model.type: unsupported model \"WordPiece\" (supported: BPE)");
  json = tinyTokenizer();
  json.erase("pre_tokenizer");
  EXPECT_EQ(tokenizerErrorOf(json), "tiny.json: pre_tokenizer: missing required key");
  json = tinyTokenizer();
  const nlohmann::json split = {
      {"type", "Split"}, {"pattern", {{"Regex", "(["}}}, {"behavior", "Isolated"}};
  json["pre_tokenizer"] = {{"type", "Sequence"}, {"pretokenizers", nlohmann::json::array({split})}};
  EXPECT_NE(
      tokenizerErrorOf(json).find("tiny.json: pre_tokenizer.pretokenizers[0].pattern.Regex: bad pattern"),
      std::string::npos);
  json = tinyTokenizer();
  json["normalizer"] = {{"type", "NFKC"}};
  EXPECT_EQ(tokenizerErrorOf(json),
            "tiny.json: normalizer.type: unsupported normalizer \"NFKC\" (supported: NFC)");
  json = tinyTokenizer();
  json["model"]["vocab"].erase("Ā");
  EXPECT_EQ(tokenizerErrorOf(json), "tiny.json: model.vocab: no entry for the byte-level symbol of byte 0");
}

TEST(TokenizerErrors, MergePairsAndVocabIdsNameTheirPath) {
  auto json = tinyTokenizer();
  json["model"]["merges"][1] = nlohmann::json::array({"l", 7});
  EXPECT_EQ(tokenizerErrorOf(json),
            "tiny.json: model.merges[1][1]: expected a string, got a number");
  json["model"]["merges"][1] = nlohmann::json::array({"l"});
  EXPECT_EQ(tokenizerErrorOf(json), "tiny.json: model.merges[1]: expected a pair of symbols");
  json["model"]["merges"][1] = 12;
  EXPECT_EQ(tokenizerErrorOf(json), "tiny.json: model.merges[1]: expected an array, got a number");
  json = tinyTokenizer();
  const std::string idExpected =
      "tiny.json: model.vocab[\"ll\"]: expected a token id (a whole number from 0 to 4194303)";
  json["model"]["vocab"]["ll"] = 2.5;
  EXPECT_EQ(tokenizerErrorOf(json), idExpected);
  json["model"]["vocab"]["ll"] = -1;
  EXPECT_EQ(tokenizerErrorOf(json), idExpected);
  // Decoding keeps a table by id: 80,200,000 asked for 2.5 GB (tokenizer_json_fuzz).
  json["model"]["vocab"]["ll"] = 80200000;
  EXPECT_EQ(tokenizerErrorOf(json), idExpected);
  json["model"]["vocab"]["ll"] = 4194304;
  EXPECT_EQ(tokenizerErrorOf(json), idExpected);
  json = tinyTokenizer();
  json["added_tokens"][0]["id"] = 3000000000LL;
  EXPECT_EQ(
      tokenizerErrorOf(json),
      "tiny.json: added_tokens[0].id: expected a token id (a whole number from 0 to 4194303)");
  json = tinyTokenizer();
  json["added_tokens"][0]["id"] = 18446744073709551615ULL;
  EXPECT_EQ(tokenizerErrorOf(json), "tiny.json: added_tokens[0].id: integer out of range");
}

// A token named twice would take one id or the other depending on the reader (nlohmann and
// Python keep the last, serde the first): refused, as in workload files.
TEST(TokenizerErrors, ATokenNamedTwiceInTheVocabIsRefused) {
  EXPECT_EQ(tokenizerTextErrorOf(tinyTokenizerTextWithLl("\"ll\":257,\"ll\":258")),
            "tiny.json: model.vocab[\"ll\"]: token named twice in the vocab");
  EXPECT_EQ(tokenizerTextErrorOf(tinyTokenizerTextWithLl("\"ll\":257")), "no error");
}

TEST(TokenizerErrors, SyntaxErrorsArePlacedAndWhatOnlyTheFastParserRefusesIsNamed) {
  EXPECT_EQ(tokenizerTextErrorOf("{\"model\":\n  [1, 2"),
            "tiny.json: not valid JSON: line 2, column 8: syntax error while parsing array - "
            "unexpected end of input; expected ']'");
  EXPECT_EQ(tokenizerTextErrorOf(""),
            "tiny.json: not valid JSON: line 1, column 1: syntax error while parsing value - "
            "unexpected end of input; expected '[', '{', or a literal");
  // Deeper than simdjson reads (1024 levels), though well-formed.
  const std::string deep = "{\"model\": " + std::string(2000, '[') + std::string(2000, ']') + "}";
  const std::string error = tokenizerTextErrorOf(deep);
  EXPECT_EQ(error.rfind("tiny.json: not valid JSON: ", 0), 0U) << error;
  EXPECT_NE(error.find("deep"), std::string::npos) << error;
}

TEST(TokenizerErrors, ReportUnreadableAndMalformedFiles) {
  EXPECT_THROW(Tokenizer::fromFile("/nonexistent/tokenizer.json"), TokenizerError);
  const auto path = std::filesystem::temp_directory_path() / "plumbline_bad_tokenizer.json";
  std::ofstream(path) << "{\"model\": [1, 2";
  try {
    Tokenizer::fromFile(path.string());
    ADD_FAILURE() << "no error";
  } catch (const TokenizerError& error) {
    EXPECT_EQ(error.file(), path.string());
    EXPECT_NE(std::string(error.what()).find("not valid JSON"), std::string::npos);
  }
  std::filesystem::remove(path);
  const auto directory = std::filesystem::temp_directory_path() /
                         ("plumbline_tokenizer_dir_" + std::to_string(getpid()) + ".json");
  std::filesystem::create_directories(directory);
  try {
    Tokenizer::fromFile(directory.string());
    ADD_FAILURE() << "no error";
  } catch (const TokenizerError& error) {
    EXPECT_EQ(std::string(error.what()), directory.string() + ": cannot read: not a regular file");
  }
  std::filesystem::remove(directory);
  try {
    Tokenizer::fromFile("/nonexistent/tokenizer.json");
    ADD_FAILURE() << "no error";
  } catch (const TokenizerError& error) {
    EXPECT_EQ(std::string(error.what()),
              "/nonexistent/tokenizer.json: cannot open: No such file or directory");
  }
}

TEST(Tokenizer, KeepsOnlyMatchesForAnInvertedRemovedSplit) {
  auto json = tinyTokenizer();
  const nlohmann::json split = {{"type", "Split"},
                                {"pattern", {{"Regex", "\\p{L}+|\\s+"}}},
                                {"behavior", "Removed"},
                                {"invert", true}};
  const nlohmann::json byteLevel = {{"type", "ByteLevel"}, {"use_regex", false}};
  json["pre_tokenizer"] = {{"type", "Sequence"},
                           {"pretokenizers", nlohmann::json::array({split, byteLevel})}};
  auto tokenizer = Tokenizer::fromJson(json, "tiny.json");
  // "!" matches neither alternative, so the split drops it.
  EXPECT_EQ(tokenizer.encode("hello!"), (std::vector<int32_t>{258, 'o'}));
}

// Any bytes at all: no crash, and decoding gives back the input with ill-formed UTF-8 repaired.
TEST(Tokenizer, RoundTripsArbitraryBytes) {
  auto tokenizer = Tokenizer::fromJson(tinyTokenizer(), "tiny.json");
  uint64_t state = 12345;
  const auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<unsigned>(state >> 33);
  };
  const std::string alphabet = "he lo\t\n<|end|>\xC3\xA9\xF0\x9F\x98\x80\xE4\xB8\xAD\xFF\x80";
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    for (unsigned length = next() % 40; length > 0; --length)
      text += alphabet[next() % alphabet.size()];
    EXPECT_EQ(tokenizer.decode(tokenizer.encode(text)), toValidUtf8(text));
  }
}
