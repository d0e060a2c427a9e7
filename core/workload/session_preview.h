#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// What one session of a shape costs on average, for the designer's picture and the plan.
/// Input tokens count what is sent (context included), so a multi-turn session's input
/// grows with every turn.
struct SessionPreview {
  std::string shape = "single";
  double requests = 1;      ///< expected requests per session
  double inputTokens = 0;   ///< expected prompt tokens sent per session, context included
  double outputTokens = 0;  ///< expected reply tokens per session
  /// The typical (median) count the picture draws: turns, steps or chunks; the depth for a tree.
  int typicalCount = 1;
  int branching = 0;  ///< tree only
};

/// The preview of a loaded workload: the very averages `plumbline plan` prints
/// (averageSessions over the planner's own sessions, seed, dataset and trace included).
SessionPreview previewSession(const WorkloadSpec& spec);

/// The preview from a "session" object alone, while the rest of a workload does not load:
/// validated by the loader's own session parser (an error names the path under `path`),
/// and averaged the same way over sessions drawn with per-request new-text and reply
/// lengths from `input` and `output` (seed 1, no dataset, no shared prefix).
SessionPreview previewSession(const nlohmann::json& session, const LengthDist& input,
                              const LengthDist& output, const std::string& path = "session");

}  // namespace plumbline::workload
