#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace plumbline::engine {

/// How a choice said its generation ended (`finish_reason`).
enum class FinishReason : uint8_t {
  None,     ///< not said (null or absent): more is coming
  Ended,    ///< "stop", "length", "tool_calls", …: the reply is whole
  Aborted,  ///< "abort" or "error": the server gave up on the request
};

/// What one stream event (or a whole non-streaming body) said.
struct ChunkInfo {
  bool done = false;        ///< the "[DONE]" sentinel
  bool malformed = false;   ///< not JSON, or not the shape of a completion chunk
  /// An error in place of a completion: a non-null "error" (OpenAI, vLLM, TGI), an object whose
  /// "object" is "error" (vLLM, SGLang), or a non-zero "error_code" (FastChat).
  bool serverError = false;
  /// The HTTP-like status the error gave ("code" 400–599 in it or beside it), else -1.
  int32_t errorCode = -1;
  bool hasChoice = false;  ///< "choices" held at least one choice
  /// Carried generated text: the answer (chat delta.content / message.content, completions
  /// text), a reasoning model's thinking (delta.reasoning_content or delta.reasoning) or a
  /// tool call's name or arguments. Each is a token the server generated, for TTFT and ITL.
  bool hasContent = false;
  bool hasUsage = false;
  FinishReason finish = FinishReason::None;
  std::string_view finishText;  ///< the finish_reason as sent, when one was
  std::string_view content;     ///< the answer text it carried; valid until the next decode
  std::string_view thought;     ///< reasoning or tool-call text it carried (the last such field)
  const char* malformedWhy = nullptr;  ///< what was wrong with a malformed one, when known
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
