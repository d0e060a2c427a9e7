#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/store/run_reader.h"

namespace plumbline::compare {

/// One run as a comparison sees it: its row with the spec and summary parsed (null when
/// missing or unparsable) and its tags.
struct ComparedRun {
  store::RunRow row;
  nlohmann::json spec;
  nlohmann::json summary;
  std::vector<std::string> tags;

  /// "#3 nightly" — how reports and warnings name the run.
  std::string label() const;
  /// summary[key] as a number, or [key][sub] for percentile objects; null when absent.
  std::optional<double> summaryNumber(const std::string& key, const std::string& sub = {}) const;
  /// spec at a JSON pointer ("/requests/sampling"), or null.
  nlohmann::json specAt(const std::string& pointer) const;

  /// Throws StoreError NotFound naming the id when the run does not exist.
  static ComparedRun load(const store::RunReader& reader, int64_t id);
};

}  // namespace plumbline::compare
