#pragma once
// The coordinator → studio live-telemetry protocol, defined here and nowhere else.
//
// `plumbline run --live SOCKET` listens on a Unix stream socket at SOCKET. A client that
// connects receives, in order: the 8-byte greeting (kMagic, kVersion, 2 reserved bytes),
// a Hello frame, every Window and Notice frame sent so far (in their original order), the
// latest Tick, then the live frames as they happen, and finally an End frame, after which
// the server closes the connection. A run that fails before it starts sends End (status
// "failed") without a Hello. Clients send nothing. Frames:
//   u32 length (little-endian; counts the type byte and the payload) | u8 LiveFrameType |
//   payload = one UTF-8 JSON object (schemas in live_messages.h)
// Readers consume complete frames only and reject anything else with a named error.
// LiveFrameType values are append-only: never renumber, never reuse. Unknown types from a
// newer minor revision are skipped by readers, not fatal.
//
// The server never blocks the run: each client has a bounded output buffer (4 MiB); once
// half of it is unread, Tick frames for that client are dropped (and counted in the next Tick
// it does get); Hello, Window, Notice and End frames are never dropped: a client that cannot
// take one any more is disconnected (and the run's notes say so). The database has it all.
#include <cstdint>
#include <string_view>

namespace plumbline::live::protocol {

inline constexpr char kMagic[4] = {'P', 'L', 'M', 'L'};
inline constexpr uint16_t kVersion = 1;
inline constexpr size_t kGreetingSize = 8;  ///< magic(4) + version(2) + reserved(2)
inline constexpr uint32_t kMaxFrameSize = 4u << 20;
inline constexpr int64_t kTickIntervalNs = 250'000'000;  ///< Tick frames: 4 per second

enum class LiveFrameType : uint8_t {
  Hello = 1,   ///< what is running: run id, workload, target, plan totals
  Tick = 2,    ///< every kTickIntervalNs: counters, rates and recent latency, harness state
  Window = 3,  ///< a closed, final window (same fields as store::WindowRow)
  Notice = 4,  ///< a line for the user (worker died, stop requested, ...)
  End = 5,     ///< the run is over: status and the --summary-json object
};

inline std::string_view liveFrameTypeName(LiveFrameType t) {
  switch (t) {
    case LiveFrameType::Hello: return "hello";
    case LiveFrameType::Tick: return "tick";
    case LiveFrameType::Window: return "window";
    case LiveFrameType::Notice: return "notice";
    case LiveFrameType::End: return "end";
  }
  return "unknown";
}

inline bool isKnownLiveFrameType(uint8_t t) { return t >= 1 && t <= 5; }

}  // namespace plumbline::live::protocol
