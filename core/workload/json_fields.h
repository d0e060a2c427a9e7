#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace plumbline::workload {

/// Typed, path-aware access to one JSON object of a workload file. Every failure throws
/// WorkloadError naming the exact path ("load.stages[1].rate") and a one-line reason.
class JsonFields {
 public:
  /// Throws unless `value` is an object whose keys are all in `allowed`.
  JsonFields(const nlohmann::json& value, std::string path,
             std::initializer_list<std::string_view> allowed);

  const std::string& path() const { return m_path; }
  std::string childPath(std::string_view key) const;
  bool has(std::string_view key) const;
  /// The raw value, or nullptr when absent.
  const nlohmann::json* find(std::string_view key) const;

  std::optional<double> number(std::string_view key) const;
  std::optional<int64_t> integer(std::string_view key) const;
  std::optional<std::string> string(std::string_view key) const;
  std::optional<bool> boolean(std::string_view key) const;

  /// Throws "missing required key" when absent.
  double requireNumber(std::string_view key) const;
  std::string requireString(std::string_view key) const;
  const nlohmann::json& require(std::string_view key) const;

 private:
  const nlohmann::json& m_value;
  std::string m_path;
};

/// "a number", "a string"... for "expected X, got Y" messages.
std::string describeJsonType(const nlohmann::json& value);

/// Formats a number the way a person wrote it: 5, 2.5, -0.25.
std::string formatNumber(double value);

/// Range checks throwing WorkloadError(path, "must be > 0, got -5") and the like.
void checkPositive(double value, const std::string& path);
void checkNonNegative(double value, const std::string& path);
void checkAtLeast(double value, double lowest, const std::string& path);
void checkAtMost(double value, double highest, const std::string& path);

/// Throws WorkloadError(path, "expected an object, got ...") unless value is an object.
void requireObject(const nlohmann::json& value, const std::string& path);

}  // namespace plumbline::workload
