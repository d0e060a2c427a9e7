#pragma once
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace plumbline::tokenizer {

/// One JSON value of a tokenizer file and where it sits ("model.merges[3]"); every accessor
/// throws TokenizerError naming the file and that path.
class JsonSource {
 public:
  JsonSource(const nlohmann::json& value, std::string file, std::string path = {})
      : m_value(value), m_file(std::move(file)), m_path(std::move(path)) {}

  const nlohmann::json& value() const { return m_value; }
  const std::string& file() const { return m_file; }
  const std::string& path() const { return m_path; }

  /// The member `key`; throws when this is not an object or the key is missing.
  JsonSource child(std::string_view key) const;
  /// The element `index` of this array.
  JsonSource element(size_t index) const;
  /// Whether `key` is present and not null.
  bool has(std::string_view key) const;

  std::string string() const;
  int64_t integer() const;
  bool boolean() const;
  /// Throws unless this is an object / an array.
  const nlohmann::json& object() const;
  const nlohmann::json& array() const;

  /// Optional members with a default when absent or null.
  bool booleanOr(std::string_view key, bool fallback) const;
  std::string stringOr(std::string_view key, std::string fallback) const;

  [[noreturn]] void fail(const std::string& reason) const;

 private:
  const nlohmann::json& m_value;
  std::string m_file;
  std::string m_path;
};

}  // namespace plumbline::tokenizer
