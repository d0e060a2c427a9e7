#include "core/util/json_syntax_error.h"

#include <algorithm>

namespace plumbline::util {

std::string JsonSyntaxError::describe() const {
  if (!placed) return reason;
  return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + reason;
}

JsonSyntaxError jsonSyntaxError(std::string_view text, const nlohmann::json::exception& error) {
  JsonSyntaxError out;
  std::string message = error.what();
  // "[json.exception.parse_error.101] parse error at line 1, column 36: syntax error ..."
  if (const auto bracket = message.find("] ");
      message.rfind("[json.exception", 0) == 0 && bracket != std::string::npos)
    message = message.substr(bracket + 2);
  if (const auto* parse = dynamic_cast<const nlohmann::json::parse_error*>(&error)) {
    if (const auto colon = message.find(": "); colon != std::string::npos)
      message = message.substr(colon + 2);
    // byte is 1-based and points just past the offending character. Lines end at LF, CR LF
    // or a lone CR (as editors break them); columns count characters, not UTF-8 bytes.
    const size_t end = std::min<size_t>(parse->byte == 0 ? 0 : parse->byte - 1, text.size());
    const size_t bom = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;  // editors do not show it
    for (size_t i = std::min(bom, end); i < end; ++i) {
      const auto c = static_cast<unsigned char>(text[i]);
      if (c == '\n' || (c == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) {
        ++out.line;
        out.column = 1;
      } else if (c != '\r' && (c & 0xC0) != 0x80) {  // a CR before LF and continuation bytes
        ++out.column;
      }
    }
    out.placed = true;
  }
  out.reason = message;
  return out;
}

}  // namespace plumbline::util
