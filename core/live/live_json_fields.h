#pragma once
// Typed, named access to the fields of one live-protocol JSON payload.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace plumbline::live {

/// Reads the fields of a frame's JSON object; every failure throws LiveProtocolError
/// "<frame> frame: field \"<name>\" <problem>". Unknown extra fields are ignored, so a newer
/// writer may add fields without breaking older readers.
class LiveJsonFields {
 public:
  /// Throws unless payload is a JSON object.
  LiveJsonFields(const nlohmann::json& payload, std::string_view frameName);

  /// Whether the field is there at all (a field added after the protocol's first version).
  bool has(const char* name) const;
  int64_t i64(const char* name) const;
  uint64_t u64(const char* name) const;
  double f64(const char* name) const;
  /// The number, or `absent` when the field is missing (added after the protocol's first
  /// version); a field that is there but not a number still fails.
  double f64Or(const char* name, double absent) const;
  /// The number, or none when the field is null (a window without a sample of a latency).
  std::optional<double> f64OrNull(const char* name) const;
  /// As f64OrNull, and none as well when the field is missing (added after the first version).
  std::optional<double> f64OrNullOrAbsent(const char* name) const;
  std::optional<int64_t> i64OrNullOrAbsent(const char* name) const;
  bool boolean(const char* name) const;
  std::string str(const char* name) const;
  /// One of the allowed strings.
  std::string oneOf(const char* name, const std::vector<std::string_view>& allowed) const;
  const nlohmann::json& object(const char* name) const;
  /// Any JSON value, null included (e.g. the workload spec).
  const nlohmann::json& any(const char* name) const;
  std::map<std::string, uint64_t> countsByName(const char* name) const;
  std::vector<std::string> strings(const char* name) const;
  /// The fields of a nested object, named "<frame> frame: field \"a.b\"" in errors.
  LiveJsonFields nested(const char* name) const;

 private:
  LiveJsonFields(const nlohmann::json& payload, std::string frameName, std::string prefix);
  const nlohmann::json& field(const char* name) const;
  [[noreturn]] void fail(const char* name, const std::string& problem) const;

  const nlohmann::json& m_payload;
  std::string m_frame;
  std::string m_prefix;  ///< "a." for nested objects
};

}  // namespace plumbline::live
