#pragma once
// Validation of the "session" object and of requests.prompt.shared_prefix.
//
//   {"shape": "single"}
//   {"shape": "multi_turn", "turns": DIST, "think_time_s": SECONDS_DIST}
//   {"shape": "tree", "branching": INT, "depth": INT}
//   {"shape": "agentic", "steps": DIST, "tool_latency_s": SECONDS_DIST, "tool_result_tokens": DIST}
//   {"shape": "summarize", "chunks": DIST}
// A key that belongs to another shape is an error naming it.
#include <string>

#include <nlohmann/json.hpp>

#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// At most this many turns, steps or chunks per session (a larger explicit max is an error;
/// a distribution without one is clamped here).
inline constexpr int64_t kMaxSessionCount = 1000;
inline constexpr int64_t kMaxBranching = 16;
inline constexpr int64_t kMaxTreeDepth = 8;
/// At most this many requests in one tree (branching^depth grows fast).
inline constexpr int64_t kMaxTreeNodes = 4096;

SessionSpec parseSession(const nlohmann::json& value, const std::string& path);

/// A seconds distribution: {"dist": "exponential", "mean": 2.0}, fixed (value), uniform
/// (min, max), normal (mean, stddev), lognormal (median, sigma); optional min/max clamps >= 0.
SecondsDist parseSecondsDist(const nlohmann::json& value, const std::string& path);

/// {"groups": N, "tokens": N}
SharedPrefixSpec parseSharedPrefix(const nlohmann::json& value, const std::string& path);

/// Refuses a session shape whose later requests would have no lengths to draw: with
/// load.trace.lengths "trace" a row is one request (only "single"); with prompt source
/// "sharegpt" only "single" and "multi_turn" (the dataset's turns) have real lengths.
/// Throws WorkloadError at "session.shape".
void checkSessionLengthSource(const WorkloadSpec& spec);

/// Requests in a tree: the root, then `depth` generations of `branching` children per node
/// (the designer's session preview counts the same way).
int64_t treeNodes(int64_t branching, int64_t depth);

}  // namespace plumbline::workload
