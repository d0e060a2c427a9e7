#pragma once
// Seeded fault injection of `plumbline mock`: per request, at most one fault, drawn by class
// and rate. Every injected fault is counted (MockStats::faults) so tests can compare what the
// harness saw with what the mock did.
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "core/util/rng.h"

namespace plumbline::mock {

/// Append only: the index is the position in /mock/stats "faults".
enum class FaultClass : uint8_t {
  Http500,         ///< 500 with an OpenAI error body
  Http503,         ///< 503 with an OpenAI error body
  Http429,         ///< 429 with Retry-After
  Refuse,          ///< the connection is closed as soon as the request arrives, no reply
  StallFirstByte,  ///< nothing (not even headers) for stall_ms, then the normal reply
  StallMidStream,  ///< a stall_ms pause after half the tokens (non-streaming: half the body)
  StreamCut,       ///< the stream ends after half the tokens, without usage or [DONE]
                   ///< (non-streaming: the connection closes after half the announced body)
  MalformedChunk,  ///< one chunk in the middle is broken JSON (non-streaming: the body is)
  SlowTrickle,     ///< every token trickles out trickle_itl_ms apart (non-streaming: the body,
                   ///< in one piece per token)
};
inline constexpr size_t kFaultClassCount = 9;
inline constexpr std::array<std::string_view, kFaultClassCount> kFaultClassNames = {
    "http_500", "http_503", "http_429", "refuse", "stall_first_byte",
    "stall_mid_stream", "stream_cut", "malformed_chunk", "slow_trickle"};

std::optional<FaultClass> faultClassFromName(std::string_view name);

/// Configured rates (probability per request, summing to at most 1) and fault shapes.
struct FaultSettings {
  std::array<double, kFaultClassCount> rates{};
  uint64_t seed = 1;
  double stallMs = 3000.0;
  double trickleItlMs = 250.0;
  int retryAfterS = 1;

  bool any() const;
};

/// What a fault does to a non-streaming body: it goes out in `pieces` equal parts `gapNs`
/// apart; `cutAfterFirst` closes the connection after the first part (the Content-Length
/// announced the whole body); `malformed` sends broken JSON instead of the body.
struct BodyFault {
  int64_t pieces = 0;  ///< 0: no body fault
  int64_t gapNs = 0;
  bool cutAfterFirst = false;
  bool malformed = false;

  bool active() const { return pieces > 0; }
};

/// What a drawn fault does to one response, in token indices (defaults: nothing).
struct FaultPlan {
  static constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
  std::optional<FaultClass> cls;
  int64_t holdFirstByteNs = 0;  ///< stall before headers
  int64_t stallAt = kNever;     ///< token index before which the stream pauses
  int64_t stallNs = 0;
  int64_t cutAfter = kNever;    ///< tokens sent before the stream ends without [DONE]
  int64_t malformedAt = -1;     ///< token index whose chunk is broken
  int64_t trickleItlNs = 0;     ///< > 0: one token per this gap
  BodyFault body;               ///< non-streaming replies only
};

/// One event loop's fault source (its own seeded stream: loop i draws from (seed, i)).
class FaultInjector {
 public:
  FaultInjector(const FaultSettings& settings, int loopIndex);

  /// Draws the fault of the next request, if any (every class applies to streaming and
  /// non-streaming requests alike).
  std::optional<FaultClass> draw();
  /// The shape of fault `cls` on a response of `tokens` tokens, streamed or not.
  FaultPlan plan(std::optional<FaultClass> cls, int64_t tokens, bool stream = true) const;
  const FaultSettings& settings() const { return m_settings; }

 private:
  FaultSettings m_settings;
  bool m_any;
  util::Rng m_rng;
};

}  // namespace plumbline::mock
