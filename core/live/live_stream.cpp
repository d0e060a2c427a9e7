#include "core/live/live_stream.h"

#include <cstring>

#include "core/live/live_protocol.h"

namespace plumbline::live {

namespace {

using protocol::LiveFrameType;

constexpr size_t kFrameHeaderSize = 5;  // u32 length + u8 type

// The variant's alternatives are in LiveFrameType order, starting at 1.
LiveFrameType frameTypeOf(const LiveMessage& m) {
  return static_cast<LiveFrameType>(m.index() + 1);
}

void appendU32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint32_t readU32(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

}  // namespace

std::string encodeLiveGreeting() {
  std::string g(protocol::kMagic, 4);
  g.push_back(static_cast<char>(protocol::kVersion & 0xff));
  g.push_back(static_cast<char>(protocol::kVersion >> 8));
  g.append(2, '\0');
  return g;
}

std::string encodeLiveFrame(const LiveMessage& m) {
  const LiveFrameType type = frameTypeOf(m);
  // Replace invalid UTF-8 (e.g. a server's error text) rather than throw: a notice must go out.
  const std::string payload =
      toJson(m).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (payload.size() + 1 > protocol::kMaxFrameSize)
    throw LiveProtocolError(std::string(protocol::liveFrameTypeName(type)) + " frame of " +
                            std::to_string(payload.size() + 1) + " bytes exceeds the limit of " +
                            std::to_string(protocol::kMaxFrameSize));
  std::string out;
  out.reserve(kFrameHeaderSize + payload.size());
  appendU32(out, static_cast<uint32_t>(payload.size() + 1));
  out.push_back(static_cast<char>(type));
  out.append(payload);
  return out;
}

void LiveStreamReader::feed(std::string_view bytes) {
  if (m_pos > 0 && m_pos * 2 > m_buffer.size()) {  // compact once half is consumed
    m_buffer.erase(0, m_pos);
    m_pos = 0;
  }
  m_buffer.append(bytes);
}

namespace {

[[noreturn]] void failAt(bool& failed, uint64_t offset, const std::string& what) {
  failed = true;
  throw LiveProtocolError(what + " (at byte offset " + std::to_string(offset) + ")");
}

}  // namespace

std::optional<LiveMessage> LiveStreamReader::next() {
  if (m_failed) throw LiveProtocolError("live stream already failed; it cannot be resumed");
  const auto buffered = [this] { return m_buffer.size() - m_pos; };
  if (!m_greeted) {
    const size_t have = std::min(buffered(), size_t{4});
    if (std::memcmp(m_buffer.data() + m_pos, protocol::kMagic, have) != 0)
      failAt(m_failed, m_consumed, "bad greeting: not a Plumbline live stream (magic is not PLML)");
    if (buffered() < protocol::kGreetingSize) return std::nullopt;
    const uint16_t version = static_cast<uint16_t>(
        static_cast<unsigned char>(m_buffer[m_pos + 4]) |
        (static_cast<unsigned char>(m_buffer[m_pos + 5]) << 8));
    if (version != protocol::kVersion)
      failAt(m_failed, m_consumed + 4,
             "live protocol version " + std::to_string(version) + " not supported (this reader is " +
                 std::to_string(protocol::kVersion) + ")");
    m_pos += protocol::kGreetingSize;
    m_consumed += protocol::kGreetingSize;
    m_greeted = true;
  }
  while (buffered() >= kFrameHeaderSize) {
    const uint32_t length = readU32(m_buffer.data() + m_pos);
    const auto typeByte = static_cast<uint8_t>(m_buffer[m_pos + 4]);
    const bool known = protocol::isKnownLiveFrameType(typeByte);
    const std::string name = known ? std::string(protocol::liveFrameTypeName(
                                         static_cast<LiveFrameType>(typeByte)))
                                   : "type-" + std::to_string(typeByte);
    if (length == 0) failAt(m_failed, m_consumed, "frame of length 0 (no type byte)");
    if (length > protocol::kMaxFrameSize)
      failAt(m_failed, m_consumed,
             name + " frame of " + std::to_string(length) + " bytes exceeds the limit of " +
                 std::to_string(protocol::kMaxFrameSize));
    if (buffered() < 4 + static_cast<size_t>(length)) return std::nullopt;
    const uint64_t frameOffset = m_consumed;
    const std::string_view payload(m_buffer.data() + m_pos + kFrameHeaderSize, length - 1);
    m_pos += 4 + length;
    m_consumed += 4 + length;
    if (!known) continue;  // a newer revision's frame: skip it whole
    nlohmann::json j = nlohmann::json::parse(payload, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded())
      failAt(m_failed, frameOffset, name + " frame: payload is not valid JSON");
    try {
      return messageFromJson(typeByte, j);
    } catch (const LiveProtocolError& e) {
      failAt(m_failed, frameOffset, e.what());
    }
  }
  return std::nullopt;
}

}  // namespace plumbline::live
