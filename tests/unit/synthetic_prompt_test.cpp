// Synthetic prompts must have exactly the requested token count under the chosen tokenizer.
#include <iostream>

#include <gtest/gtest.h>

#include "core/tokenizer/synthetic_prompt.h"
#include "tests/unit/qwen3_tokenizer.h"

using namespace plumbline::tokenizer;

using plumbline::testing::qwen3;

TEST(SyntheticPrompt, HitsEveryLengthFrom1To4096Exactly) {
  SyntheticPromptBuilder builder(qwen3());
  size_t exact = 0;
  for (size_t tokens = 1; tokens <= 4096; ++tokens) {
    const std::string prompt = builder.build(tokens, 1000 + tokens);
    const size_t count = qwen3().countTokens(prompt);
    if (count == tokens)
      ++exact;
    else
      ADD_FAILURE() << "asked " << tokens << " tokens, got " << count;
  }
  std::cout << "[synthetic] " << exact << " of 4096 lengths (1..4096) exact under "
            << builder.tokenizerFile() << " (" << builder.wordCount() << " one-token words)\n";
  EXPECT_EQ(exact, 4096u);
}

TEST(SyntheticPrompt, HitsLongContextLengthsExactly) {
  SyntheticPromptBuilder builder(qwen3());
  for (const size_t tokens : {8192u, 16384u, 32000u, 32768u, 131072u}) {
    const std::string prompt = builder.build(tokens, tokens);
    EXPECT_EQ(qwen3().countTokens(prompt), tokens);
    std::cout << "[synthetic] " << tokens << " tokens exact: " << prompt.size() << " bytes\n";
  }
}

TEST(SyntheticPrompt, IsDeterministicPerSeedAndReadable) {
  SyntheticPromptBuilder builder(qwen3());
  EXPECT_EQ(builder.build(300, 7), builder.build(300, 7));
  EXPECT_NE(builder.build(300, 7), builder.build(300, 8));
  EXPECT_EQ(builder.build(0, 7), "");
  const std::string prompt = builder.build(40, 3);
  EXPECT_NE(prompt.find(' '), std::string::npos);
  EXPECT_NE(prompt.find('.'), std::string::npos);
}
