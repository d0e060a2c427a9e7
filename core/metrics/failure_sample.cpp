#include "core/metrics/failure_sample.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "core/tokenizer/utf8.h"

namespace plumbline::metrics {
namespace {

/// The forms a server may echo a key in: as sent, JSON-escaped ("\/" for '/', as PHP's
/// json_encode writes it) and percent-encoded.
std::vector<std::string> keyForms(std::string_view key) {
  std::string json, percent;
  for (const char ch : key) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '/' || ch == '"' || ch == '\\') json += '\\';
    json += ch;
    if (std::isalnum(c) != 0 || ch == '-' || ch == '.' || ch == '_' || ch == '~') {
      percent += ch;
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      percent += hex;
    }
  }
  std::vector<std::string> forms{std::string(key)};
  for (std::string* form : {&json, &percent})
    if (std::find(forms.begin(), forms.end(), *form) == forms.end()) forms.push_back(*form);
  return forms;
}

std::string redacted(std::string_view body, std::string_view apiKey) {
  std::string out(body);
  if (apiKey.empty()) return out;
  static constexpr std::string_view kMark = "[api key]";
  const std::vector<std::string> forms = keyForms(apiKey);
  for (const std::string& form : forms) {
    for (size_t at = out.find(form); at != std::string::npos;
         at = out.find(form, at + kMark.size()))
      out.replace(at, form.size(), kMark);
  }
  // A body is kept up to a limit (ResponseReader): a key cut there leaves its start at the end.
  // Four bytes or more of a form's start ending the body are taken for it.
  constexpr size_t kLeastPart = 4;
  for (const std::string& form : forms) {
    for (size_t n = std::min(form.size() - 1, out.size()); n >= kLeastPart; --n) {
      if (out.compare(out.size() - n, n, form, 0, n) == 0) {
        out.replace(out.size() - n, n, kMark);
        break;
      }
    }
  }
  return out;
}

}  // namespace

bool isHttpStatusClass(ErrorClass c) {
  return c == ErrorClass::Http4xx || c == ErrorClass::Http5xx || c == ErrorClass::RateLimited ||
         c == ErrorClass::HttpOther;
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
  return sample.body.empty() ? head + " (empty body)" : head + ": " + sample.body;
}

std::string describeFirstFailure(const std::string& className, const FailureSample& sample) {
  return "first " + className + " reply: " + describeFailureSample(sample);
}

nlohmann::json failureSamplesJson(const FailureSamples& samples) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, s] : samples)
    out[name] = {
        {"status", s.status}, {"sent_at_s", static_cast<double>(s.sendNs) / 1e9}, {"body", s.body}};
  return out;
}

FailureSamples failureSamplesFromJson(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("failure_samples: expected an object");
  FailureSamples out;
  for (const auto& [name, value] : j.items()) {
    const std::string where = "failure_samples." + name;
    const auto cls = errorClassFromName(name);
    if (!cls || !isHttpStatusClass(*cls))
      throw std::invalid_argument(where + ": not a class a reply's status decides");
    if (!value.is_object()) throw std::invalid_argument(where + ": expected an object");
    const auto status = value.find("status");
    const auto sentAt = value.find("sent_at_s");
    const auto body = value.find("body");
    if (status == value.end() || !status->is_number_integer() ||
        status->get<int64_t>() < kMinHttpStatus || status->get<int64_t>() > kMaxHttpStatus)
      throw std::invalid_argument(where + ".status: expected an HTTP status");
    if (sentAt == value.end() || !sentAt->is_number() || !std::isfinite(sentAt->get<double>()) ||
        sentAt->get<double>() < 0 || sentAt->get<double>() > 1e9)
      throw std::invalid_argument(where + ".sent_at_s: expected seconds >= 0");
    if (body == value.end() || !body->is_string())
      throw std::invalid_argument(where + ".body: expected a string");
    out[name] = FailureSample{static_cast<int32_t>(status->get<int64_t>()),
                              std::llround(sentAt->get<double>() * 1e9), body->get<std::string>()};
  }
  return out;
}

}  // namespace plumbline::metrics
