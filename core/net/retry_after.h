#pragma once
// The Retry-After header of a 429 or 503 reply (RFC 9110 §10.2.3): how long the server asked
// clients to wait before trying again. Plumbline keeps sending on its schedule (an open-loop
// benchmark does not back off), but records what the server asked for.
#include <cstdint>
#include <string>
#include <string_view>

namespace plumbline::net {

/// Milliseconds the value asks to wait: delta-seconds ("120"), or an IMF-fixdate ("Sun, 06 Nov
/// 1994 08:49:37 GMT") taken relative to `nowUnixS` (0 when already past). -1 when the value is
/// neither (empty, negative, fractional, another date format, more than ten digits of seconds).
int64_t parseRetryAfterMs(std::string_view value, int64_t nowUnixS);

/// What a failure sample says of a value parseRetryAfterMs could not read: "Retry-After: 1.5
/// could not be read (whole seconds or an HTTP date)" (the value's first kMaxRetryAfterShown
/// bytes, "…" when cut; "(empty)" for none).
std::string unreadableRetryAfterText(std::string_view value);
inline constexpr size_t kMaxRetryAfterShown = 40;

/// parseRetryAfterMs against the wall clock now.
int64_t parseRetryAfterMsNow(std::string_view value);

}  // namespace plumbline::net
