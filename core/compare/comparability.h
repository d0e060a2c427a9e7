#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/compare/compared_run.h"

namespace plumbline::compare {

/// Why two runs' figures may not be comparable. Names are stable (JSON output, tests).
enum class WarningKind {
  Sampling,          ///< temperature, top_p, ... differ: the temperature trap
  Lengths,           ///< input or output token-length distributions differ
  Dataset,           ///< prompt source, dataset, trace or session shape differ
  TokenCountSource,  ///< one counted tokens from server usage, another on the client
  HarnessLimited,    ///< a run's load was not what was asked for
  Incomplete,        ///< a run did not finish (no summary, or stopped early)
  ToolVersion,       ///< recorded by different Plumbline versions
  Target,            ///< different endpoint, API or simulator settings
  Model,             ///< different model names
  HttpClient,        ///< timed by different HTTP clients (arrival stamps or read times)
  TokensPerEvent,    ///< streamed events carried different numbers of tokens: gaps per event differ
};
std::string_view warningKindName(WarningKind kind);

struct ComparabilityWarning {
  WarningKind kind;
  std::string message;           ///< one line, names the runs and the differing values
  std::vector<int64_t> runIds;   ///< the runs concerned
};

/// Every reason the runs' figures may not be comparable, most consequential first.
std::vector<ComparabilityWarning> comparabilityWarnings(const std::vector<ComparedRun>& runs);

}  // namespace plumbline::compare
