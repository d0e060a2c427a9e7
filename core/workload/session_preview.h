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

/// Expected requests and tokens per session for a "session" object of the workload format
/// (shapes single, multi_turn, tree, agentic, summarize; see DESIGN.md), with per-request
/// new-text and reply lengths from `input` and `output`. Counts (turns, steps, chunks) are
/// drawn with core's sampler; `draws` of them estimate their first two moments.
/// Throws WorkloadError naming the path under `path` for a field it cannot read.
SessionPreview previewSession(const nlohmann::json& session, const LengthDist& input,
                              const LengthDist& output, const std::string& path = "session",
                              uint32_t draws = 20000);

}  // namespace plumbline::workload
