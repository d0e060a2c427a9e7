#include "core/engine/response_reader.h"

#include <algorithm>

namespace plumbline::engine {

using metrics::ErrorClass;

namespace {
constexpr size_t kMaxKeptBody = 8u << 20;  ///< a non-streaming body larger than this is cut
constexpr size_t kMaxErrorBody = 4096;
/// Bytes of a stream's start kept until its first event, for a failure sample when none comes.
constexpr size_t kMaxStreamStart = 1024;
}  // namespace

ErrorClass classifyHttpStatus(long status) {
  if (status == 429) return ErrorClass::RateLimited;
  if (status >= 400 && status < 500) return ErrorClass::Http4xx;
  if (status >= 500 && status < 600) return ErrorClass::Http5xx;
  return ErrorClass::HttpOther;  // 3xx (redirects are not followed), 600 and above
}

void ResponseReader::onBody(Transfer& t, const char* p, size_t n, int64_t now) {
  if (t.status / 100 != 2) {  // keep the start of an error body for the log, nothing else
    if (t.response.size() < kMaxErrorBody) t.response.append(p, std::min(n, kMaxErrorBody - t.response.size()));
    return;
  }
  if (m_config.stream) {
    t.sse.feed(p, n, [&](const std::string& data) { onChunk(t, data, now); });
    // A reply with no event yet may never have one (an HTML page, plain JSON): keep its start.
    if (t.sse.eventsDispatched() == 0 && t.response.size() < kMaxStreamStart)
      t.response.append(p, std::min(n, kMaxStreamStart - t.response.size()));
  } else if (t.response.size() < kMaxKeptBody) {
    t.response.append(p, std::min(n, kMaxKeptBody - t.response.size()));
  }
}

void ResponseReader::onChunk(Transfer& t, const std::string& data, int64_t now) {
  auto& r = t.record;
  ++r.chunks;
  const ChunkInfo info = m_decoder.decodeChunk(data);
  if (info.done) {
    t.sawDone = true;
    return;
  }
  // The first bad event is the failure sample's body (this path runs only on a bad event).
  if ((info.malformed || info.serverError) && !t.malformed && !t.serverError)
    t.response.assign(data, 0, kMaxErrorBody);
  if (info.malformed) t.malformed = true;
  if (info.serverError) t.serverError = true;
  if (info.hasContent) {
    if (t.keepReply || m_keepAllReplies) t.reply.append(info.content);
    r.outputTokensClient = r.outputTokensClient < 0 ? 1 : r.outputTokensClient + 1;
    if (r.firstTokenNs < 0) {
      r.firstTokenNs = now;
    } else {
      t.itlGapsNs.push_back(static_cast<float>(now - r.lastTokenNs));
    }
    r.lastTokenNs = now;
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
  if (t.status / 100 != 2) {
    r.error = classifyHttpStatus(t.status);
  } else if (m_config.stream) {
    if (t.sse.eventsDispatched() == 0 && t.bytesReceived > 0) {
      r.error = ErrorClass::MalformedStream;
      t.failureDetail =
          "no server-sent event in the " + std::to_string(t.bytesReceived) + "-byte reply";
    } else if (t.serverError) {
      r.error = ErrorClass::Http5xx;  // an error event: its data is the sample's body
    } else if (t.malformed) {
      r.error = ErrorClass::MalformedStream;
      t.failureDetail = "an event that is not a completion chunk";
    } else if (!t.sawDone) {
      r.error = ErrorClass::StreamCut;
      t.failureDetail = "the stream ended without \"data: [DONE]\" after " +
                        std::to_string(t.sse.eventsDispatched()) + " events";
    }
  } else {
    const ChunkInfo info = m_decoder.decodeBody(t.response);
    if (info.serverError) {
      r.error = ErrorClass::Http5xx;
    } else if (info.malformed || (!info.hasContent && !info.hasUsage)) {
      r.error = ErrorClass::MalformedStream;
      t.failureDetail = info.malformed ? "a body that is not a completion"
                                       : "a completion with neither content nor usage";
    }
    r.inputTokensServer = info.promptTokens;
    r.outputTokensServer = info.completionTokens;
    r.chunks = 1;
    if (t.keepReply || m_keepAllReplies) t.reply.assign(info.content);
  }
}

}  // namespace plumbline::engine
