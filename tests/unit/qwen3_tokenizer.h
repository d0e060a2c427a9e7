#pragma once
// The Qwen3 tokenizer shipped in tests/tokenizer/qwen3, loaded once per test process.

#include <string>

#include "core/tokenizer/tokenizer.h"

namespace plumbline::testing {

inline const std::string kQwen3TokenizerFile =
    std::string(PLUMBLINE_SOURCE_DIR) + "/tests/tokenizer/qwen3/tokenizer.json";

inline tokenizer::Tokenizer& qwen3() {
  static tokenizer::Tokenizer tokenizer = tokenizer::Tokenizer::fromFile(kQwen3TokenizerFile);
  return tokenizer;
}

}  // namespace plumbline::testing
