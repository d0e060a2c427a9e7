#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include <simdjson.h>

namespace plumbline::tokenizer {

/// One JSON value of a tokenizer file and where it sits ("model.merges[3]"); every accessor
/// throws TokenizerError naming the file and that path. The value is a simdjson DOM handle: the
/// parser that produced it must outlive this (Tokenizer::fromParsed keeps it for the load).
/// simdjson parses the 11 MB Qwen3 file in milliseconds; nlohmann's DOM of it was most of the
/// 0.75 s a process took to load it (6.2 s under ASan).
class JsonSource {
 public:
  JsonSource(simdjson::dom::element value, std::string file, std::string path = {})
      : m_value(value), m_file(std::move(file)), m_path(std::move(path)) {}

  simdjson::dom::element value() const { return m_value; }
  const std::string& file() const { return m_file; }
  const std::string& path() const { return m_path; }

  /// The member `key`; throws when this is not an object or the key is missing.
  JsonSource child(std::string_view key) const;
  /// The element `index` of this array (a walk from the start: for small arrays; iterate
  /// array() for large ones).
  JsonSource element(size_t index) const;
  /// Whether `key` is present and not null.
  bool has(std::string_view key) const;

  bool isNull() const { return m_value.is_null(); }
  std::string string() const;
  int64_t integer() const;
  bool boolean() const;
  /// Throws unless this is an object / an array.
  simdjson::dom::object object() const;
  simdjson::dom::array array() const;

  /// Optional members with a default when absent or null.
  bool booleanOr(std::string_view key, bool fallback) const;
  std::string stringOr(std::string_view key, std::string fallback) const;

  [[noreturn]] void fail(const std::string& reason) const;

  /// "an object", "a string", … for "expected X, got Y" messages.
  static std::string typeName(simdjson::dom::element value);

 private:
  simdjson::dom::element m_value;
  std::string m_file;
  std::string m_path;
};

}  // namespace plumbline::tokenizer
