#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace plumbline::store {

/// What is known about a run when it starts: becomes its row in `runs`.
struct RunInfo {
  std::string name;
  std::string workloadName;
  nlohmann::json spec;     ///< the workload as sent (after --rate/--duration overrides)
  std::string targetUrl;   ///< never with credentials
  std::string api;
  std::string model;
  std::string toolVersion;
  std::string host;        ///< empty: this machine's hostname
  int64_t cores = 0;
  int64_t workers = 0;
  /// Wall-clock time of the run's t0, ns since the Unix epoch. A run starts with the time it
  /// was created here; RunWriter::setT0Wall puts t0's own once the coordinator has fixed it.
  int64_t t0WallNs = 0;
};

}  // namespace plumbline::store
