#include "core/engine/chunk_decoder.h"

#include <simdjson.h>

namespace plumbline::engine {

namespace od = simdjson::ondemand;

struct ChunkDecoder::Impl {
  od::parser parser;
};

ChunkDecoder::ChunkDecoder() : m_impl(std::make_unique<Impl>()) {}
ChunkDecoder::~ChunkDecoder() = default;

namespace {

// Every simdjson result is taken with get(): its implicit conversions throw on malformed input.
bool nonEmptyString(od::value v, std::string_view& s) {
  od::json_type type{};
  if (v.type().get(type) || type != od::json_type::string) return false;
  return !v.get_string().get(s) && !s.empty();
}

int32_t intOrMinus1(od::value v) {
  od::json_type type{};
  int64_t n = -1;
  if (v.type().get(type) || type != od::json_type::number || v.get_int64().get(n) || n < 0 || n > INT32_MAX)
    return -1;
  return static_cast<int32_t>(n);
}

/// Calls visit(key, value) for each field of obj; the first error (malformed input) stops it.
template <class Visit>
simdjson::error_code forEachField(od::object obj, Visit&& visit) {
  for (auto field : obj) {
    std::string_view key;
    if (auto e = field.unescaped_key().get(key)) return e;
    od::value value;
    if (auto e = field.value().get(value)) return e;
    if (auto e = visit(key, value)) return e;
  }
  return simdjson::SUCCESS;
}

// choices[0]: chat "delta"/"message" {content}, completions "text".
simdjson::error_code readChoice(od::object choice, ChunkInfo& info) {
  return forEachField(choice, [&](std::string_view key, od::value v) {
    if (key == "delta" || key == "message") {
      od::object inner;
      if (v.get_object().get(inner)) return simdjson::SUCCESS;  // a null delta carries nothing
      return forEachField(inner, [&](std::string_view k2, od::value c) {
        if (k2 == "content" && nonEmptyString(c, info.content)) info.hasContent = true;
        return simdjson::SUCCESS;
      });
    }
    if (key == "text" && nonEmptyString(v, info.content)) info.hasContent = true;
    return simdjson::SUCCESS;
  });
}

simdjson::error_code readUsage(od::object usage, ChunkInfo& info) {
  auto e = forEachField(usage, [&](std::string_view key, od::value v) {
    if (key == "prompt_tokens") info.promptTokens = intOrMinus1(v);
    else if (key == "completion_tokens") info.completionTokens = intOrMinus1(v);
    return simdjson::SUCCESS;
  });
  info.hasUsage = info.promptTokens >= 0 || info.completionTokens >= 0;
  return e;
}

simdjson::error_code readTop(od::document& doc, ChunkInfo& info) {
  od::object obj;
  if (auto e = doc.get_object().get(obj)) return e;
  return forEachField(obj, [&](std::string_view key, od::value v) {
    if (key == "choices") {
      od::array arr;
      if (auto e = v.get_array().get(arr)) return e;
      for (auto el : arr) {  // the first choice is the one we asked for (n = 1)
        od::object choice;
        if (auto e = el.get_object().get(choice)) return e;
        return readChoice(choice, info);
      }
    } else if (key == "usage") {
      od::object usage;
      if (!v.get_object().get(usage)) return readUsage(usage, info);
    } else if (key == "error") {
      info.serverError = true;
    }
    return simdjson::SUCCESS;
  });
}

}  // namespace

ChunkInfo ChunkDecoder::decodeChunk(const std::string& data) {
  ChunkInfo info;
  if (data == "[DONE]") {
    info.done = true;
    return info;
  }
  od::document doc;
  if (m_impl->parser.iterate(data.data(), data.size(), data.capacity()).get(doc) ||
      readTop(doc, info)) {
    ChunkInfo bad;
    bad.malformed = true;
    return bad;
  }
  return info;
}

ChunkInfo ChunkDecoder::decodeBody(std::string& body) {
  body.reserve(body.size() + simdjson::SIMDJSON_PADDING);
  return decodeChunk(body);
}

}  // namespace plumbline::engine
