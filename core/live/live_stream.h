#pragma once
// Byte-level encoding and incremental decoding of the live-telemetry stream (live_protocol.h).
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/live/live_messages.h"

namespace plumbline::live {

/// A stream or frame a reader cannot accept; what() names the problem and the byte offset.
class LiveProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The 8-byte greeting the server sends first.
std::string encodeLiveGreeting();
/// One complete frame (header + JSON payload) for m.
std::string encodeLiveFrame(const LiveMessage& m);

/// Incremental reader: feed bytes as they arrive, take complete messages out. The greeting
/// is checked first. After a LiveProtocolError the reader stays failed (it cannot resync).
class LiveStreamReader {
 public:
  void feed(std::string_view bytes);
  /// The next complete message, or nullopt until more bytes arrive. Frames of unknown
  /// (newer) types are skipped. Throws LiveProtocolError.
  std::optional<LiveMessage> next();
  uint64_t bytesConsumed() const { return m_consumed; }

 private:
  std::string m_buffer;
  size_t m_pos = 0;
  uint64_t m_consumed = 0;
  bool m_greeted = false;
  bool m_failed = false;
};

}  // namespace plumbline::live
