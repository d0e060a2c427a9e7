#include "core/tokenizer/json_source.h"

#include <utility>

#include "core/tokenizer/tokenizer_error.h"

namespace plumbline::tokenizer {

namespace {

std::string jsonTypeName(const nlohmann::json& value) {
  if (value.is_null()) return "null";
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  if (value.is_string()) return "a string";
  if (value.is_boolean()) return "a boolean";
  return "a number";
}

}  // namespace

void JsonSource::fail(const std::string& reason) const {
  throw TokenizerError(m_file, m_path, reason);
}

const nlohmann::json& JsonSource::object() const {
  if (!m_value.is_object()) fail("expected an object, got " + jsonTypeName(m_value));
  return m_value;
}

const nlohmann::json& JsonSource::array() const {
  if (!m_value.is_array()) fail("expected an array, got " + jsonTypeName(m_value));
  return m_value;
}

JsonSource JsonSource::child(std::string_view key) const {
  const auto& value = object();
  const auto found = value.find(key);
  const std::string path = m_path.empty() ? std::string(key) : m_path + "." + std::string(key);
  if (found == value.end()) throw TokenizerError(m_file, path, "missing required key");
  return JsonSource(*found, m_file, path);
}

JsonSource JsonSource::element(size_t index) const {
  const auto& value = array();
  if (index >= value.size()) fail("index " + std::to_string(index) + " out of range");
  return JsonSource(value[index], m_file, m_path + "[" + std::to_string(index) + "]");
}

bool JsonSource::has(std::string_view key) const {
  if (!m_value.is_object()) return false;
  const auto found = m_value.find(key);
  return found != m_value.end() && !found->is_null();
}

std::string JsonSource::string() const {
  if (!m_value.is_string()) fail("expected a string, got " + jsonTypeName(m_value));
  return m_value.get<std::string>();
}

int64_t JsonSource::integer() const {
  if (!m_value.is_number_integer()) fail("expected an integer, got " + jsonTypeName(m_value));
  return m_value.get<int64_t>();
}

bool JsonSource::boolean() const {
  if (!m_value.is_boolean()) fail("expected a boolean, got " + jsonTypeName(m_value));
  return m_value.get<bool>();
}

bool JsonSource::booleanOr(std::string_view key, bool fallback) const {
  return has(key) ? child(key).boolean() : fallback;
}

std::string JsonSource::stringOr(std::string_view key, std::string fallback) const {
  return has(key) ? child(key).string() : std::move(fallback);
}

}  // namespace plumbline::tokenizer
