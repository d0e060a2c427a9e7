#include "core/engine/response_reader.h"

#include <algorithm>

#include "core/net/content_encoding.h"
#include "core/net/retry_after.h"

namespace plumbline::engine {

using metrics::ErrorClass;

namespace {
/// A non-streaming body larger than this is not read further (logprobs of long replies run to
/// megabytes); the request fails saying so.
constexpr size_t kMaxKeptBody = 64u << 20;
constexpr size_t kMaxErrorBody = 4096;
/// Bytes of a stream's start kept until its first event, for a failure sample when none comes.
constexpr size_t kMaxStreamStart = 1024;

std::string mib(size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }
}  // namespace

ErrorClass classifyHttpStatus(long status) {
  if (status == 429) return ErrorClass::RateLimited;
  if (status >= 400 && status < 500) return ErrorClass::Http4xx;
  if (status >= 500 && status < 600) return ErrorClass::Http5xx;
  return ErrorClass::HttpOther;  // 3xx (redirects are not followed), 600 and above
}

ErrorClass classifyErrorInReply(int32_t code) {
  if (code == 429) return ErrorClass::RateLimited;
  if (code >= 400 && code < 500) return ErrorClass::Http4xx;
  return ErrorClass::Http5xx;
}

void ResponseReader::onBody(Transfer& t, const char* p, size_t n, int64_t now) {
  if (!t.contentCoding.empty()) return;  // compressed bytes: neither events nor a readable body
  if (t.status / 100 != 2) {  // keep the start of an error body for the log, nothing else
    if (t.response.size() < kMaxErrorBody) t.response.append(p, std::min(n, kMaxErrorBody - t.response.size()));
    return;
  }
  if (m_config.stream) {
    t.sse.feed(p, n, [&](const std::string& data) { onChunk(t, data, now); });
    // A reply with no event yet may never have one (an HTML page, plain JSON): keep its start.
    if (t.sse.eventsDispatched() == 0 && t.response.size() < kMaxStreamStart)
      t.response.append(p, std::min(n, kMaxStreamStart - t.response.size()));
  } else if (t.response.size() + n <= kMaxKeptBody) {
    t.response.append(p, n);
  } else {
    t.bodyCut = true;
  }
}

void ResponseReader::onChunk(Transfer& t, const std::string& data, int64_t now) {
  if (t.sawDone) return;  // after "[DONE]" a client has stopped reading
  auto& r = t.record;
  ++r.chunks;
  const ChunkInfo info = m_decoder.decodeChunk(data);
  if (info.done) {
    t.sawDone = true;
    t.doneNs = now;
    return;
  }
  // The first bad event is the failure sample's body (this path runs only on a bad event).
  if ((info.malformed || info.serverError) && !t.malformed && !t.serverError)
    t.response.assign(data, 0, kMaxErrorBody);
  if (info.malformed && !t.malformed) {
    t.malformed = true;
    t.malformedWhy = info.malformedWhy;
  }
  if (info.serverError && !t.serverError) {
    t.serverError = true;
    t.errorCode = info.errorCode;
  }
  t.sawChoice = t.sawChoice || info.hasChoice;
  if (info.finish == FinishReason::Aborted && t.finish != FinishReason::Aborted)
    t.failureDetail = "the server gave the reply up (finish_reason \"" +
                      std::string(info.finishText) + "\") after " +
                      std::to_string(std::max(r.outputTokensClient, 0)) + " tokens";
  if (info.finish != FinishReason::None && t.finish != FinishReason::Aborted)
    t.finish = info.finish;
  if (info.hasContent) {
    if (t.keepReply || m_keepAllReplies) {
      t.reply.append(info.content);
      t.thought.append(info.thought);
    }
    r.outputTokensClient = r.outputTokensClient < 0 ? 1 : r.outputTokensClient + 1;
    if (!info.content.empty()) t.answerTokensClient = std::max(t.answerTokensClient, 0) + 1;
    if (r.firstTokenNs < 0) {
      r.firstTokenNs = now;
    } else {
      t.itlGapsNs.push_back(static_cast<float>(now - r.lastTokenNs));
    }
    r.lastTokenNs = now;
    if (r.firstAnswerNs < 0 && !info.content.empty()) r.firstAnswerNs = now;
  }
  if (info.promptTokens >= 0) r.inputTokensServer = info.promptTokens;
  if (info.completionTokens >= 0) r.outputTokensServer = info.completionTokens;
}

void ResponseReader::settleGaps(Transfer& t) {
  if (t.record.ok())
    for (const float gap : t.itlGapsNs) m_itl.record(static_cast<int64_t>(gap));
  t.itlGapsNs.clear();
}

void ResponseReader::finishCompleted(Transfer& t) {
  auto& r = t.record;
  r.error = ErrorClass::None;
  if (t.status / 100 != 2) {
    r.error = classifyHttpStatus(t.status);
    if (!t.contentCoding.empty())
      t.failureDetail = net::unaskedContentCodingText(t.contentCoding, false);
    else if (!t.unreadableRetryAfter.empty())
      t.failureDetail = net::unreadableRetryAfterText(t.unreadableRetryAfter);
  } else if (!t.contentCoding.empty()) {
    r.error = ErrorClass::MalformedStream;
    t.failureDetail = net::unaskedContentCodingText(t.contentCoding, true);
  } else if (m_config.stream) {
    finishStream(t);
  } else {
    finishBody(t);
  }
}

void ResponseReader::finishStream(Transfer& t) {
  auto& r = t.record;
  if (!t.sawDone) {
    // A last event the server did not close with a blank line, at the clean end of the body.
    t.sse.finish([&](const std::string& data) { onChunk(t, data, r.endNs); });
  }
  if (t.sawDone) r.endNs = t.doneNs;
  const size_t events = t.sse.eventsDispatched();
  if (events == 0 && t.bytesReceived > 0) {
    // An error answered as plain JSON in place of a stream is the server's error, as it would
    // be in a non-streaming run.
    const ChunkInfo info = t.bytesReceived <= kMaxStreamStart && !t.response.empty()
                               ? m_decoder.decodeBody(t.response)
                               : ChunkInfo{};
    if (info.serverError) {
      r.error = classifyErrorInReply(info.errorCode);
      t.failureDetail = "an error in place of the stream";
    } else {
      r.error = ErrorClass::MalformedStream;
      t.failureDetail =
          "no server-sent event in the " + std::to_string(t.bytesReceived) + "-byte reply";
    }
  } else if (t.serverError) {
    r.error = classifyErrorInReply(t.errorCode);  // an error event: its data is the sample's body
    t.failureDetail = "an error event in the stream";
  } else if (t.malformed) {
    r.error = ErrorClass::MalformedStream;
    t.failureDetail = "an event that is not a completion chunk";
    if (t.malformedWhy != nullptr) t.failureDetail += std::string(" (") + t.malformedWhy + ")";
  } else if (t.sse.overflowed()) {
    r.error = ErrorClass::MalformedStream;
    t.failureDetail = "an event longer than " + mib(SseParser::kMaxEventBytes) +
                      " (a worker reads at most that much of one event)";
  } else if (t.finish == FinishReason::Aborted) {
    r.error = ErrorClass::StreamCut;  // failureDetail says which finish_reason, set as it came
  } else if (!t.sawChoice) {
    r.error = ErrorClass::MalformedStream;
    t.failureDetail = std::to_string(events) + (events == 1 ? " event" : " events") +
                      ", none with a choice: no completion in the stream";
  } else if (!t.sawDone && t.finish != FinishReason::Ended) {
    r.error = ErrorClass::StreamCut;
    t.failureDetail = "the stream ended without \"data: [DONE]\" or a finish_reason after " +
                      std::to_string(events) + " events";
  }
  // A stream that said its finish_reason and ended cleanly without "[DONE]" (llama.cpp's server
  // before it sent "[DONE]", ik_llama.cpp) is whole: it completes, ending where its body did.
}

void ResponseReader::finishBody(Transfer& t) {
  auto& r = t.record;
  const ChunkInfo info = t.bodyCut ? ChunkInfo{} : m_decoder.decodeBody(t.response);
  if (t.bodyCut) {
    r.error = ErrorClass::MalformedStream;
    t.failureDetail = "a body longer than " + mib(kMaxKeptBody) +
                      " (a worker reads at most that much of a reply)";
  } else if (info.serverError) {
    r.error = classifyErrorInReply(info.errorCode);
    t.failureDetail = "an error in place of the completion";
  } else if (info.malformed) {
    r.error = ErrorClass::MalformedStream;
    t.failureDetail = std::string("a body that is not a completion (") +
                      (info.malformedWhy != nullptr ? info.malformedWhy : "not valid JSON") + ")";
  } else if (!info.hasChoice) {
    r.error = ErrorClass::MalformedStream;
    t.failureDetail = "a completion with no choice";
  } else if (info.finish == FinishReason::Aborted) {
    r.error = ErrorClass::StreamCut;
    t.failureDetail =
        "the server gave the reply up (finish_reason \"" + std::string(info.finishText) + "\")";
  } else if (!info.hasContent && !info.hasUsage) {
    r.error = ErrorClass::MalformedStream;
    t.failureDetail = "a completion with neither content nor usage";
  }
  r.inputTokensServer = info.promptTokens;
  r.outputTokensServer = info.completionTokens;
  r.chunks = 1;
  if (t.keepReply || m_keepAllReplies) {
    t.reply.assign(info.content);
    t.thought.assign(info.thought);  // a reasoning model's thinking, counted with the answer
  }
}

}  // namespace plumbline::engine
