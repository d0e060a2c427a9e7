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

void SseParser::giveUp() {
  m_overflow = true;
  std::string().swap(m_line);  // free what the runaway event took
  std::string().swap(m_data);
  m_hasData = false;
}

void SseParser::reset() {
  m_line.clear();
  m_data.clear();
  if (m_overflow) {  // buffers were freed: take the usual ones again
    m_line.reserve(256);
    m_data.reserve(1024);
  }
  m_hasData = false;
  m_skipLf = false;
  m_atStart = true;
  m_overflow = false;
  m_events = 0;
}

}  // namespace plumbline::engine
