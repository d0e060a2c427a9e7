#pragma once
#include <string>
#include <string_view>

namespace plumbline::util {

/// A JSON object key as an error message may show it: control bytes escaped as JSON writes them
/// ("a\nb", "\u001b[31m", "\u0000": a message stays one line, an escape sequence reaches no
/// terminal, a NUL does not cut the message short), and at most 64 bytes ("..." after them).
std::string shownKey(std::string_view key);

}  // namespace plumbline::util
