// Fuzzes the SSE parser and the chunk decoder the way a worker uses them: the server's bytes
// split at an arbitrary point, every event decoded; and the whole input as a non-stream body.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/engine/chunk_decoder.h"
#include "core/engine/sse_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t cut = data[0] % size;
  const char* bytes = reinterpret_cast<const char*>(data) + 1;
  const size_t n = size - 1;
  plumbline::engine::SseParser parser;
  plumbline::engine::ChunkDecoder decoder;
  auto onData = [&](const std::string& event) { (void)decoder.decodeChunk(event); };
  parser.feed(bytes, cut < n ? cut : n, onData);
  if (cut < n) parser.feed(bytes + cut, n - cut, onData);
  std::string body(bytes, n);
  (void)decoder.decodeBody(body);
  return 0;
}
