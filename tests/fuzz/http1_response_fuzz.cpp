// Fuzzes the native client's HTTP/1.1 response parser the way a connection uses it: the
// server's bytes split at an arbitrary point, the body fed on to the SSE parser and chunk
// decoder, the end of the connection at the end of the input; then the parser reused for a
// second response on the same connection. The whole input is also read as a Retry-After
// value (retry_after.h), whose result is a wait in ms or -1, never anything else.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/engine/chunk_decoder.h"
#include "core/engine/sse_parser.h"
#include "core/net/http1_response_parser.h"
#include "core/net/retry_after.h"

namespace {
struct Sink {
  plumbline::engine::SseParser sse;
  plumbline::engine::ChunkDecoder decoder;
  size_t bytes = 0;
};

void onBody(void* context, const char* p, size_t n) {
  auto& s = *static_cast<Sink*>(context);
  s.bytes += n;
  s.sse.feed(p, n, [&](const std::string& event) { (void)s.decoder.decodeChunk(event); });
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t cut = data[0] % size;
  const char* bytes = reinterpret_cast<const char*>(data) + 1;
  const size_t n = size - 1;
  Sink sink;
  plumbline::net::Http1ResponseParser parser;
  size_t used = parser.feed(bytes, cut < n ? cut : n, &onBody, &sink);
  if (cut < n && !parser.done() && !parser.failed()) used += parser.feed(bytes + cut, n - cut, &onBody, &sink);
  if (used > n) __builtin_trap();
  if (parser.retryAfterMs() < -1) __builtin_trap();
  const int64_t wait = plumbline::net::parseRetryAfterMs(std::string_view(bytes, n), 1'700'000'000);
  if (wait < -1) __builtin_trap();
  if (!parser.done() && !parser.failed()) (void)parser.finishAtEof();
  if (parser.done() && used < n) {  // the rest as the next response on the same connection
    parser.reset();
    if (parser.retryAfterMs() != -1) __builtin_trap();
    const size_t more = parser.feed(bytes + used, n - used, &onBody, &sink);
    if (more > n - used || parser.retryAfterMs() < -1) __builtin_trap();
  }
  return 0;
}
