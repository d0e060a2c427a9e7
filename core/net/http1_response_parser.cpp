#include "core/net/http1_response_parser.h"

#include <algorithm>
#include <cstring>

#include "core/net/content_encoding.h"
#include "core/net/retry_after.h"
#include "core/util/hex_digit.h"

namespace plumbline::net {

namespace {
constexpr size_t kMaxChunkLine = 4096;  ///< a chunk-size line with extensions, generously

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool equalsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != b[i]) return false;
  return true;
}

std::string_view trim(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

bool isTokenChar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::strchr("!#$%&'*+-.^_`|~", c) != nullptr && c != '\0';
}

/// Calls f(token) for each comma-separated element of a header value, trimmed, skipping empties.
template <class F>
void forEachToken(std::string_view v, F&& f) {
  while (!v.empty()) {
    const size_t comma = v.find(',');
    const std::string_view item = trim(v.substr(0, comma));
    if (!item.empty()) f(item);
    if (comma == std::string_view::npos) break;
    v.remove_prefix(comma + 1);
  }
}

bool parseDecimal(std::string_view v, uint64_t& out) {
  if (v.empty() || v.size() > 18) return false;  // 10^18 bytes is past any real body
  uint64_t x = 0;
  for (char c : v) {
    if (c < '0' || c > '9') return false;
    x = x * 10 + static_cast<uint64_t>(c - '0');
  }
  out = x;
  return true;
}

/// The start of a line that may still become "HTTP/1.x ..." (or a blank line's CR).
bool couldStartStatusLine(std::string_view start) {
  if (start == "\r") return true;
  const size_t n = std::min<size_t>(start.size(), 7);
  return start.compare(0, n, std::string_view("HTTP/1.").substr(0, n)) == 0;
}
}  // namespace

std::string_view http1ErrorText(Http1Error e) {
  switch (e) {
    case Http1Error::None: return "no error";
    case Http1Error::BadStatusLine: return "bad status line (not an HTTP/1.x response)";
    case Http1Error::BadHeader: return "bad header line";
    case Http1Error::HeadersTooLarge: return "response headers too large";
    case Http1Error::BadContentLength: return "bad Content-Length";
    case Http1Error::UnsupportedEncoding: return "unsupported Transfer-Encoding";
    case Http1Error::BadChunkSize: return "bad chunk size line";
    case Http1Error::BadChunkEnd: return "chunk data not followed by CRLF";
    case Http1Error::UnexpectedUpgrade: return "unexpected 101 Switching Protocols";
  }
  return "unknown error";
}

void Http1ResponseParser::reset() {
  m_state = State::StatusLine;
  m_error = Http1Error::None;
  m_line.clear();
  m_headerBytes = 0;
  m_status = 0;
  m_minor = 1;
  m_started = m_headersDone = false;
  m_keepAlive = true;
  m_sawKeepAliveToken = m_chunked = m_hasLength = m_pendingCr = false;
  m_length = m_remaining = 0;
  m_retryAfterMs = -1;
  m_location.clear();
  m_unreadableRetryAfter.clear();
  m_contentCoding.clear();
}

size_t Http1ResponseParser::fail(Http1Error e, size_t consumed) {
  m_state = State::Failed;
  m_error = e;
  m_keepAlive = false;
  return consumed;
}

bool Http1ResponseParser::takeLine(const char*& p, const char* end, std::string_view& line) {
  const auto* lf = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
  if (lf == nullptr) {
    m_line.append(p, static_cast<size_t>(end - p));
    p = end;
    return false;
  }
  if (m_line.empty()) {
    line = std::string_view(p, static_cast<size_t>(lf - p));
  } else {
    m_line.append(p, static_cast<size_t>(lf - p));
    line = m_line;
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  p = lf + 1;
  return true;
}

size_t Http1ResponseParser::feed(const char* p, size_t n, BodySink sink, void* context) {
  const char* const start = p;
  const char* const end = p + n;
  if (n > 0) m_started = true;
  auto consumed = [&] { return static_cast<size_t>(p - start); };
  while (p < end) {
    switch (m_state) {
      case State::StatusLine:
      case State::Headers:
      case State::Trailers:
      case State::ChunkSize: {
        const bool headerPart = m_state != State::ChunkSize;
        std::string_view line;
        const bool complete = takeLine(p, end, line);
        const size_t lineBytes = complete ? line.size() : m_line.size();
        if (headerPart ? m_headerBytes + lineBytes > kMaxHeaderBytes : lineBytes > kMaxChunkLine)
          return fail(headerPart ? Http1Error::HeadersTooLarge : Http1Error::BadChunkSize, consumed());
        // A status line is wrong from its first bytes on: waiting for its end would wait for
        // a line that may never come (a 1xx followed by a body, bytes that are not HTTP).
        if (!complete && m_state == State::StatusLine && !couldStartStatusLine(m_line))
          return fail(Http1Error::BadStatusLine, consumed());
        if (!complete) return consumed();
        if (headerPart) m_headerBytes += line.size() + 2;
        bool ok = true;
        if (m_state == State::StatusLine) {
          ok = line.empty() || statusLine(line);  // blank lines before a status line are ignored
        } else if (m_state == State::Headers) {
          if (line.empty()) endOfHeaders();
          else ok = headerLine(line);
        } else if (m_state == State::Trailers) {
          if (line.empty()) m_state = State::Done;
        } else {
          ok = chunkSizeLine(line);
        }
        m_line.clear();
        if (!ok) return consumed();  // fail() already set the state
        if (m_state == State::Failed) return consumed();
        break;
      }
      case State::Body:
      case State::ChunkData: {
        const size_t take = static_cast<size_t>(std::min<uint64_t>(m_remaining, static_cast<uint64_t>(end - p)));
        sink(context, p, take);
        p += take;
        m_remaining -= take;
        if (m_remaining == 0) m_state = m_state == State::Body ? State::Done : State::ChunkDataEnd;
        break;
      }
      case State::ChunkDataEnd:
        if (*p == '\r' && !m_pendingCr) {
          m_pendingCr = true;
          ++p;
        } else if (*p == '\n') {
          m_pendingCr = false;
          ++p;
          m_state = State::ChunkSize;
        } else {
          return fail(Http1Error::BadChunkEnd, consumed());
        }
        break;
      case State::UntilClose:
        sink(context, p, static_cast<size_t>(end - p));
        p = end;
        break;
      case State::Done:
      case State::Failed:
        return consumed();
    }
  }
  return consumed();
}

bool Http1ResponseParser::statusLine(std::string_view line) {
  // "HTTP/1.x SP NNN [SP reason]"
  if (line.size() < 12 || line.compare(0, 7, "HTTP/1.") != 0 || line[7] < '0' || line[7] > '9' || line[8] != ' ') {
    fail(Http1Error::BadStatusLine, 0);
    return false;
  }
  int status = 0;
  for (size_t i = 9; i < 12; ++i) {
    if (line[i] < '0' || line[i] > '9') {
      fail(Http1Error::BadStatusLine, 0);
      return false;
    }
    status = status * 10 + (line[i] - '0');
  }
  if (status < 100 || (line.size() > 12 && line[12] != ' ')) {
    fail(Http1Error::BadStatusLine, 0);
    return false;
  }
  m_status = status;
  m_minor = line[7] - '0';
  m_state = State::Headers;
  return true;
}

bool Http1ResponseParser::headerLine(std::string_view line) {
  const size_t colon = line.find(':');
  if (colon == 0 || colon == std::string_view::npos) {
    fail(Http1Error::BadHeader, 0);  // also rejects obsolete line folding (no colon)
    return false;
  }
  const std::string_view name = line.substr(0, colon);
  if (!std::all_of(name.begin(), name.end(), isTokenChar) ||
      line.find_first_of(std::string_view("\r\0", 2), colon) != std::string_view::npos) {
    fail(Http1Error::BadHeader, 0);
    return false;
  }
  const std::string_view value = trim(line.substr(colon + 1));
  if (equalsNoCase(name, "content-length")) {
    uint64_t length = 0;
    if (!parseDecimal(value, length) || (m_hasLength && length != m_length)) {
      fail(Http1Error::BadContentLength, 0);
      return false;
    }
    m_hasLength = true;
    m_length = length;
  } else if (equalsNoCase(name, "transfer-encoding")) {
    bool ok = true;
    forEachToken(value, [&](std::string_view coding) {
      if (equalsNoCase(coding, "chunked")) m_chunked = true;
      else if (!equalsNoCase(coding, "identity")) ok = false;
    });
    if (!ok) {
      fail(Http1Error::UnsupportedEncoding, 0);
      return false;
    }
  } else if (equalsNoCase(name, "retry-after")) {
    // A value we cannot read is recorded as none, and kept for the failure sample to say so.
    m_retryAfterMs = parseRetryAfterMsNow(value);
    if (m_retryAfterMs < 0)
      m_unreadableRetryAfter.assign(value.substr(0, kMaxRetryAfterShown + 1));
    else
      m_unreadableRetryAfter.clear();
  } else if (equalsNoCase(name, "content-encoding")) {
    m_contentCoding = bodyContentCoding(value);
  } else if (equalsNoCase(name, "location")) {
    m_location.assign(value.substr(0, kMaxLocation));
  } else if (equalsNoCase(name, "connection")) {
    forEachToken(value, [&](std::string_view option) {
      if (equalsNoCase(option, "close")) m_keepAlive = false;
      else if (equalsNoCase(option, "keep-alive")) m_sawKeepAliveToken = true;
    });
  }
  return true;
}

void Http1ResponseParser::endOfHeaders() {
  if (m_status < 200) {
    if (m_status == 101) {
      fail(Http1Error::UnexpectedUpgrade, 0);
      return;
    }
    // An interim response (100 Continue, 103 Early Hints): the real one follows.
    m_state = State::StatusLine;
    m_keepAlive = true;
    m_sawKeepAliveToken = m_chunked = m_hasLength = false;
    m_length = 0;
    m_retryAfterMs = -1;
    m_location.clear();
    m_unreadableRetryAfter.clear();
    m_contentCoding.clear();
    return;
  }
  m_headersDone = true;
  if (m_minor == 0 && !m_sawKeepAliveToken) m_keepAlive = false;  // HTTP/1.0 closes by default
  if (m_status == 204 || m_status == 304) {
    m_state = State::Done;
  } else if (m_chunked) {
    m_state = State::ChunkSize;  // chunked wins over any Content-Length (RFC 9112 6.3)
  } else if (m_hasLength) {
    m_remaining = m_length;
    m_state = m_length == 0 ? State::Done : State::Body;
  } else {
    m_state = State::UntilClose;
    m_keepAlive = false;
  }
}

bool Http1ResponseParser::chunkSizeLine(std::string_view line) {
  uint64_t size = 0;
  size_t i = 0;
  for (; i < line.size(); ++i) {
    const int v = util::hexDigitValue(line[i]);
    if (v < 0) break;
    if (i >= 15) {  // 16^15 bytes: no real chunk, and no overflow below
      fail(Http1Error::BadChunkSize, 0);
      return false;
    }
    size = size * 16 + static_cast<uint64_t>(v);
  }
  const std::string_view rest = trim(line.substr(i));
  if (i == 0 || (!rest.empty() && rest.front() != ';')) {
    fail(Http1Error::BadChunkSize, 0);
    return false;
  }
  if (size == 0) {
    m_state = State::Trailers;
  } else {
    m_remaining = size;
    m_state = State::ChunkData;
  }
  return true;
}

bool Http1ResponseParser::finishAtEof() {
  if (m_state == State::UntilClose) m_state = State::Done;
  return m_state == State::Done;
}

}  // namespace plumbline::net
