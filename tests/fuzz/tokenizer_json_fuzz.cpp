// Fuzzes the tokenizer.json loader (core/tokenizer/tokenizer.h) and then the tokenizer it
// builds. Input: a tokenizer.json document, optionally followed by a NUL byte and a text to
// encode. Any document must load or throw TokenizerError, never crash; a loaded tokenizer
// must encode any bytes into ids it can decode.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/tokenizer/tokenizer.h"
#include "core/tokenizer/tokenizer_error.h"

using namespace plumbline::tokenizer;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto* begin = reinterpret_cast<const char*>(data);
  const auto* nul = static_cast<const char*>(std::memchr(begin, 0, size));
  const char* docEnd = nul != nullptr ? nul : begin + size;
  const std::string_view text = nul != nullptr
                                    ? std::string_view(nul + 1, begin + size - nul - 1)
                                    : std::string_view("hello world <|end|> \xC3\xA9\xFF");
  try {
    auto tokenizer = Tokenizer::fromText(std::string_view(begin, docEnd), "fuzz.json");
    const auto ids = tokenizer.encode(text);
    if (tokenizer.countTokens(text) != ids.size()) __builtin_trap();
    for (int32_t id : ids)
      if (id < 0 || static_cast<size_t>(id) >= tokenizer.vocabSize()) __builtin_trap();
    (void)tokenizer.decode(ids);
  } catch (const TokenizerError&) {
  }
  return 0;
}
