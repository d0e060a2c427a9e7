#include "core/mock/mock_request.h"

#include <simdjson.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <algorithm>
#include <bit>
#include <cstdint>
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

/// Bit k set when byte k of the 64 at `p` is whitespace (as isSpace): sixteen bytes per compare
/// where SSE2 is there, so that words are counted and found without a branch per byte.
uint64_t spaceMask64(const char* p) {
#ifdef __SSE2__
  const __m128i blank = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t'), four = _mm_set1_epi8(4);
  uint64_t mask = 0;
  for (int k = 0; k < 4; ++k) {
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    const __m128i fromTab = _mm_sub_epi8(c, tab);  // '\t'..'\r' become 0..4, all else above 4
    const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(fromTab, four), fromTab);
    const auto bits =
        static_cast<uint32_t>(_mm_movemask_epi8(_mm_or_si128(control, _mm_cmpeq_epi8(c, blank))));
    mask |= static_cast<uint64_t>(bits) << (16 * k);
  }
  return mask;
#else
  uint64_t mask = 0;
  for (int k = 0; k < 64; ++k) mask |= static_cast<uint64_t>(isSpace(p[k])) << k;
  return mask;
#endif
}

/// One step of the prompt hashes: eight bytes (or the last, fewer) mixed in at once.
uint64_t mixWord(uint64_t h, uint64_t w) {
  h = (h ^ w) * kFnvPrime;
  return h ^ (h >> 29);  // carries the high bytes' difference down for the next multiply
}

/// Mixes the whole eight-byte steps of `p[0, n)` into `h`; the last n % 8 bytes are the
/// caller's (the prompt hash and the block hashes end differently).
uint64_t mixFullWords(uint64_t h, const char* p, size_t n) {
  for (size_t k = 0; k + 8 <= n; k += 8) {
    uint64_t w = 0;
    std::memcpy(&w, p + k, 8);
    h = mixWord(h, w);
  }
  return h;
}

/// Hashes the prompt in blocks of words, across the text parts of one request. A word is
/// hashed eight bytes per step, then its length (so a word never hashes like itself with
/// trailing NUL bytes); a byte at a time this was ~0.55 ms of a 32k-word prompt.
struct BlockHasher {
  int blockWords = 0;
  int64_t wordsInBlock = 0;
  uint64_t block = kFnvOffset;
  uint64_t chain = kFnvOffset;

  void add(MockRequest& req, std::string_view text) {
    const char* p = text.data();
    const size_t n = text.size();
    constexpr size_t kNone = SIZE_MAX;
    size_t wordStart = kNone;  // where the word being read began, if one is
    size_t i = 0;
    // 64 bytes per step: the next word start and end are the next clear and set bits.
    for (; i + 64 <= n; i += 64) {
      const uint64_t space = spaceMask64(p + i);
      unsigned pos = 0;
      for (;;) {
        if (wordStart == kNone) {
          const uint64_t ahead = ~space >> pos;
          if (ahead == 0) break;
          pos += static_cast<unsigned>(std::countr_zero(ahead));
          wordStart = i + pos;
        }
        const uint64_t ahead = space >> pos;
        if (ahead == 0) break;  // the word runs on into the next 64 bytes
        pos += static_cast<unsigned>(std::countr_zero(ahead));
        endWord(req, p + wordStart, i + pos - wordStart);
        wordStart = kNone;
      }
    }
    for (; i < n; ++i) {
      const bool space = isSpace(p[i]);
      if (!space && wordStart == kNone) {
        wordStart = i;
      } else if (space && wordStart != kNone) {
        endWord(req, p + wordStart, i - wordStart);
        wordStart = kNone;
      }
    }
    if (wordStart != kNone) endWord(req, p + wordStart, n - wordStart);
  }

  void endWord(MockRequest& req, const char* word, size_t length) {
    block = mixFullWords(block, word, length);
    const size_t k = length - length % 8;
    if (k < length) {  // the last 1..7 bytes, low byte first (as the 8-byte loads on x86)
      uint64_t w = 0;
      for (size_t b = 0; k + b < length; ++b)
        w |= static_cast<uint64_t>(static_cast<unsigned char>(word[k + b])) << (8 * b);
      block = mixWord(block, w);
    }
    block = (block ^ (0x20u | (static_cast<uint64_t>(length) << 8))) * kFnvPrime;
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
/// with 32k-token prompts: each step waits for the last multiply).
uint64_t hashText(uint64_t h, std::string_view text) {
  h = mixFullWords(h, text.data(), text.size());
  for (size_t i = text.size() - text.size() % 8; i < text.size(); ++i)
    h = (h ^ static_cast<unsigned char>(text[i])) * kFnvPrime;
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
  for (; i + 64 <= n; i += 64) {
    const uint64_t space = spaceMask64(p + i);
    words += std::popcount(~space & ((space << 1) | (spaceBefore ? 1u : 0u)));
    spaceBefore = (space >> 63) != 0;
  }
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
