#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace plumbline::util {

/// Where a JSON text failed to parse and why, as a person reads it. nlohmann's messages carry an
/// exception id and, for a multi-line text read line by line, a position within the wrong text.
struct JsonSyntaxError {
  size_t line = 1;      ///< 1-based; lines end at LF, CR LF or a lone CR
  size_t column = 1;    ///< 1-based, in characters (UTF-8 code points)
  bool placed = false;  ///< false where the parser gave no position (a number too large)
  std::string
      reason;  ///< "syntax error while parsing object - unexpected '}'; expected string literal"

  /// "line 3, column 7: REASON", or REASON alone when not placed.
  std::string describe() const;
};

/// `error` (a parse_error or out_of_range from parsing `text`) placed in `text`.
JsonSyntaxError jsonSyntaxError(std::string_view text, const nlohmann::json::exception& error);

}  // namespace plumbline::util
