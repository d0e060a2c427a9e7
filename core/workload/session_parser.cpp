#include "core/workload/session_parser.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/workload/json_fields.h"
#include "core/workload/length_dist_parser.h"
#include "core/workload/load_limits.h"
#include "core/workload/workload_error.h"

namespace plumbline::workload {
namespace {

struct ShapeKeys {
  const char* name;
  SessionShape kind;
  std::initializer_list<std::string_view> keys;
};

const ShapeKeys kShapes[] = {
    {"single", SessionShape::Single, {"shape"}},
    {"multi_turn", SessionShape::MultiTurn, {"shape", "turns", "think_time_s"}},
    {"tree", SessionShape::Tree, {"shape", "branching", "depth"}},
    {"agentic", SessionShape::Agentic, {"shape", "steps", "tool_latency_s", "tool_result_tokens"}},
    {"summarize", SessionShape::Summarize, {"shape", "chunks"}},
};

/// A count whose centre lies above kMaxSessionCount would be cut to it, silently: refused as a
/// fixed value above it is (QA: a median of 5000 turns planned 1000 per session).
void checkCountCentre(const LengthDist& dist, const std::string& path) {
  const bool exponential = dist.kind == DistKind::Exponential;
  const char* key = dist.kind == DistKind::Lognormal ? "median" : "mean";
  if (dist.kind != DistKind::Normal && dist.kind != DistKind::Lognormal && !exponential) return;
  const double median = exponential ? dist.p1 * std::log(2.0) : dist.p1;
  if (median <= static_cast<double>(kMaxSessionCount)) return;
  const std::string subject = exponential ? formatNumber(dist.p1) + " puts the median (" +
                                                formatNumber(std::round(median * 10) / 10) + ")"
                                          : formatNumber(dist.p1) + " is";
  throw WorkloadError(path + "." + key, subject + " above " + std::to_string(kMaxSessionCount) +
                                            ", the most a count may be; every draw above it "
                                            "would be cut to it");
}

/// A count distribution (turns, steps, chunks): a length distribution capped at kMaxSessionCount.
LengthDist parseCount(const JsonFields& fields, std::string_view key) {
  const std::string path = fields.childPath(key);
  LengthDist dist = parseLengthDist(fields.require(key), path);
  const auto& source = fields.require(key);
  if (dist.kind == DistKind::Fixed) checkAtMost(dist.p1, kMaxSessionCount, path + ".value");
  if (source.contains("max") || dist.kind == DistKind::Uniform)
    checkAtMost(static_cast<double>(dist.clampMax), kMaxSessionCount, path + ".max");
  checkCountCentre(dist, path);
  dist.clampMax = std::min<int64_t>(dist.clampMax, kMaxSessionCount);
  return dist;
}

int64_t boundedInt(const JsonFields& fields, std::string_view key, int64_t lowest, int64_t highest) {
  const auto* raw = fields.find(key);
  if (raw == nullptr) throw WorkloadError(fields.childPath(key), "missing required key");
  const auto value = fields.integer(key);
  checkAtLeast(static_cast<double>(*value), static_cast<double>(lowest), fields.childPath(key));
  checkAtMost(static_cast<double>(*value), static_cast<double>(highest), fields.childPath(key));
  return *value;
}

[[noreturn]] void wrongShapeKey(const nlohmann::json& value, const std::string& path,
                                const ShapeKeys& shape) {
  for (const auto& item : value.items()) {
    const bool allowed = std::find(shape.keys.begin(), shape.keys.end(), item.key()) != shape.keys.end();
    if (allowed) continue;
    for (const auto& other : kShapes) {
      if (std::find(other.keys.begin(), other.keys.end(), item.key()) != other.keys.end())
        throw WorkloadError(path + "." + item.key(), "only allowed with shape \"" +
                                                         std::string(other.name) + "\", not \"" +
                                                         shape.name + "\"");
    }
  }
  JsonFields strict(value, path, shape.keys);  // throws naming the unknown key
  throw WorkloadError(path, "unexpected key");
}

bool hasOnly(const nlohmann::json& value, const ShapeKeys& shape) {
  for (const auto& item : value.items())
    if (std::find(shape.keys.begin(), shape.keys.end(), item.key()) == shape.keys.end()) return false;
  return true;
}

/// A delay past the longest schedule is a slip, not a plan (QA: a think time of 1e6 s kept a
/// 2 s run open for 11.6 days, and 1e12 was cut silently to 1e9).
void checkSecondsLimit(double seconds, const std::string& path) {
  if (seconds > kMaxSeconds)
    throw WorkloadError(path, "at most " + formatNumber(kMaxSeconds) +
                                  " s (the longest schedule), got " + formatNumber(seconds));
}

}  // namespace

int64_t treeNodes(int64_t branching, int64_t depth) {
  int64_t nodes = 0, level = 1;
  for (int64_t d = 0; d <= depth; ++d) {
    nodes += level;
    level *= branching;
  }
  return nodes;
}

SecondsDist parseSecondsDist(const nlohmann::json& value, const std::string& path) {
  requireObject(value, path);
  const auto it = value.find("dist");
  if (it == value.end()) throw WorkloadError(path + ".dist", "missing required key");
  if (!it->is_string())
    throw WorkloadError(path + ".dist", "expected a string, got " + describeJsonType(*it));
  const std::string name = it->get<std::string>();
  SecondsDist dist;
  dist.source = value;
  auto clamps = [&](const JsonFields& fields) {
    auto bound = [&](const char* key, double& out) {
      const auto given = fields.number(key);
      if (!given) return;
      checkNonNegative(*given, fields.childPath(key));
      checkSecondsLimit(*given, fields.childPath(key));
      out = *given;
    };
    bound("min", dist.clampMin);
    bound("max", dist.clampMax);
    if (dist.clampMin > dist.clampMax)
      throw WorkloadError(fields.childPath("min"), "min (" + formatNumber(dist.clampMin) + ") > max (" +
                                                       formatNumber(dist.clampMax) + ")");
  };
  if (name == "fixed") {
    JsonFields fields(value, path, {"dist", "value", "min", "max"});
    dist.kind = DistKind::Fixed;
    dist.p1 = fields.requireNumber("value");
    checkNonNegative(dist.p1, fields.childPath("value"));
    checkSecondsLimit(dist.p1, fields.childPath("value"));
    clamps(fields);
    checkCenterWithinClamps(dist.p1, fields, "value", dist.clampMin, dist.clampMax);
  } else if (name == "uniform") {
    JsonFields fields(value, path, {"dist", "min", "max"});
    dist.kind = DistKind::Uniform;
    fields.requireNumber("min");
    fields.requireNumber("max");
    clamps(fields);
    dist.p1 = dist.clampMin;
    dist.p2 = dist.clampMax;
  } else if (name == "normal" || name == "lognormal") {
    const bool normal = name == "normal";
    const char* center = normal ? "mean" : "median";
    const char* spread = normal ? "stddev" : "sigma";
    JsonFields fields(value, path, {"dist", center, spread, "min", "max"});
    dist.kind = normal ? DistKind::Normal : DistKind::Lognormal;
    dist.p1 = fields.requireNumber(center);
    dist.p2 = fields.requireNumber(spread);
    if (normal) checkNonNegative(dist.p1, fields.childPath(center));
    else checkPositive(dist.p1, fields.childPath(center));
    checkNonNegative(dist.p2, fields.childPath(spread));
    checkSecondsLimit(dist.p1, fields.childPath(center));
    clamps(fields);
    checkCenterWithinClamps(dist.p1, fields, center, dist.clampMin, dist.clampMax);
  } else if (name == "exponential") {
    JsonFields fields(value, path, {"dist", "mean", "min", "max"});
    dist.kind = DistKind::Exponential;
    dist.p1 = fields.requireNumber("mean");
    checkPositive(dist.p1, fields.childPath("mean"));
    checkSecondsLimit(dist.p1, fields.childPath("mean"));
    clamps(fields);
    checkCenterWithinClamps(dist.p1, fields, "mean", dist.clampMin, dist.clampMax,
                            /*exponential=*/true);
  } else {
    throw WorkloadError(path + ".dist", "unknown distribution '" + name +
                                            "' (expected fixed, uniform, normal, lognormal or exponential)");
  }
  dist.clampMax = std::min(dist.clampMax, kMaxSeconds);  // a spread's tail stops at the limit too
  return dist;
}

SharedPrefixSpec parseSharedPrefix(const nlohmann::json& value, const std::string& path) {
  JsonFields fields(value, path, {"groups", "tokens"});
  SharedPrefixSpec prefix;
  prefix.groups = static_cast<uint32_t>(boundedInt(fields, "groups", 1, 1'000'000));
  prefix.tokens = static_cast<uint32_t>(boundedInt(fields, "tokens", 1, 1'000'000));
  return prefix;
}

void checkSessionLengthSource(const WorkloadSpec& spec) {
  const SessionShape shape = spec.session.kind;
  if (shape == SessionShape::Single) return;
  const std::string name = "\"" + spec.session.shape + "\"";
  if (spec.load.trace && spec.load.trace->lengthsFromTrace)
    throw WorkloadError("session.shape",
                        "shape " + name + " needs lengths for its later requests, but with load.trace.lengths "
                        "\"trace\" each row is one request: use shape \"single\", or lengths \"workload\" with "
                        "requests.input_tokens and output_tokens");
  if (spec.requests.prompt.sharegpt && shape != SessionShape::MultiTurn)
    throw WorkloadError("session.shape",
                        "shape " + name + " needs requests.input_tokens for its later requests, which a "
                        "'sharegpt' prompt source does not have: use \"single\" or \"multi_turn\" (the "
                        "dataset's own turns)");
}

SessionSpec parseSession(const nlohmann::json& value, const std::string& path) {
  requireObject(value, path);
  SessionSpec session;
  const ShapeKeys* shape = &kShapes[0];
  if (const auto it = value.find("shape"); it != value.end()) {
    if (!it->is_string())
      throw WorkloadError(path + ".shape", "expected a string, got " + describeJsonType(*it));
    const std::string name = it->get<std::string>();
    shape = nullptr;
    for (const auto& s : kShapes)
      if (name == s.name) shape = &s;
    if (shape == nullptr)
      throw WorkloadError(path + ".shape", "unknown session shape '" + name +
                                               "' (expected single, multi_turn, tree, agentic or summarize)");
  }
  if (!hasOnly(value, *shape)) wrongShapeKey(value, path, *shape);
  JsonFields fields(value, path, shape->keys);
  session.shape = shape->name;
  session.kind = shape->kind;
  switch (shape->kind) {
    case SessionShape::Single: break;
    case SessionShape::MultiTurn:
      session.count = parseCount(fields, "turns");
      session.delay = parseSecondsDist(fields.require("think_time_s"), fields.childPath("think_time_s"));
      break;
    case SessionShape::Tree: {
      session.branching = static_cast<uint32_t>(boundedInt(fields, "branching", 1, kMaxBranching));
      session.depth = static_cast<uint32_t>(boundedInt(fields, "depth", 1, kMaxTreeDepth));
      const int64_t nodes = treeNodes(session.branching, session.depth);
      if (nodes > kMaxTreeNodes)
        throw WorkloadError(fields.childPath("depth"), "a tree of branching " + std::to_string(session.branching) +
                                                           " and depth " + std::to_string(session.depth) + " has " +
                                                           std::to_string(nodes) + " requests; at most " +
                                                           std::to_string(kMaxTreeNodes) + " are supported");
      break;
    }
    case SessionShape::Agentic:
      session.count = parseCount(fields, "steps");
      session.delay = parseSecondsDist(fields.require("tool_latency_s"), fields.childPath("tool_latency_s"));
      session.toolResultTokens =
          parseLengthDist(fields.require("tool_result_tokens"), fields.childPath("tool_result_tokens"));
      break;
    case SessionShape::Summarize:
      session.count = parseCount(fields, "chunks");
      break;
  }
  return session;
}

}  // namespace plumbline::workload
