#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace plumbline::engine {

/// What one stream event (or a whole non-streaming body) said.
struct ChunkInfo {
  bool done = false;        ///< the "[DONE]" sentinel
  bool malformed = false;   ///< not JSON, or not the shape of a completion chunk
  bool serverError = false; ///< an {"error": ...} object
  bool hasContent = false;  ///< carried generated text (chat delta.content / completions text)
  bool hasUsage = false;
  std::string_view content;  ///< the generated text it carried; valid until the next decode
  int32_t promptTokens = -1;
  int32_t completionTokens = -1;
};

/// Decodes OpenAI-style completion chunks and bodies with simdjson On-Demand, reusing one
/// parser: no allocation per chunk once warm.
class ChunkDecoder {
 public:
  ChunkDecoder();
  ~ChunkDecoder();
  ChunkDecoder(const ChunkDecoder&) = delete;
  ChunkDecoder& operator=(const ChunkDecoder&) = delete;

  /// data must have at least 64 bytes of spare capacity (SseParser guarantees it).
  ChunkInfo decodeChunk(const std::string& data);
  /// A whole non-streaming response body (adds padding itself).
  ChunkInfo decodeBody(std::string& body);

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace plumbline::engine
