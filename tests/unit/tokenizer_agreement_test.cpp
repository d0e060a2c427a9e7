// Our tokenizer against implementations no one here wrote: tests/tokenizer/reference_ids.json
// holds, for 1,120 varied texts, the ids that Hugging Face's tokenizers.js (cross-checked with
// the Rust tokenizers crate) gives under Qwen3's tokenizer.json. Ours must be identical.
#include <fstream>
#include <iostream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/tokenizer/tokenizer.h"
#include "tests/unit/qwen3_tokenizer.h"

using plumbline::testing::qwen3;
using plumbline::tokenizer::Tokenizer;

namespace {

const std::string kDataDir = std::string(PLUMBLINE_SOURCE_DIR) + "/tests/tokenizer/";

nlohmann::json loadReference() {
  std::ifstream in(kDataDir + "reference_ids.json");
  return nlohmann::json::parse(in);
}

}  // namespace

TEST(TokenizerAgreement, IdsMatchTheReferenceLibraryOnEveryText) {
  const nlohmann::json reference = loadReference();
  const auto& cases = reference.at("cases");
  ASSERT_GE(cases.size(), 1000u);
  size_t identical = 0, tokens = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto text = cases[i].at("text").get<std::string>();
    const auto expected = cases[i].at("ids").get<std::vector<int32_t>>();
    const auto ids = qwen3().encode(text);
    tokens += expected.size();
    if (ids == expected)
      ++identical;
    else
      ADD_FAILURE() << "text #" << i << " " << nlohmann::json(text).dump()
                    << "\n  ours: " << nlohmann::json(ids).dump()
                    << "\n  reference: " << nlohmann::json(expected).dump();
  }
  std::cout << "[agreement] " << identical << " of " << cases.size() << " texts (" << tokens
            << " tokens) identical to " << reference.at("library").get<std::string>() << " on "
            << reference.at("tokenizer").get<std::string>() << "; reference cross-checked with "
            << reference.at("cross_check").at("library").get<std::string>() << ": "
            << reference.at("cross_check").at("identical") << " identical\n";
  EXPECT_EQ(identical, cases.size());
}

TEST(TokenizerAgreement, DecodeMatchesTheReferenceLibrary) {
  const nlohmann::json reference = loadReference();
  size_t identical = 0;
  for (const auto& entry : reference.at("cases")) {
    const auto ids = entry.at("ids").get<std::vector<int32_t>>();
    const auto decoded = qwen3().decode(ids);
    if (decoded == entry.at("decoded").get<std::string>())
      ++identical;
    else
      ADD_FAILURE() << "decode differs for " << entry.at("text").dump();
  }
  EXPECT_EQ(identical, reference.at("cases").size());
}

TEST(TokenizerAgreement, ReferenceWasCrossCheckedWithRustTokenizers) {
  const nlohmann::json reference = loadReference();
  EXPECT_EQ(reference.at("cross_check").at("identical"), reference.at("cases").size());
}
