#include "core/live/live_json_fields.h"

#include "core/live/live_stream.h"

namespace plumbline::live {

namespace {

std::string typeName(const nlohmann::json& v) {
  if (v.is_number_integer()) return "an integer";
  if (v.is_number_float()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_boolean()) return "a boolean";
  if (v.is_null()) return "null";
  if (v.is_array()) return "an array";
  return "an object";
}

}  // namespace

LiveJsonFields::LiveJsonFields(const nlohmann::json& payload, std::string_view frameName)
    : LiveJsonFields(payload, std::string(frameName), {}) {
  if (!payload.is_object())
    throw LiveProtocolError(m_frame + " frame: payload is " + typeName(payload) +
                            ", expected a JSON object");
}

LiveJsonFields::LiveJsonFields(const nlohmann::json& payload, std::string frameName,
                               std::string prefix)
    : m_payload(payload), m_frame(std::move(frameName)), m_prefix(std::move(prefix)) {}

void LiveJsonFields::fail(const char* name, const std::string& problem) const {
  throw LiveProtocolError(m_frame + " frame: field \"" + m_prefix + name + "\" " + problem);
}

const nlohmann::json& LiveJsonFields::field(const char* name) const {
  auto it = m_payload.find(name);
  if (it == m_payload.end()) fail(name, "is missing");
  return *it;
}

bool LiveJsonFields::has(const char* name) const { return m_payload.contains(name); }

int64_t LiveJsonFields::i64(const char* name) const {
  const auto& v = field(name);
  if (!v.is_number_integer()) fail(name, "is " + typeName(v) + ", expected an integer");
  if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
    fail(name, "is out of range");
  return v.get<int64_t>();
}

uint64_t LiveJsonFields::u64(const char* name) const {
  const auto& v = field(name);
  if (!v.is_number_integer()) fail(name, "is " + typeName(v) + ", expected a count");
  if (!v.is_number_unsigned()) fail(name, "is negative, expected a count");
  return v.get<uint64_t>();
}

double LiveJsonFields::f64(const char* name) const {
  const auto& v = field(name);
  if (!v.is_number()) fail(name, "is " + typeName(v) + ", expected a number");
  return v.get<double>();
}

double LiveJsonFields::f64Or(const char* name, double absent) const {
  return has(name) ? f64(name) : absent;
}

std::optional<double> LiveJsonFields::f64OrNull(const char* name) const {
  if (field(name).is_null()) return std::nullopt;
  return f64(name);
}

std::optional<double> LiveJsonFields::f64OrNullOrAbsent(const char* name) const {
  if (!has(name)) return std::nullopt;
  return f64OrNull(name);
}

std::optional<int64_t> LiveJsonFields::i64OrNullOrAbsent(const char* name) const {
  if (!has(name) || field(name).is_null()) return std::nullopt;
  return i64(name);
}

bool LiveJsonFields::boolean(const char* name) const {
  const auto& v = field(name);
  if (!v.is_boolean()) fail(name, "is " + typeName(v) + ", expected a boolean");
  return v.get<bool>();
}

std::string LiveJsonFields::str(const char* name) const {
  const auto& v = field(name);
  if (!v.is_string()) fail(name, "is " + typeName(v) + ", expected a string");
  return v.get<std::string>();
}

std::string LiveJsonFields::oneOf(const char* name,
                                  const std::vector<std::string_view>& allowed) const {
  std::string s = str(name);
  std::string list;
  for (auto a : allowed) {
    if (s == a) return s;
    list += (list.empty() ? "" : ", ") + std::string(a);
  }
  fail(name, "is \"" + s + "\", expected one of " + list);
}

const nlohmann::json& LiveJsonFields::object(const char* name) const {
  const auto& v = field(name);
  if (!v.is_object()) fail(name, "is " + typeName(v) + ", expected an object");
  return v;
}

const nlohmann::json& LiveJsonFields::any(const char* name) const { return field(name); }

std::map<std::string, uint64_t> LiveJsonFields::countsByName(const char* name) const {
  std::map<std::string, uint64_t> out;
  for (const auto& [key, v] : object(name).items()) {
    if (!v.is_number_unsigned())
      fail(name, "entry \"" + key + "\" is " + typeName(v) + ", expected a count");
    out[key] = v.get<uint64_t>();
  }
  return out;
}

std::vector<std::string> LiveJsonFields::strings(const char* name) const {
  const auto& v = field(name);
  if (!v.is_array()) fail(name, "is " + typeName(v) + ", expected an array of strings");
  std::vector<std::string> out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string())
      fail(name, "item " + std::to_string(i) + " is " + typeName(v[i]) + ", expected a string");
    out.push_back(v[i].get<std::string>());
  }
  return out;
}

LiveJsonFields LiveJsonFields::nested(const char* name) const {
  return LiveJsonFields(object(name), m_frame, m_prefix + name + ".");
}

}  // namespace plumbline::live
