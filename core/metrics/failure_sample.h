#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/metrics/error_class.h"

namespace plumbline::metrics {

/// A status as a reply carries it: three digits. RFC 9110 15 defines 100–599; servers use
/// 600–999 for their own ends, and the parser keeps those too (class http_other).
inline constexpr int32_t kMinHttpStatus = 100;
inline constexpr int32_t kMaxHttpStatus = 999;

/// The first failure of a class as it happened. "http_4xx 1000" or "connect 1000" says that
/// requests failed; this says why, which is what a person fixes a target or workload by:
/// - a failing HTTP class (http_4xx, http_5xx, rate_limited, http_other): the reply as the
///   server sent it ("HTTP 404: {"error": {"message": "The model 'x' does not exist"}}");
/// - a transport or stream class (connect, timeout, no_reply, stream_cut, malformed_stream):
///   what the client saw, in its words ("connect to 127.0.0.1:9: Connection refused
///   (ECONNREFUSED)"), with the reply's status and start when there was one.
struct FailureSample {
  int32_t status = 0;  ///< the reply's HTTP status (100–999); 0 when no reply head was read
  int64_t sendNs = 0;  ///< when its request was sent, on the run's clock
  std::string body;    ///< failureBodyExcerpt of what the server sent (may be empty)
  /// failureBodyExcerpt of what went wrong; for an HTTP class empty unless the reply said more
  /// than its status and body (an error inside a 2xx reply, an unreadable Retry-After).
  std::string reason;
  bool operator==(const FailureSample&) const = default;
};

/// By error class name, the earliest sent of each class any worker saw.
using FailureSamples = std::map<std::string, FailureSample>;

/// Bytes of a body kept in a sample: enough for an error object's message.
inline constexpr size_t kFailureBodyMax = 300;

/// Whether a class is one a reply's status decides (its sample is that reply).
bool isHttpStatusClass(ErrorClass c);
/// Whether a class carries a sample: the HTTP classes and the transport and stream classes. Not
/// cancelled, worker_lost (nothing is known of those requests) nor harness_limit (its own
/// notice names the limit).
bool carriesFailureSample(ErrorClass c);

/// `body` made fit for a terminal line, a database and a log: every run of whitespace and
/// control bytes becomes one space, it is cut to kFailureBodyMax bytes at a UTF-8 boundary
/// ("…" appended when cut), ill-formed UTF-8 becomes U+FFFD, and `apiKey` (when not empty),
/// wherever the server echoed it, becomes "[api key]" before anything is cut.
std::string failureBodyExcerpt(std::string_view body, std::string_view apiKey);

/// "HTTP 404: {...}" or "HTTP 404 (empty body)" for a reply; "REASON", "HTTP 200, REASON" or
/// "REASON: BODY" for a sample with a reason.
std::string describeFailureSample(const FailureSample& sample);
/// "first http_4xx reply: HTTP 404: {...}", "first connect failure: connect to ...": the live
/// notice, the report, `runs show` and the studio's History say it the same way.
std::string describeFirstFailure(const std::string& className, const FailureSample& sample);

/// {"http_4xx": {"status": 404, "sent_at_s": 0.012, "body": "..."}, "connect": {"sent_at_s":
/// 0.001, "reason": "...", "body": ""}, ...} and back ("status" only when there was one,
/// "reason" only when not empty); fromJson throws std::invalid_argument naming what is wrong.
nlohmann::json failureSamplesJson(const FailureSamples& samples);
FailureSamples failureSamplesFromJson(const nlohmann::json& j);

}  // namespace plumbline::metrics
