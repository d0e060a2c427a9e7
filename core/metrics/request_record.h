#pragma once
#include <cstdint>

#include "core/metrics/error_class.h"

namespace plumbline::metrics {

/// Everything measured about one request. Times are ns since the run's t0; -1 = never reached.
/// Token counts are -1 when unknown (server counts need usage; client counts need a stream).
struct RequestRecord {
  uint64_t sessionId = 0;
  uint32_t turn = 0;
  uint32_t workerId = 0;
  int64_t plannedNs = -1;
  int64_t sendNs = -1;        ///< request handed to the socket (the first write began)
  /// First response byte and first chunk carrying generated text: when the bytes arrived
  /// (the kernel's stamp, native client), or when they were read where there is no stamp.
  int64_t firstByteNs = -1;
  int64_t firstTokenNs = -1;
  /// First streamed chunk carrying answer text (not a reasoning model's thinking, not a tool
  /// call), stamped as firstTokenNs; equal to it for a model that does not think first.
  int64_t firstAnswerNs = -1;
  int64_t lastTokenNs = -1;
  int64_t endNs = -1;
  /// Last byte of the request body written to the socket (issue 6, long prompts; native
  /// client: when the write that handed it over began, so never after the reply): the upload
  /// takes uploadEndNs − sendNs, reported apart from TTFT, which still runs from sendNs.
  int64_t uploadEndNs = -1;
  int32_t inputTokensServer = -1;
  int32_t outputTokensServer = -1;
  int32_t inputTokensClient = -1;  ///< what the client planned and sent
  int32_t outputTokensClient = -1; ///< content-bearing chunks counted by the client
  uint32_t chunks = 0;
  int32_t httpStatus = 0;
  ErrorClass error = ErrorClass::None;
  /// What the reply's Retry-After header asked clients to wait (429 and 503 replies carry it),
  /// in ms; -1 when it had none (or one that could not be read). Recorded, not obeyed: the
  /// load stays the one that was planned.
  int64_t retryAfterMs = -1;
  /// The longest the worker's event loop was held (LoopHolds: busy, or without a CPU; 1 ms or
  /// more) while this request was in flight; 0 when it never was. Its timings may include that.
  int64_t heldNs = 0;

  bool ok() const { return error == ErrorClass::None; }
  int64_t ttftNs() const { return firstTokenNs >= 0 && sendNs >= 0 ? firstTokenNs - sendNs : -1; }
  int64_t ttfaNs() const { return firstAnswerNs >= 0 && sendNs >= 0 ? firstAnswerNs - sendNs : -1; }
  int64_t e2eNs() const { return endNs >= 0 && sendNs >= 0 ? endNs - sendNs : -1; }
  int64_t uploadNs() const { return uploadEndNs >= 0 && sendNs >= 0 ? uploadEndNs - sendNs : -1; }
  int64_t sendLagNs() const { return sendNs >= 0 ? sendNs - plannedNs : -1; }
  int64_t ttftFromPlannedNs() const { return firstTokenNs >= 0 ? firstTokenNs - plannedNs : -1; }
  int64_t ttfaFromPlannedNs() const { return firstAnswerNs >= 0 ? firstAnswerNs - plannedNs : -1; }
  int64_t e2eFromPlannedNs() const { return endNs >= 0 ? endNs - plannedNs : -1; }
  /// The output tokens a stream's span is divided by: the server's usage where it gave one (as
  /// the token rates count), else the client's count; -1 when neither counted.
  int32_t gapTokens() const { return outputTokensServer >= 0 ? outputTokensServer : outputTokensClient; }
  /// Time per output token (TPOT): the stream's span from its first to its last token over its
  /// tokens less one, so a server sending several tokens an event is timed per token, not per
  /// event; -1 without a stream of two tokens or more.
  int64_t tpotNs() const {
    const int32_t tokens = gapTokens();
    if (tokens < 2 || firstTokenNs < 0 || lastTokenNs < firstTokenNs) return -1;
    return (lastTokenNs - firstTokenNs) / (tokens - 1);
  }
};

}  // namespace plumbline::metrics
