#include "core/workload/session_preview.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/util/rng.h"
#include "core/workload/json_fields.h"
#include "core/workload/length_dist_parser.h"
#include "core/workload/planner.h"
#include "core/workload/workload_error.h"

namespace plumbline::workload {
namespace {

constexpr uint64_t kPreviewSeed = 20000;
/// Beyond this a tree's node count is not a workload anyone can run.
constexpr double kMaxTreeNodes = 1e7;

/// First two moments and the median of a count distribution, from core's sampler.
struct CountMoments {
  double mean = 0, meanSquare = 0;
  int median = 1;
};

CountMoments countMoments(const nlohmann::json& value, const std::string& path, uint32_t draws) {
  const LengthDist dist = parseLengthDist(value, path);
  util::Rng rng(kPreviewSeed);
  std::vector<uint32_t> values(draws);
  CountMoments m;
  for (auto& v : values) {
    v = sampleLength(dist, rng);
    m.mean += v;
    m.meanSquare += static_cast<double>(v) * v;
  }
  m.mean /= draws;
  m.meanSquare /= draws;
  std::nth_element(values.begin(), values.begin() + draws / 2, values.end());
  m.median = static_cast<int>(values[draws / 2]);
  return m;
}

double meanLength(const LengthDist& dist, uint32_t draws) {
  util::Rng rng(kPreviewSeed + 1);
  double sum = 0;
  for (uint32_t i = 0; i < draws; ++i) sum += sampleLength(dist, rng);
  return sum / draws;
}

int64_t requirePositiveInt(const JsonFields& fields, std::string_view key) {
  const auto value = fields.integer(key);
  if (!value) throw WorkloadError(fields.childPath(key), "missing required key");
  checkAtLeast(static_cast<double>(*value), 1, fields.childPath(key));
  return *value;
}

}  // namespace

SessionPreview previewSession(const nlohmann::json& session, const LengthDist& input,
                              const LengthDist& output, const std::string& path,
                              uint32_t draws) {
  draws = std::max<uint32_t>(draws, 1);
  requireObject(session, path);
  const double in = meanLength(input, draws);
  const double out = meanLength(output, draws);
  SessionPreview p;
  const auto shapeIt = session.find("shape");
  p.shape = shapeIt != session.end() && shapeIt->is_string() ? shapeIt->get<std::string>()
                                                              : "single";
  if (p.shape == "single") {
    JsonFields fields(session, path, {"shape"});
    p.inputTokens = in;
    p.outputTokens = out;
  } else if (p.shape == "multi_turn") {
    // Turn k (1-based) sends k user messages and k-1 replies: sum over k of k·in + (k-1)·out.
    JsonFields fields(session, path, {"shape", "turns", "think_time_s"});
    const CountMoments t = countMoments(fields.require("turns"), fields.childPath("turns"), draws);
    p.requests = t.mean;
    p.inputTokens = in * (t.meanSquare + t.mean) / 2 + out * (t.meanSquare - t.mean) / 2;
    p.outputTokens = out * t.mean;
    p.typicalCount = t.median;
  } else if (p.shape == "tree") {
    // The root, then `depth` generations of `branching` children; a node at level l carries
    // its l ancestors' prompts and replies.
    JsonFields fields(session, path, {"shape", "branching", "depth"});
    const int64_t b = requirePositiveInt(fields, "branching");
    const int64_t d = requirePositiveInt(fields, "depth");
    double nodes = 0, context = 0, level = 1;
    for (int64_t l = 0; l <= d; ++l) {
      nodes += level;
      context += level * (static_cast<double>(l) * (in + out) + in);
      if (nodes > kMaxTreeNodes)
        throw WorkloadError(path, "branching^depth gives more than 1e7 requests per session");
      level *= static_cast<double>(b);
    }
    p.requests = nodes;
    p.inputTokens = context;
    p.outputTokens = nodes * out;
    p.typicalCount = static_cast<int>(d);
    p.branching = static_cast<int>(b);
  } else if (p.shape == "agentic") {
    // Step k (1-based) sends the task plus k-1 (reply + tool result) pairs.
    JsonFields fields(session, path, {"shape", "steps", "tool_latency_s", "tool_result_tokens"});
    const CountMoments s = countMoments(fields.require("steps"), fields.childPath("steps"), draws);
    const std::string toolPath = fields.childPath("tool_result_tokens");
    const double tool = meanLength(parseLengthDist(fields.require("tool_result_tokens"), toolPath),
                                   draws);
    p.requests = s.mean;
    p.inputTokens = in * s.mean + (out + tool) * (s.meanSquare - s.mean) / 2;
    p.outputTokens = out * s.mean;
    p.typicalCount = s.median;
  } else if (p.shape == "summarize") {
    // Each chunk is summarized alone, then one reduce request reads every partial summary.
    JsonFields fields(session, path, {"shape", "chunks"});
    const CountMoments c =
        countMoments(fields.require("chunks"), fields.childPath("chunks"), draws);
    p.requests = c.mean + 1;
    p.inputTokens = in * c.mean + out * c.mean;
    p.outputTokens = out * (c.mean + 1);
    p.typicalCount = c.median;
  } else {
    throw WorkloadError(path + ".shape",
                        "unknown session shape '" + p.shape +
                            "' (expected single, multi_turn, tree, agentic or summarize)");
  }
  return p;
}

}  // namespace plumbline::workload
