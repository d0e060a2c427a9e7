#pragma once
// The worker ⇄ coordinator wire protocol, defined here and nowhere else.
//
// Stream: each side first sends the 8-byte greeting (kMagic, kVersion), then frames:
//   u32 length (little-endian, counts the type byte and payload) | u8 FrameType | payload
// Readers consume complete frames only and reject anything else with a named error.
// FrameType values are append-only: never renumber, never reuse.
#include <cstdint>
#include <string_view>

namespace plumbline::engine::protocol {

inline constexpr char kMagic[4] = {'P', 'L', 'M', 'W'};
inline constexpr uint16_t kVersion = 1;
inline constexpr size_t kGreetingSize = 8;  ///< magic(4) + version(2) + reserved(2)
inline constexpr uint32_t kMaxFrameSize = 16u << 20;
/// Workers count their sends, and the dependent requests that came due, by slices of run time
/// this long (slice i is [i × kRateSliceNs, (i + 1) × kRateSliceNs)): the live rates are sums
/// of whole slices.
inline constexpr int64_t kRateSliceNs = 250'000'000;

// clang-format off
enum class FrameType : uint8_t {
  Config = 1,         ///< coordinator → worker: JSON WorkerConfig (target, sampling, t0, caps)
  Sessions = 2,       ///< coordinator → worker: u32 n, then n × SessionPlan
  EndOfSessions = 3,  ///< coordinator → worker: no more sessions will come
  Stop = 4,           ///< coordinator → worker: i64 grace ns; stop sending, drain, then finish
  Records = 5,        ///< worker → coordinator: u32 n, then n × RequestRecord
  Stats = 6,          ///< worker → coordinator: WorkerSample, send reports, ITL gaps
  Done = 7,           ///< worker → coordinator: u64 sessions received, u64 not sent
  Error = 8,          ///< either way: UTF-8 text; the sender is giving up
  SessionGraphs = 9,  ///< coordinator → worker: u32 n, then n × session with its request graph
  SessionProgress = 10,  ///< worker → coordinator: dependent requests due by window, not-sent by reason
  HarnessLimit = 11,     ///< worker → coordinator: UTF-8 text naming a machine limit it hit (fds, ports)
  FailureSample = 12,    ///< worker → coordinator: its first reply of a failing HTTP class (status, body)
};

inline std::string_view frameTypeName(FrameType t) {
  switch (t) {
    case FrameType::Config: return "config";
    case FrameType::Sessions: return "sessions";
    case FrameType::EndOfSessions: return "end_of_sessions";
    case FrameType::Stop: return "stop";
    case FrameType::Records: return "records";
    case FrameType::Stats: return "stats";
    case FrameType::Done: return "done";
    case FrameType::Error: return "error";
    case FrameType::SessionGraphs: return "session_graphs";
    case FrameType::SessionProgress: return "session_progress";
    case FrameType::HarnessLimit: return "harness_limit";
    case FrameType::FailureSample: return "failure_sample";
  }
  return "unknown";
}
// clang-format on

inline bool isKnownFrameType(uint8_t t) { return t >= 1 && t <= 12; }

}  // namespace plumbline::engine::protocol
