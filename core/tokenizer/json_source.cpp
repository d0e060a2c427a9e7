#include "core/tokenizer/json_source.h"

#include <utility>

#include "core/tokenizer/tokenizer_error.h"

namespace plumbline::tokenizer {

namespace dom = simdjson::dom;

std::string JsonSource::typeName(dom::element value) {
  switch (value.type()) {
    case dom::element_type::NULL_VALUE:
      return "null";
    case dom::element_type::OBJECT:
      return "an object";
    case dom::element_type::ARRAY:
      return "an array";
    case dom::element_type::STRING:
      return "a string";
    case dom::element_type::BOOL:
      return "a boolean";
    default:
      return "a number";
  }
}

void JsonSource::fail(const std::string& reason) const {
  throw TokenizerError(m_file, m_path, reason);
}

dom::object JsonSource::object() const {
  dom::object result;
  if (m_value.get_object().get(result) != simdjson::SUCCESS)
    fail("expected an object, got " + typeName(m_value));
  return result;
}

dom::array JsonSource::array() const {
  dom::array result;
  if (m_value.get_array().get(result) != simdjson::SUCCESS)
    fail("expected an array, got " + typeName(m_value));
  return result;
}

JsonSource JsonSource::child(std::string_view key) const {
  const dom::object value = object();
  const std::string path = m_path.empty() ? std::string(key) : m_path + "." + std::string(key);
  dom::element found;
  if (value.at_key(key).get(found) != simdjson::SUCCESS)
    throw TokenizerError(m_file, path, "missing required key");
  return JsonSource(found, m_file, path);
}

JsonSource JsonSource::element(size_t index) const {
  const dom::array value = array();
  dom::element found;
  if (value.at(index).get(found) != simdjson::SUCCESS)
    fail("index " + std::to_string(index) + " out of range");
  return JsonSource(found, m_file, m_path + "[" + std::to_string(index) + "]");
}

bool JsonSource::has(std::string_view key) const {
  dom::object value;
  if (m_value.get_object().get(value) != simdjson::SUCCESS) return false;
  dom::element found;
  return value.at_key(key).get(found) == simdjson::SUCCESS && !found.is_null();
}

std::string JsonSource::string() const {
  std::string_view text;
  if (m_value.get_string().get(text) != simdjson::SUCCESS)
    fail("expected a string, got " + typeName(m_value));
  return std::string(text);
}

int64_t JsonSource::integer() const {
  int64_t number = 0;
  if (m_value.is_uint64() && !m_value.is_int64()) fail("integer out of range");
  if (m_value.get_int64().get(number) != simdjson::SUCCESS)
    fail("expected an integer, got " + typeName(m_value));
  return number;
}

bool JsonSource::boolean() const {
  bool flag = false;
  if (m_value.get_bool().get(flag) != simdjson::SUCCESS)
    fail("expected a boolean, got " + typeName(m_value));
  return flag;
}

bool JsonSource::booleanOr(std::string_view key, bool fallback) const {
  return has(key) ? child(key).boolean() : fallback;
}

std::string JsonSource::stringOr(std::string_view key, std::string fallback) const {
  return has(key) ? child(key).string() : std::move(fallback);
}

}  // namespace plumbline::tokenizer
