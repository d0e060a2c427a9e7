#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace plumbline::store {

/// One row of `runs` as a reader sees it. Optional fields are NULL until the run finishes.
struct RunRow {
  int64_t id = 0;
  std::string name;
  std::string createdAt;  ///< ISO-8601 UTC
  int64_t t0WallNs = 0;
  std::string workloadName;
  std::string specJson;
  std::string targetUrl;
  std::string api;
  std::string model;
  std::string toolVersion;
  std::string host;
  int64_t cores = 0;
  int64_t workers = 0;
  int64_t coordinatorPid = 0;
  /// Effective status: a 'running' run whose coordinator is gone (or on another host) reads
  /// as 'incomplete'. storedStatus is the column as written.
  std::string status;
  std::string storedStatus;
  std::optional<std::string> endedAt;
  std::optional<std::string> verdict;
  std::optional<std::string> verdictReasonsJson;
  std::optional<std::string> summaryJson;
  std::optional<int64_t> planned, sent, completed, errors;
  std::optional<double> requestedRps, achievedRps, ttftP99Ms, outputTokensPerS, durationS;
  std::optional<std::string> notes;
};

}  // namespace plumbline::store
