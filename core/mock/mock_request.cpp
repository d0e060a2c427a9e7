#include "core/mock/mock_request.h"

#include <simdjson.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

namespace plumbline::mock {
namespace {

using simdjson::ondemand::json_type;
using simdjson::ondemand::value;

constexpr uint64_t kFnvOffset = 1469598103934665603ull;
constexpr uint64_t kFnvPrime = 1099511628211ull;

/// Thrown for well-formed JSON that is not a valid request.
struct BadRequest {
  std::string reason;
};

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

/// Hashes the prompt in blocks of words, across the text parts of one request.
struct BlockHasher {
  int blockWords = 0;
  int64_t wordsInBlock = 0;
  uint64_t block = kFnvOffset;
  uint64_t chain = kFnvOffset;

  void add(MockRequest& req, std::string_view text) {
    bool inWord = false;
    for (char c : text) {
      const bool space = isSpace(c);
      if (space && inWord) endWord(req);
      if (!space) block = (block ^ static_cast<unsigned char>(c)) * kFnvPrime;
      inWord = !space;
    }
    if (inWord) endWord(req);
  }

  void endWord(MockRequest& req) {
    block = (block ^ 0x20u) * kFnvPrime;
    if (++wordsInBlock < blockWords) return;
    uint64_t h = chain ^ (block * 0x9e3779b97f4a7c15ull);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    chain = h == 0 ? 1 : h;
    req.blockHashes.push_back(chain);
    block = kFnvOffset;
    wordsInBlock = 0;
  }
};

// One parse at a time per thread (like the parser): the hasher of the request being parsed.
thread_local BlockHasher t_hasher;

/// The prompt hash, eight bytes per step (a byte at a time it was a quarter of the mock's CPU
/// with 32k-token prompts: each step waits for the last multiply). The shift carries the high
/// bytes' difference down into the bits the next multiply spreads upwards.
uint64_t hashText(uint64_t h, std::string_view text) {
  const char* p = text.data();
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t w = 0;
    std::memcpy(&w, p + i, 8);
    h = (h ^ w) * kFnvPrime;
    h ^= h >> 29;
  }
  for (; i < text.size(); ++i) h = (h ^ static_cast<unsigned char>(p[i])) * kFnvPrime;
  return h;
}

void addText(MockRequest& req, std::string_view text) {
  req.promptTokens += countWords(text);
  if (t_hasher.blockWords > 0) t_hasher.add(req, text);
  req.promptHash = (hashText(req.promptHash, text) ^ 0xffu) * kFnvPrime;  // separator between parts
}

void parseContent(MockRequest& req, value content) {
  switch (content.type()) {
    case json_type::string: addText(req, content.get_string()); break;
    case json_type::null: break;
    case json_type::array:
      for (auto part : content.get_array()) {
        for (auto field : part.get_object()) {
          if (field.unescaped_key().value() == "text") addText(req, field.value().get_string());
        }
      }
      break;
    default: throw BadRequest{"messages[].content must be a string or an array of parts"};
  }
}

void parseMessages(MockRequest& req, value messages) {
  if (messages.type() != json_type::array) throw BadRequest{"'messages' must be an array"};
  for (auto message : messages.get_array()) {
    if (message.type() != json_type::object) throw BadRequest{"'messages' items must be objects"};
    for (auto field : message.get_object()) {
      if (field.unescaped_key().value() == "content") parseContent(req, field.value());
    }
  }
}

void parsePrompt(MockRequest& req, value prompt) {
  if (prompt.type() == json_type::string) return addText(req, prompt.get_string());
  if (prompt.type() != json_type::array) throw BadRequest{"'prompt' must be a string or an array"};
  for (auto item : prompt.get_array()) {
    if (item.type() == json_type::string) {
      addText(req, item.get_string());
    } else if (item.type() == json_type::number) {
      req.promptTokens += 1;
      req.promptHash = (req.promptHash ^ item.get_uint64()) * kFnvPrime;
    } else {
      throw BadRequest{"'prompt' array items must be strings or token ids"};
    }
  }
}

bool boolField(value v, const char* name) {
  if (v.type() != json_type::boolean) throw BadRequest{std::string("'") + name + "' must be a boolean"};
  return v.get_bool();
}

void parseStreamOptions(MockRequest& req, value v) {
  if (v.type() == json_type::null) return;
  if (v.type() != json_type::object) throw BadRequest{"'stream_options' must be an object"};
  for (auto field : v.get_object()) {
    if (field.unescaped_key().value() == "include_usage") req.includeUsage = boolField(field.value(), "include_usage");
  }
}

void parseMaxTokens(MockRequest& req, value v, const char* name) {
  if (v.type() == json_type::null) return;
  int64_t n = 0;
  if (v.type() != json_type::number || v.get_int64().get(n) != simdjson::SUCCESS || n < 1) {
    throw BadRequest{std::string("'") + name + "' must be a positive integer"};
  }
  req.maxTokens = n;
}

/// Returns whether the required field (messages or prompt) was seen.
bool parseField(MockRequest& req, std::string_view key, value v) {
  if (key == "messages" && req.kind == ApiKind::Chat) return parseMessages(req, v), true;
  if (key == "prompt" && req.kind == ApiKind::Completions) return parsePrompt(req, v), true;
  if (key == "model" && v.type() == json_type::string) req.model = std::string(std::string_view(v.get_string()));
  if (key == "stream") req.stream = boolField(v, "stream");
  if (key == "stream_options") parseStreamOptions(req, v);
  if (key == "ignore_eos") req.ignoreEos = boolField(v, "ignore_eos");
  if (key == "temperature" && v.type() != json_type::null) {
    if (v.type() != json_type::number) throw BadRequest{"'temperature' must be a number"};
    req.temperature = v.get_double();
  }
  if (key == "max_tokens" || key == "max_completion_tokens") parseMaxTokens(req, v, key == "max_tokens" ? "max_tokens" : "max_completion_tokens");
  return false;
}

std::string_view paddedCopy(std::string_view body, std::string& buffer) {
  buffer.reserve(body.size() + simdjson::SIMDJSON_PADDING);
  buffer.assign(body.data(), body.size());
  return buffer;
}

}  // namespace

int64_t countWords(std::string_view text) {
  const char* p = text.data();
  const size_t n = text.size();
  size_t i = 0;
  int64_t words = 0;
  bool spaceBefore = true;  // a word starts at a non-space byte after a space (or the start)
#ifdef __SSE2__
  // Sixteen bytes per compare, sixty-four per count: a mask of the whitespace bytes (' ' and
  // '\t'..'\r', as isSpace); the word starts are the non-space bytes after a space.
  const __m128i blank = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t'), four = _mm_set1_epi8(4);
  const auto spaceMask = [&](const char* at) {
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
    const __m128i fromTab = _mm_sub_epi8(c, tab);  // '\t'..'\r' become 0..4, all else above 4
    const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(fromTab, four), fromTab);
    return static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(_mm_or_si128(control, _mm_cmpeq_epi8(c, blank)))));
  };
  for (; i + 64 <= n; i += 64) {
    const uint64_t space = spaceMask(p + i) | spaceMask(p + i + 16) << 16 | spaceMask(p + i + 32) << 32 |
                           spaceMask(p + i + 48) << 48;
    words += std::popcount(~space & ((space << 1) | (spaceBefore ? 1u : 0u)));
    spaceBefore = (space >> 63) != 0;
  }
#endif
  for (; i < n; ++i) {
    const bool space = isSpace(p[i]);
    if (!space && spaceBefore) ++words;
    spaceBefore = space;
  }
  return words;
}

std::optional<MockRequest> parseMockRequest(ApiKind kind, std::string_view body, std::string& error,
                                            int blockWords) {
  thread_local simdjson::ondemand::parser parser;
  thread_local std::string buffer;
  t_hasher = BlockHasher{};
  t_hasher.blockWords = blockWords;
  MockRequest req;
  req.kind = kind;
  req.promptHash = kFnvOffset;
  bool sawInput = false;
  try {
    const std::string_view padded = paddedCopy(body, buffer);
    simdjson::padded_string_view view(padded.data(), padded.size(), buffer.capacity());
    simdjson::ondemand::document doc = parser.iterate(view);
    if (doc.type() != json_type::object) throw BadRequest{"request body must be a JSON object"};
    for (auto field : doc.get_object()) {
      const std::string_view key = field.unescaped_key();
      sawInput = parseField(req, key, field.value()) || sawInput;
    }
  } catch (const simdjson::simdjson_error& e) {
    error = std::string("malformed JSON body: ") + e.what();
    return std::nullopt;
  } catch (const BadRequest& e) {
    error = e.reason;
    return std::nullopt;
  }
  if (!sawInput) {
    error = kind == ApiKind::Chat ? "missing required field 'messages'" : "missing required field 'prompt'";
    return std::nullopt;
  }
  return req;
}

int64_t completionTokens(const MockRequest& request, double naturalLengthMean) {
  if (request.ignoreEos && request.maxTokens) return *request.maxTokens;
  const auto span = static_cast<uint64_t>(std::max(1.0, 2.0 * naturalLengthMean - 1.0));
  uint64_t h = request.promptHash;
  h ^= h >> 33;  // finalize FNV so low bits are well mixed
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  const auto natural = static_cast<int64_t>(1 + h % span);
  return request.maxTokens ? std::min(*request.maxTokens, natural) : natural;
}

}  // namespace plumbline::mock
