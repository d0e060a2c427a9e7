#pragma once
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace plumbline::engine {

/// Incremental Server-Sent Events parser (WHATWG rules that matter for LLM streams): lines end
/// in LF, CRLF or CR; "data:" lines (one optional space after the colon) accumulate with '\n'
/// between them; a blank line dispatches the event; comments and other fields are skipped.
/// Bytes may be split anywhere across feed() calls. Buffers keep their capacity, so a warm
/// parser allocates nothing per event. The data handed out always has kPadding spare bytes
/// of capacity (what simdjson needs to parse in place).
class SseParser {
 public:
  static constexpr size_t kPadding = 64;

  SseParser();
  /// Parses bytes; calls onData(std::string& data) for each complete event with data.
  template <class OnData>
  void feed(const char* p, size_t n, OnData&& onData);
  void reset();
  /// True if bytes of an unfinished line or event are buffered (a cut stream).
  bool midEvent() const { return !m_line.empty() || m_hasData; }
  size_t eventsDispatched() const { return m_events; }

 private:
  template <class OnData>
  void line(std::string_view l, OnData&& onData);
  void appendData(std::string_view v);

  std::string m_line;  ///< an unfinished line carried over from the previous feed
  std::string m_data;  ///< data of the event being read
  bool m_hasData = false;
  bool m_skipLf = false;  ///< the previous feed ended in CR: a leading LF belongs to it
  size_t m_events = 0;
};

template <class OnData>
void SseParser::feed(const char* p, size_t n, OnData&& onData) {
  const char* end = p + n;
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
      m_line.append(p, static_cast<size_t>(end - p));
      return;
    }
    std::string_view piece(p, static_cast<size_t>(eol - p));
    if (m_line.empty()) {
      line(piece, onData);
    } else {
      m_line.append(piece);
      line(std::string_view(m_line), onData);
      m_line.clear();
    }
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
void SseParser::line(std::string_view l, OnData&& onData) {
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
    if (m_hasData) m_data.push_back('\n');
    appendData(v);
    m_hasData = true;
  }
  // Comments (":...") and other fields (event, id, retry) carry nothing we measure.
}

}  // namespace plumbline::engine
