#include "core/workload/json_fields.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/util/shown_key.h"
#include "core/workload/workload_error.h"

namespace plumbline::workload {

std::string describeJsonType(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::object:
      return "object";
    case nlohmann::json::value_t::array:
      return "array";
    case nlohmann::json::value_t::string:
      return "string";
    case nlohmann::json::value_t::boolean:
      return "boolean";
    case nlohmann::json::value_t::number_float:
      return "number " + formatNumber(value.get<double>());
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
      return "integer " + value.dump();
    default:
      return "invalid value";
  }
}

std::string formatNumber(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.15g", value);
  return buffer;
}

void requireObject(const nlohmann::json& value, const std::string& path) {
  if (!value.is_object())
    throw WorkloadError(path, "expected an object, got " + describeJsonType(value));
}

void checkPositive(double value, const std::string& path) {
  if (!(value > 0)) throw WorkloadError(path, "must be > 0, got " + formatNumber(value));
  if (!std::isfinite(value))
    throw WorkloadError(path, "must be a finite number, got " + formatNumber(value));
}

void checkNonNegative(double value, const std::string& path) {
  if (!(value >= 0)) throw WorkloadError(path, "must be >= 0, got " + formatNumber(value));
}

void checkAtLeast(double value, double lowest, const std::string& path) {
  if (!(value >= lowest))
    throw WorkloadError(path,
                        "must be >= " + formatNumber(lowest) + ", got " + formatNumber(value));
}

void checkAtMost(double value, double highest, const std::string& path) {
  if (!(value <= highest))
    throw WorkloadError(path,
                        "must be <= " + formatNumber(highest) + ", got " + formatNumber(value));
}

JsonFields::JsonFields(const nlohmann::json& value, std::string path,
                       std::initializer_list<std::string_view> allowed)
    : m_value(value), m_path(std::move(path)) {
  requireObject(m_value, m_path.empty() ? std::string("(root)") : m_path);
  for (const auto& item : m_value.items()) {
    if (std::find(allowed.begin(), allowed.end(), item.key()) != allowed.end()) continue;
    // Name the keys there are: a misspelling, or a field that belongs elsewhere (a sampling
    // parameter Plumbline does not model goes in sampling.extra), is then fixed without the docs.
    std::string known;
    for (std::string_view k : allowed) known += (known.empty() ? "" : ", ") + std::string(k);
    throw WorkloadError(
        childPath(util::shownKey(item.key())),
        "unknown key '" + util::shownKey(item.key()) + "' (known here: " + known + ")");
  }
}

std::string JsonFields::childPath(std::string_view key) const {
  return m_path.empty() ? std::string(key) : m_path + "." + std::string(key);
}

bool JsonFields::has(std::string_view key) const { return find(key) != nullptr; }

const nlohmann::json* JsonFields::find(std::string_view key) const {
  auto it = m_value.find(key);
  return it == m_value.end() ? nullptr : &*it;
}

std::optional<double> JsonFields::number(std::string_view key) const {
  const auto* value = find(key);
  if (!value) return std::nullopt;
  if (!value->is_number())
    throw WorkloadError(childPath(key), "expected a number, got " + describeJsonType(*value));
  return value->get<double>();
}

std::optional<int64_t> JsonFields::integer(std::string_view key) const {
  const auto* value = find(key);
  if (!value) return std::nullopt;
  if (value->is_number_unsigned()) {
    const auto u = value->get<uint64_t>();
    if (u > static_cast<uint64_t>(INT64_MAX)) throw WorkloadError(childPath(key), "too large");
    return static_cast<int64_t>(u);
  }
  if (!value->is_number_integer())
    throw WorkloadError(childPath(key), "expected an integer, got " + describeJsonType(*value));
  return value->get<int64_t>();
}

std::optional<std::string> JsonFields::string(std::string_view key) const {
  const auto* value = find(key);
  if (!value) return std::nullopt;
  if (!value->is_string())
    throw WorkloadError(childPath(key), "expected a string, got " + describeJsonType(*value));
  return value->get<std::string>();
}

std::optional<bool> JsonFields::boolean(std::string_view key) const {
  const auto* value = find(key);
  if (!value) return std::nullopt;
  if (!value->is_boolean())
    throw WorkloadError(childPath(key), "expected a boolean, got " + describeJsonType(*value));
  return value->get<bool>();
}

const nlohmann::json& JsonFields::require(std::string_view key) const {
  const auto* value = find(key);
  if (!value) throw WorkloadError(childPath(key), "missing required key");
  return *value;
}

double JsonFields::requireNumber(std::string_view key) const {
  require(key);
  return *number(key);
}

std::string JsonFields::requireString(std::string_view key) const {
  require(key);
  return *string(key);
}

}  // namespace plumbline::workload
