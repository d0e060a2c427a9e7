#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/engine/chunk_decoder.h"
#include "core/engine/sse_parser.h"
#include "core/metrics/request_record.h"

struct event;
using CURL = void;

namespace plumbline::engine {

class HttpDriver;
struct Http1Connection;

/// One request on the wire and everything measured about it so far. Reused across
/// requests (with its curl handle and buffers) so the hot path allocates nothing.
struct Transfer {
  CURL* easy = nullptr;            ///< null unless the libcurl client sends it
  HttpDriver* driver = nullptr;    ///< the libcurl client that owns it (curl callbacks)
  Http1Connection* connection = nullptr;  ///< the native client's connection while in flight
  size_t activeIndex = 0;          ///< position in the driver's active list
  metrics::RequestRecord record;
  std::string body;                ///< request body (reused capacity)
  std::string response;            ///< non-streaming body or an error body (bounded)
  bool keepReply = false;          ///< collect the generated text (sessions resend it)
  std::string reply;               ///< the answer text, as streamed or in the body
  /// Reasoning and tool-call text generated beside the answer: counted as output tokens with
  /// the reply, never sent back in a session's next turn.
  std::string thought;
  /// The client's count of the answer alone, which a session's next turn resends (thinking is
  /// not resent): its answer-bearing deltas, or the tokenizer's count of `reply`; -1: none.
  int32_t answerTokensClient = -1;
  SseParser sse;
  long status = 0;
  bool statusKnown = false;
  bool sawDone = false;
  int64_t doneNs = -1;  ///< when "[DONE]" was read: the reply's end
  bool malformed = false;
  const char* malformedWhy = nullptr;  ///< what the first malformed event was, when known
  bool serverError = false;
  int32_t errorCode = -1;                    ///< the status an error event or body gave, else -1
  bool sawChoice = false;                    ///< an event (or the body) held a choice
  FinishReason finish = FinishReason::None;  ///< the last finish_reason said
  bool bodyCut = false;  ///< a non-streaming body was longer than the reader keeps
  uint64_t bytesReceived = 0;
  int attempts = 0;         ///< times libcurl was about to send this request
  bool retryRefused = false;  ///< libcurl tried to resend it on a fresh connection; we refused
  /// libcurl was about to write it this long after its deadline (its worker was held); we refused
  int64_t heldPastDeadlineNs = 0;
  int socketErrno = 0;        ///< socket() failed for its connection with this errno
  std::string location;       ///< a 3xx reply's Location (redirects are not followed)
  std::string unreadableRetryAfter;  ///< a Retry-After value that could not be read
  std::string contentCoding;  ///< what Content-Encoding says the body is in; empty: none, identity
  /// What went wrong, in the client's words, set only on a failure path ("connect to
  /// 127.0.0.1:9: Connection refused (ECONNREFUSED)"); the worker's failure sample says it.
  std::string failureDetail;
  std::array<char, 256> curlError{};  ///< libcurl's CURLOPT_ERRORBUFFER (CURL_ERROR_SIZE)
  event* deadline = nullptr;          ///< the libcurl client's own timer for the request's timeout
  int curlSocket = -1;  ///< the socket libcurl watches for it while in flight; -1: none
  /// Inter-token gaps of this stream (ns), counted in the run's inter-token figures once it
  /// completes: a failed stream's gaps are not, as its TTFT and end-to-end are not.
  std::vector<float> itlGapsNs;

  void resetForRequest() {
    record = metrics::RequestRecord{};
    response.clear();
    keepReply = false;
    reply.clear();
    thought.clear();
    answerTokensClient = -1;
    sse.reset();
    status = 0;
    statusKnown = false;
    sawDone = malformed = serverError = sawChoice = bodyCut = false;
    doneNs = -1;
    malformedWhy = nullptr;
    errorCode = -1;
    finish = FinishReason::None;
    if (response.capacity() > (1u << 20)) std::string().swap(response);  // after a huge body
    bytesReceived = 0;
    attempts = 0;
    retryRefused = false;
    heldPastDeadlineNs = 0;
    socketErrno = 0;
    location.clear();
    unreadableRetryAfter.clear();
    contentCoding.clear();
    failureDetail.clear();
    itlGapsNs.clear();  // keeps its capacity: the next stream records without allocating
  }
};

}  // namespace plumbline::engine
