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
/// Sets `s` only to a non-empty string: an empty field after a full one leaves the full one.
bool nonEmptyString(od::value v, std::string_view& s) {
  od::json_type type{};
  if (v.type().get(type) || type != od::json_type::string) return false;
  std::string_view text;
  if (v.get_string().get(text) || text.empty()) return false;
  s = text;
  return true;
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

/// A status-like code: a number, or a string of digits ("400"), in 100–999; else -1.
int32_t statusCode(od::value v) {
  od::json_type type{};
  if (v.type().get(type)) return -1;
  int64_t n = -1;
  if (type == od::json_type::number) {
    if (v.get_int64().get(n)) return -1;
  } else if (type == od::json_type::string) {
    std::string_view s;
    if (v.get_string().get(s) || s.empty() || s.size() > 3) return -1;
    n = 0;
    for (const char c : s) {
      if (c < '0' || c > '9') return -1;
      n = n * 10 + (c - '0');
    }
  } else {
    return -1;
  }
  return n >= 100 && n <= 999 ? static_cast<int32_t>(n) : -1;
}

// delta.tool_calls / message.tool_calls: [{"function": {"name", "arguments"}}, …].
simdjson::error_code readToolCalls(od::value v, ChunkInfo& info) {
  od::array calls;
  if (v.get_array().get(calls)) return simdjson::SUCCESS;  // null: nothing
  for (auto el : calls) {
    od::object call;
    if (el.get_object().get(call)) continue;
    auto e = forEachField(call, [&](std::string_view key, od::value f) {
      od::object fn;
      if (key != "function" || f.get_object().get(fn)) return simdjson::SUCCESS;
      return forEachField(fn, [&](std::string_view k, od::value x) {
        if ((k == "name" || k == "arguments") && nonEmptyString(x, info.thought))
          info.hasContent = true;
        return simdjson::SUCCESS;
      });
    });
    if (e) return e;
  }
  return simdjson::SUCCESS;
}

// choices[0]: chat "delta"/"message" {content, reasoning_content, reasoning, tool_calls},
// completions "text", and "finish_reason".
simdjson::error_code readChoice(od::object choice, ChunkInfo& info) {
  return forEachField(choice, [&](std::string_view key, od::value v) {
    if (key == "delta" || key == "message") {
      od::object inner;
      if (v.get_object().get(inner)) return simdjson::SUCCESS;  // a null delta carries nothing
      return forEachField(inner, [&](std::string_view k2, od::value c) {
        if (k2 == "content") {
          if (nonEmptyString(c, info.content)) info.hasContent = true;
        } else if (k2 == "reasoning_content" || k2 == "reasoning") {
          if (nonEmptyString(c, info.thought)) info.hasContent = true;
        } else if (k2 == "tool_calls") {
          return readToolCalls(c, info);
        }
        return simdjson::SUCCESS;
      });
    }
    if (key == "text") {
      if (nonEmptyString(v, info.content)) info.hasContent = true;
    } else if (key == "finish_reason") {
      std::string_view why;
      if (nonEmptyString(v, why)) {
        info.finish =
            why == "abort" || why == "error" ? FinishReason::Aborted : FinishReason::Ended;
        info.finishText = why;
      }
    }
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

// "error": an object (its "code" is the status when it looks like one), a non-empty string, a
// number or true; null, false and "" are not errors (some servers send "error": null on every
// good chunk).
simdjson::error_code readError(od::value v, ChunkInfo& info) {
  od::json_type type{};
  if (auto e = v.type().get(type)) return e;
  if (type == od::json_type::null) return simdjson::SUCCESS;
  if (type == od::json_type::string) {
    std::string_view text;
    if (auto e = v.get_string().get(text)) return e;
    info.serverError = info.serverError || !text.empty();
    return simdjson::SUCCESS;
  }
  if (type == od::json_type::boolean) {
    bool b = false;
    if (auto e = v.get_bool().get(b)) return e;
    info.serverError = info.serverError || b;
    return simdjson::SUCCESS;
  }
  info.serverError = true;
  od::object obj;
  if (type != od::json_type::object || v.get_object().get(obj)) return simdjson::SUCCESS;
  return forEachField(obj, [&](std::string_view key, od::value c) {
    if (key == "code" && info.errorCode < 0) info.errorCode = statusCode(c);
    return simdjson::SUCCESS;
  });
}

simdjson::error_code readChoices(od::value v, ChunkInfo& info) {
  od::json_type type{};
  if (auto e = v.type().get(type)) return e;
  if (type == od::json_type::null) return simdjson::SUCCESS;  // as absent
  od::array arr;
  if (auto e = v.get_array().get(arr)) {
    info.malformedWhy = "\"choices\" is not an array";
    return e;
  }
  for (auto el : arr) {  // the first choice is the one we asked for (n = 1)
    od::object choice;
    if (auto e = el.get_object().get(choice)) {
      info.malformedWhy = "a choice that is not an object";
      return e;
    }
    info.hasChoice = true;
    return readChoice(choice, info);
  }
  return simdjson::SUCCESS;
}

/// What says a chunk is an error rather than a completion, read where such keys appear.
struct ErrorSigns {
  bool errorObject = false;  ///< "object": "error"
  int32_t topCode = -1;      ///< "code" beside it
};

// Kept out of line: these keys are rare, and the field loop stays small enough to inline.
[[gnu::noinline]] simdjson::error_code readErrorSign(std::string_view key, od::value v,
                                                     ChunkInfo& info, ErrorSigns& signs) {
  if (key == "error") return readError(v, info);
  if (key == "error_code") {
    od::json_type type{};
    int64_t n = 0;
    if (!v.type().get(type) && type == od::json_type::number && !v.get_int64().get(n) && n != 0) {
      info.serverError = true;
      if (n >= 400 && n <= 599 && info.errorCode < 0) info.errorCode = static_cast<int32_t>(n);
    }
  } else if (key == "code") {
    signs.topCode = statusCode(v);
  }
  return simdjson::SUCCESS;
}

simdjson::error_code readTop(od::document& doc, ChunkInfo& info) {
  od::object obj;
  if (auto e = doc.get_object().get(obj)) {
    od::json_type type{};
    const bool json =
        !doc.type().get(type) && (type == od::json_type::array || type == od::json_type::string ||
                                  type == od::json_type::number || type == od::json_type::boolean ||
                                  type == od::json_type::null);
    info.malformedWhy = json ? "not a JSON object" : "not valid JSON";
    return e;
  }
  ErrorSigns signs;
  const auto err = forEachField(obj, [&](std::string_view key, od::value v) {
    if (key == "choices") return readChoices(v, info);
    if (key == "usage") {
      od::object usage;
      if (!v.get_object().get(usage)) return readUsage(usage, info);
      return simdjson::SUCCESS;
    }
    if (key == "object") {
      // Compared as it stands in the text ("chat.completion.chunk" is never unescaped).
      od::raw_json_string raw;
      if (!v.get_raw_json_string().get(raw) && raw.unsafe_is_equal("error"))
        signs.errorObject = true;
      return simdjson::SUCCESS;
    }
    if (key == "error" || key == "error_code" || key == "code")
      return readErrorSign(key, v, info, signs);
    return simdjson::SUCCESS;
  });
  if (err) return err;
  if (signs.errorObject) info.serverError = true;
  if (info.serverError && info.errorCode < 0 && signs.topCode >= 400 && signs.topCode <= 599)
    info.errorCode = signs.topCode;
  return simdjson::SUCCESS;
}

}  // namespace

ChunkInfo ChunkDecoder::decodeChunk(const std::string& data) {
  ChunkInfo info;
  // As the OpenAI client libraries read it: data that starts with "[DONE]" ("[DONE] " too).
  if (data.size() >= 6 && data.compare(0, 6, "[DONE]") == 0) {
    info.done = true;
    return info;
  }
  od::document doc;
  const auto e = m_impl->parser.iterate(data.data(), data.size(), data.capacity()).get(doc);
  if (e || readTop(doc, info)) {
    ChunkInfo bad;
    bad.malformed = true;
    // What was wrong, where it can be said in a few words (simdjson checks the UTF-8 of the
    // whole event when it indexes it, in iterate()).
    if (data.empty())
      bad.malformedWhy = "an event with empty data";
    else if (e == simdjson::UTF8_ERROR)
      bad.malformedWhy = "not valid UTF-8";
    else if (info.malformedWhy != nullptr)
      bad.malformedWhy = info.malformedWhy;
    else
      bad.malformedWhy = "not valid JSON";
    return bad;
  }
  return info;
}

ChunkInfo ChunkDecoder::decodeBody(std::string& body) {
  body.reserve(body.size() + simdjson::SIMDJSON_PADDING);
  return decodeChunk(body);
}

}  // namespace plumbline::engine
