#pragma once
#include <string>
#include <string_view>

namespace plumbline::tokenizer {

/// Whether `text` is well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF).
bool isValidUtf8(std::string_view text);

/// `text` with every ill-formed sequence replaced by U+FFFD, one per maximal invalid subpart
/// (the policy of Rust's String::from_utf8_lossy, which Hugging Face decoders use).
std::string toValidUtf8(std::string_view text);

/// Appends the UTF-8 encoding of `codePoint`.
void appendUtf8(std::string& out, char32_t codePoint);

/// The code point starting at `text[offset]`, advancing offset; `text` must be valid UTF-8.
char32_t nextCodePoint(std::string_view text, size_t& offset);

}  // namespace plumbline::tokenizer
