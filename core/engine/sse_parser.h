#pragma once
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace plumbline::engine {

/// Incremental Server-Sent Events parser (WHATWG rules that matter for LLM streams): a UTF-8
/// byte order mark opening the stream is skipped; lines end in LF, CRLF or CR; "data:" lines
/// (one optional space after the colon) accumulate with '\n' between them; a blank line
/// dispatches the event; comments and other fields are skipped. Bytes may be split anywhere
/// across feed() calls. Buffers keep their capacity, so a warm parser allocates nothing per
/// event. The data handed out always has kPadding spare bytes of capacity (what simdjson needs
/// to parse in place). One event (or line) longer than kMaxEventBytes stops the parser: its
/// buffers are freed and overflowed() says so, so that a server cannot grow a worker's memory
/// without bound.
class SseParser {
 public:
  static constexpr size_t kPadding = 64;
  static constexpr size_t kMaxEventBytes = 8u << 20;

  SseParser();
  /// Parses bytes; calls onData(std::string& data) for each complete event with data.
  template <class OnData>
  void feed(const char* p, size_t n, OnData&& onData);
  /// At the clean end of the body: dispatches an event the server did not close with a blank
  /// line (as the OpenAI client libraries do). Returns how many it dispatched (0 or 1).
  template <class OnData>
  size_t finish(OnData&& onData);
  void reset();
  /// True if bytes of an unfinished line or event are buffered (a cut stream).
  bool midEvent() const { return !m_line.empty() || m_hasData; }
  size_t eventsDispatched() const { return m_events; }
  bool overflowed() const { return m_overflow; }

 private:
  template <class OnData>
  void line(std::string_view l, OnData&& onData);
  void appendData(std::string_view v);
  void giveUp();  ///< an event grew past kMaxEventBytes

  std::string m_line;  ///< an unfinished line carried over from the previous feed
  std::string m_data;  ///< data of the event being read
  bool m_hasData = false;
  bool m_skipLf = false;  ///< the previous feed ended in CR: a leading LF belongs to it
  bool m_atStart = true;  ///< no line read yet: a byte order mark may open it
  bool m_overflow = false;
  size_t m_events = 0;
};

template <class OnData>
void SseParser::feed(const char* p, size_t n, OnData&& onData) {
  const char* end = p + n;
  if (m_overflow) return;
  if (m_skipLf && p < end) {
    if (*p == '\n') ++p;
    m_skipLf = false;
  }
  while (p < end) {
    const auto* lf = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    const char* stop = lf != nullptr ? lf : end;
    const auto* cr = static_cast<const char*>(std::memchr(p, '\r', static_cast<size_t>(stop - p)));
    const char* eol = cr != nullptr ? cr : lf;
    if (eol == nullptr) {  // no terminator yet: keep the partial line
      if (m_line.size() + m_data.size() + static_cast<size_t>(end - p) > kMaxEventBytes)
        return giveUp();
      m_line.append(p, static_cast<size_t>(end - p));
      return;
    }
    std::string_view piece(p, static_cast<size_t>(eol - p));
    if (m_line.empty()) {
      line(piece, onData);
    } else {
      if (m_line.size() + m_data.size() + piece.size() > kMaxEventBytes) return giveUp();
      m_line.append(piece);
      line(std::string_view(m_line), onData);
      m_line.clear();
    }
    if (m_overflow) return;
    p = eol + 1;
    if (*eol == '\r') {
      if (p < end) {
        if (*p == '\n') ++p;
      } else {
        m_skipLf = true;
      }
    }
  }
}

template <class OnData>
size_t SseParser::finish(OnData&& onData) {
  if (m_overflow) return 0;
  const size_t before = m_events;
  if (!m_line.empty()) {
    std::string last;
    last.swap(m_line);
    line(std::string_view(last), onData);
  }
  line(std::string_view(), onData);
  return m_events - before;
}

template <class OnData>
void SseParser::line(std::string_view l, OnData&& onData) {
  if (m_atStart) {
    m_atStart = false;
    if (l.size() >= 3 && std::memcmp(l.data(), "\xEF\xBB\xBF", 3) == 0) l.remove_prefix(3);
  }
  if (l.empty()) {
    if (m_hasData) {
      ++m_events;
      onData(m_data);
      m_data.clear();
      m_hasData = false;
    }
    return;
  }
  if (l.size() >= 5 && std::memcmp(l.data(), "data:", 5) == 0) {
    std::string_view v = l.substr(5);
    if (!v.empty() && v.front() == ' ') v.remove_prefix(1);
    if (m_data.size() + v.size() + 1 > kMaxEventBytes) return giveUp();
    if (m_hasData) m_data.push_back('\n');
    appendData(v);
    m_hasData = true;
  }
  // Comments (":...") and other fields (event, id, retry) carry nothing we measure.
}

}  // namespace plumbline::engine
