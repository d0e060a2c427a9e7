#include "core/mock/full_body_reply.h"

#include <event2/buffer.h>
#include <event2/http.h>

#include <string>

#include "core/mock/completion_formatter.h"
#include "core/mock/mock_stats.h"

namespace plumbline::mock {

void sendFullBodyReply(evhttp_request* request, const CompletionFormatter& formatter, MockStats& stats,
                       int64_t elapsedNs) {
  thread_local std::string text;
  text.clear();
  formatter.appendFullBody(text);
  evbuffer* out = evhttp_request_get_output_buffer(request);
  evbuffer_add(out, text.data(), text.size());
  evhttp_add_header(evhttp_request_get_output_headers(request), "Content-Type", "application/json");
  MockStats::bump(stats.tokensSent, static_cast<uint64_t>(formatter.completionTokens()));
  MockStats::bump(stats.requestsCompleted);
  stats.timeToFirstToken.record(elapsedNs);
  stats.e2eLatency.record(elapsedNs);
  evhttp_send_reply(request, 200, "OK", out);
}

}  // namespace plumbline::mock
