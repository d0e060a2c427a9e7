#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/engine/chunk_decoder.h"
#include "core/engine/transfer.h"
#include "core/engine/worker_config.h"
#include "core/metrics/latency_histogram.h"

namespace plumbline::engine {

/// What every HTTP client of the worker does with a response once its bytes are de-framed:
/// SSE events decoded and timed (first token, inter-token gaps, usage), a non-streaming body
/// kept and decoded, an error body kept (bounded) for the log, and the outcome of a response
/// read to its end classified. Shared so that both clients measure exactly alike.
class ResponseReader {
 public:
  explicit ResponseReader(const WorkerConfig& config) : m_config(config) {}

  /// Collect every reply's text, not only those marked keepReply.
  void keepAllReplies(bool keep) { m_keepAllReplies = keep; }
  /// Body bytes of `t`'s response, received at `now`; t.status must be known.
  void onBody(Transfer& t, const char* p, size_t n, int64_t now);
  /// Classifies a response read completely (status class, stream end, body) into t.record.
  /// A stream's end is its "[DONE]" event where it had one: the client had the whole reply
  /// then (the OpenAI client libraries stop reading there), whatever the server did after.
  void finishCompleted(Transfer& t);
  /// True when the connection failed, timed out or was closed after the stream's "[DONE]": the
  /// reply was whole, so the driver classifies it with finishCompleted() instead of failing it.
  bool endedAtDone(const Transfer& t) const {
    return m_config.stream && t.sawDone && t.status / 100 == 2;
  }
  /// The request's outcome is final: a completed stream's inter-token gaps join itl().
  void settleGaps(Transfer& t);
  /// Inter-token gaps of the streams completed since the last take.
  metrics::LatencyHistogram& itl() { return m_itl; }

 private:
  void onChunk(Transfer& t, const std::string& data, int64_t now);
  void finishStream(Transfer& t);
  void finishBody(Transfer& t);

  const WorkerConfig& m_config;
  ChunkDecoder m_decoder;
  metrics::LatencyHistogram m_itl;
  bool m_keepAllReplies = false;
};

/// The error class of a non-2xx status answering a completion request.
metrics::ErrorClass classifyHttpStatus(long status);
/// The error class of an error the server sent in place of a completion in a 2xx reply (an
/// error event or body): by the status its "code" gave (429, 4xx, 5xx), http_5xx without one.
metrics::ErrorClass classifyErrorInReply(int32_t code);

}  // namespace plumbline::engine
