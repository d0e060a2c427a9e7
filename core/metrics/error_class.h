#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace plumbline::metrics {

/// How a request failed (DESIGN.md "What every request records"). Values are stored in the
/// database and sent on the wire: append only, never renumber.
enum class ErrorClass : uint8_t {
  None = 0,
  Connect = 1,
  Timeout = 2,
  Http4xx = 3,
  Http5xx = 4,
  RateLimited = 5,
  StreamCut = 6,
  MalformedStream = 7,
  Cancelled = 8,
  WorkerLost = 9,     ///< in flight on a worker process that died; the outcome is unknowable
  HarnessLimit = 10,  ///< the harness could not get the request to the target: no descriptor or
                      ///< port for its connection, the embedded mock out of descriptors, or
                      ///< the worker held past the timeout before it wrote the request
  NoReply = 11,       ///< connected and the request written (or being written), then the server
                      ///< closed or reset the connection before any byte of a reply
  HttpOther = 12,     ///< a reply neither 2xx, 4xx nor 5xx: a 3xx (redirects are not followed),
                      ///< or a status of 600 and above
};
inline constexpr size_t kErrorClassCount = 13;

constexpr std::array<std::string_view, kErrorClassCount> kErrorClassNames = {
    "none",          "connect",    "timeout",          "http_4xx",  "http_5xx",
    "rate_limited",  "stream_cut", "malformed_stream", "cancelled", "worker_lost",
    "harness_limit", "no_reply",   "http_other"};

inline std::string_view errorClassName(ErrorClass c) {
  auto i = static_cast<size_t>(c);
  return i < kErrorClassCount ? kErrorClassNames[i] : std::string_view("unknown");
}

inline std::optional<ErrorClass> errorClassFromName(std::string_view name) {
  for (size_t i = 0; i < kErrorClassCount; ++i)
    if (kErrorClassNames[i] == name) return static_cast<ErrorClass>(i);
  return std::nullopt;
}

}  // namespace plumbline::metrics
