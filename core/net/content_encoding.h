#pragma once
// A reply's Content-Encoding. Plumbline never sends Accept-Encoding (neither client decodes a
// body), so a server that compresses anyway has sent a body no completion can be read from:
// the request fails as malformed_stream, saying why instead of showing the compressed bytes.
#include <cstddef>
#include <string>
#include <string_view>

namespace plumbline::net {

/// Bytes of a Content-Encoding value kept to name it.
inline constexpr size_t kMaxContentCoding = 64;

/// The coding a Content-Encoding value says the body is in ("gzip", "br", "gzip, br"), trimmed
/// and cut to kMaxContentCoding bytes; empty when the value is empty or "identity".
std::string bodyContentCoding(std::string_view value);

/// "the reply is Content-Encoding: gzip, which was not asked for (the request sends no
/// Accept-Encoding)", then for a 2xx reply "; its body cannot be read as a completion", for
/// another "; its body is not shown".
std::string unaskedContentCodingText(std::string_view coding, bool completion);

}  // namespace plumbline::net
