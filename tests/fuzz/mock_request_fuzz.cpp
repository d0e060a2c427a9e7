// Fuzzes the mock server's request-body parser (core/mock/mock_request.h): any body must
// parse or be refused with a one-line reason, never crash; a parsed request gets a sane
// completion length. The word count (64 bytes per step) must agree with a byte-by-byte reading
// of the same bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/mock/mock_request.h"
#include "tests/unit/word_count_reference.h"

using namespace plumbline::mock;
using plumbline::test::wordsByteByByte;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  // The first byte picks the API (bit 0) and the prefix-cache block size (bits 1..3: 0 = off).
  const ApiKind kind = (data[0] & 1) == 0 ? ApiKind::Chat : ApiKind::Completions;
  const int blockWords = (data[0] >> 1) & 7;
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (countWords(body) != wordsByteByByte(body)) __builtin_trap();
  std::string error;
  const auto request = parseMockRequest(kind, body, error, blockWords);
  if (!request) {
    if (error.empty() || error.find('\n') != std::string::npos) __builtin_trap();
    return 0;
  }
  if (request->promptTokens < 0) __builtin_trap();
  for (uint64_t h : request->blockHashes)
    if (h == 0) __builtin_trap();
  if (blockWords == 0 && !request->blockHashes.empty()) __builtin_trap();
  if (completionTokens(*request, 100.0) < 0) __builtin_trap();
  return 0;
}
