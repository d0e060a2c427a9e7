#pragma once
// Parsing of OpenAI completion request bodies, and the mock's tokenization.
//
// Mock tokenization: a prompt has one token per whitespace-separated word (for chat,
// the words of every message's content, summed; content given as an array of parts
// counts the words of each part's "text"; a completions prompt given as an array of
// integers counts one token per integer). Each generated token is the text "tok ".
// Output length: max_tokens (or max_completion_tokens) when ignore_eos is true;
// otherwise min(max_tokens, natural length), where the natural length is drawn
// deterministically from a hash of the prompt, uniform in [1, 2 * mean - 1] so its
// mean is natural_length_mean. Without max_tokens the natural length is used.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plumbline::mock {

enum class ApiKind { Chat, Completions };

/// What the mock needs to know from one request body.
struct MockRequest {
  ApiKind kind = ApiKind::Chat;
  std::string model = "mock";
  bool stream = false;
  bool includeUsage = false;
  bool ignoreEos = false;
  std::optional<int64_t> maxTokens;
  int64_t promptTokens = 0;
  /// Hash of the prompt text (mock_request.cpp), drives the natural length.
  uint64_t promptHash = 0;
  double temperature = 1.0;  ///< OpenAI's default when absent
  /// With block hashing on: for each full block of `blockWords` prompt words, a hash of
  /// that block chained with the previous one (the prefix cache's keys). Never 0.
  std::vector<uint64_t> blockHashes;
};

/// Parses a request body (simdjson on-demand). On failure returns nullopt and sets
/// `error` to a one-line reason suitable for an OpenAI-style 400 body. `blockWords` > 0
/// fills blockHashes (words of successive messages or prompt parts run on across parts).
std::optional<MockRequest> parseMockRequest(ApiKind kind, std::string_view body, std::string& error,
                                            int blockWords = 0);

/// Number of tokens the mock generates for `request` (see header comment).
int64_t completionTokens(const MockRequest& request, double naturalLengthMean);

/// One token per whitespace-separated word.
int64_t countWords(std::string_view text);

}  // namespace plumbline::mock
