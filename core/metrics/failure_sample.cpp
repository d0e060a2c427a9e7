#include "core/metrics/failure_sample.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/tokenizer/utf8.h"
#include "core/util/hex_digit.h"

namespace plumbline::metrics {
namespace {

/// The byte at `text[at]` read as a hexadecimal pair, or -1.
int hexPair(std::string_view text, size_t at) {
  if (at + 2 > text.size()) return -1;
  const int hi = util::hexDigitValue(text[at]), lo = util::hexDigitValue(text[at + 1]);
  return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
}

/// How many bytes of `text` from `at` spell the key byte `c`, in any of the ways a server may
/// echo it: itself; percent-encoded ("%2F", "%2f"; encoders differ in which bytes they leave
/// alone, so any byte may come either way); JSON-escaped ("\/" as PHP writes '/', "\"", "\\",
/// or "\u002F" for any ASCII byte); '+' for a space (form encoding). 0 when none.
size_t spelledAt(std::string_view text, size_t at, unsigned char c) {
  if (at >= text.size()) return 0;
  const char ch = text[at];
  if (static_cast<unsigned char>(ch) == c) return 1;
  if (ch == '%' && hexPair(text, at + 1) == c) return 3;
  if (ch == '+' && c == ' ') return 1;
  if (ch != '\\' || at + 1 >= text.size()) return 0;
  if (static_cast<unsigned char>(text[at + 1]) == c && (c == '/' || c == '"' || c == '\\'))
    return 2;
  if (text[at + 1] == 'u' && c < 0x80 && hexPair(text, at + 2) == 0 && hexPair(text, at + 4) == c)
    return 6;
  return 0;
}

/// Bytes of `text` from `at` that spell the key, or its first `leastPart` bytes or more where
/// the text ends (the reader keeps a body up to a limit: a key cut there leaves its start); 0
/// when the key does not start there.
size_t keySpelledAt(std::string_view text, size_t at, std::string_view key, size_t leastPart) {
  size_t pos = at;
  for (size_t i = 0; i < key.size(); ++i) {
    const size_t n = spelledAt(text, pos, static_cast<unsigned char>(key[i]));
    if (n == 0) {
      // The text ends here, or within an escape it cut short ("%2", "\u00").
      const bool cutHere =
          pos == text.size() || ((text[pos] == '%' || text[pos] == '\\') && pos + 6 > text.size());
      return cutHere && i >= leastPart ? text.size() - at : 0;
    }
    pos += n;
  }
  return pos - at;
}

std::string redacted(std::string_view body, std::string_view apiKey) {
  if (apiKey.empty()) return std::string(body);
  static constexpr std::string_view kMark = "[api key]";
  constexpr size_t kLeastPart = 4;  // of a key's start ending the body, taken for it
  std::string out;
  out.reserve(body.size());
  for (size_t at = 0; at < body.size();) {
    if (const size_t n = keySpelledAt(body, at, apiKey, std::min(kLeastPart, apiKey.size()));
        n > 0) {
      out += kMark;
      at += n;
    } else {
      out += body[at++];
    }
  }
  return out;
}

}  // namespace

bool isHttpStatusClass(ErrorClass c) {
  return c == ErrorClass::Http4xx || c == ErrorClass::Http5xx || c == ErrorClass::RateLimited ||
         c == ErrorClass::HttpOther;
}

bool carriesFailureSample(ErrorClass c) {
  return isHttpStatusClass(c) || c == ErrorClass::Connect || c == ErrorClass::Timeout ||
         c == ErrorClass::NoReply || c == ErrorClass::StreamCut || c == ErrorClass::MalformedStream;
}

std::string failureBodyExcerpt(std::string_view body, std::string_view apiKey) {
  const std::string text = tokenizer::toValidUtf8(redacted(body, apiKey));
  std::string out;
  bool space = false;
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7F || c == ' ') {
      space = !out.empty();
      ++i;
      continue;
    }
    size_t next = i;
    tokenizer::nextCodePoint(text, next);  // the text is valid UTF-8: one whole character
    const size_t n = next - i;
    if (out.size() + (space ? 1 : 0) + n > kFailureBodyMax) {
      out += "…";
      return out;
    }
    if (space) out += ' ';
    space = false;
    out.append(text, i, n);
    i += n;
  }
  return out;
}

std::string describeFailureSample(const FailureSample& sample) {
  const std::string head = "HTTP " + std::to_string(sample.status);
  if (sample.reason.empty())
    return sample.body.empty() ? head + " (empty body)" : head + ": " + sample.body;
  std::string out = sample.status != 0 ? head + ", " + sample.reason : sample.reason;
  if (!sample.body.empty()) out += ": " + sample.body;
  return out;
}

std::string describeFirstFailure(const std::string& className, const FailureSample& sample) {
  const auto cls = errorClassFromName(className);
  const bool reply = cls && isHttpStatusClass(*cls);
  return "first " + className + (reply ? " reply: " : " failure: ") + describeFailureSample(sample);
}

nlohmann::json failureSamplesJson(const FailureSamples& samples) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, s] : samples) {
    nlohmann::json one = nlohmann::json::object();
    if (s.status != 0) one["status"] = s.status;
    one["sent_at_s"] = static_cast<double>(s.sendNs) / 1e9;
    if (!s.reason.empty()) one["reason"] = s.reason;
    one["body"] = s.body;
    out[name] = std::move(one);
  }
  return out;
}

FailureSamples failureSamplesFromJson(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("failure_samples: expected an object");
  FailureSamples out;
  for (const auto& [name, value] : j.items()) {
    const std::string where = "failure_samples." + name;
    const auto cls = errorClassFromName(name);
    if (!cls || !carriesFailureSample(*cls))
      throw std::invalid_argument(where + ": not a class that keeps its first failure");
    if (!value.is_object()) throw std::invalid_argument(where + ": expected an object");
    const auto status = value.find("status");
    const auto sentAt = value.find("sent_at_s");
    const auto body = value.find("body");
    const auto reason = value.find("reason");
    // A reply's class always has its status; the others have one only when a head was read.
    if ((status != value.end() || isHttpStatusClass(*cls)) &&
        (status == value.end() || !status->is_number_integer() ||
         status->get<int64_t>() < kMinHttpStatus || status->get<int64_t>() > kMaxHttpStatus))
      throw std::invalid_argument(where + ".status: expected an HTTP status");
    if (reason != value.end() && !reason->is_string())
      throw std::invalid_argument(where + ".reason: expected a string");
    if (sentAt == value.end() || !sentAt->is_number() || !std::isfinite(sentAt->get<double>()) ||
        sentAt->get<double>() < 0 || sentAt->get<double>() > 1e9)
      throw std::invalid_argument(where + ".sent_at_s: expected seconds >= 0");
    if (body == value.end() || !body->is_string())
      throw std::invalid_argument(where + ".body: expected a string");
    out[name] =
        FailureSample{status != value.end() ? static_cast<int32_t>(status->get<int64_t>()) : 0,
                      std::llround(sentAt->get<double>() * 1e9), body->get<std::string>(),
                      reason != value.end() ? reason->get<std::string>() : std::string()};
  }
  return out;
}

}  // namespace plumbline::metrics
