#include "core/engine/sse_parser.h"

namespace plumbline::engine {

SseParser::SseParser() {
  m_line.reserve(256);
  m_data.reserve(1024);
}

void SseParser::appendData(std::string_view v) {
  const size_t need = m_data.size() + v.size() + kPadding;
  if (need > m_data.capacity()) m_data.reserve(need * 2);
  m_data.append(v);
}

void SseParser::reset() {
  m_line.clear();
  m_data.clear();
  m_hasData = false;
  m_skipLf = false;
  m_events = 0;
}

}  // namespace plumbline::engine
