#include "core/workload/length_dist_parser.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "core/workload/json_fields.h"
#include "core/workload/workload_error.h"

namespace plumbline::workload {
namespace {

constexpr int64_t kMaxTokens = std::numeric_limits<uint32_t>::max();

std::optional<int64_t> readClamp(const JsonFields& fields, std::string_view key) {
  auto value = fields.integer(key);
  if (value) {
    checkAtLeast(static_cast<double>(*value), 1, fields.childPath(key));
    checkAtMost(static_cast<double>(*value), static_cast<double>(kMaxTokens),
                fields.childPath(key));
  }
  return value;
}

void readClamps(const JsonFields& fields, LengthDist& dist) {
  const auto min = readClamp(fields, "min");
  const auto max = readClamp(fields, "max");
  if (min) dist.clampMin = *min;
  if (max) dist.clampMax = *max;
  if (dist.clampMin > dist.clampMax) {
    throw WorkloadError(fields.childPath("min"), "min (" + std::to_string(dist.clampMin) +
                                                     ") > max (" + std::to_string(dist.clampMax) +
                                                     ")");
  }
}

double clampMin(const LengthDist& dist) { return static_cast<double>(dist.clampMin); }
double clampMax(const LengthDist& dist) { return static_cast<double>(dist.clampMax); }

}  // namespace

void checkCenterWithinClamps(double center, const JsonFields& fields, std::string_view key,
                             double clampMin, double clampMax, bool exponential) {
  const std::string path = fields.childPath(key);
  const double median = exponential ? center * std::log(2.0) : center;
  const std::string subject = exponential ? formatNumber(center) + " puts the median (" +
                                                formatNumber(std::round(median * 10) / 10) + ")"
                                          : formatNumber(center) + " is";
  if (median > clampMax) {
    throw WorkloadError(path,
                        subject + " above max " + formatNumber(clampMax) +
                            (fields.has("max") ? "" : " (the default: set 'max' to allow more)") +
                            "; every draw above max is cut to it");
  }
  if (median < clampMin) {
    throw WorkloadError(path, subject + " below min " + formatNumber(clampMin) +
                                  (fields.has("min") ? "" : " (the default)") +
                                  "; every draw below min is raised to it");
  }
}

const char* distKindName(DistKind kind) {
  switch (kind) {
    case DistKind::Fixed:
      return "fixed";
    case DistKind::Uniform:
      return "uniform";
    case DistKind::Normal:
      return "normal";
    case DistKind::Lognormal:
      return "lognormal";
    case DistKind::Exponential:
      return "exponential";
  }
  return "?";
}

LengthDist parseLengthDist(const nlohmann::json& value, const std::string& path) {
  requireObject(value, path);
  const std::string distPath = path + ".dist";
  const auto it = value.find("dist");
  if (it == value.end()) throw WorkloadError(distPath, "missing required key");
  if (!it->is_string())
    throw WorkloadError(distPath, "expected a string, got " + describeJsonType(*it));
  const std::string name = it->get<std::string>();

  LengthDist dist;
  dist.source = value;
  if (name == "fixed") {
    JsonFields fields(value, path, {"dist", "value", "min", "max"});
    dist.kind = DistKind::Fixed;
    dist.p1 = fields.requireNumber("value");
    checkAtLeast(dist.p1, 1, fields.childPath("value"));
    if (dist.p1 != std::floor(dist.p1)) {
      char shown[32];  // all the digits: 128.0000000000001 is not 128
      std::snprintf(shown, sizeof shown, "%.17g", dist.p1);
      throw WorkloadError(fields.childPath("value"),
                          std::string("expected a whole number of tokens, got ") + shown);
    }
    readClamps(fields, dist);
    checkCenterWithinClamps(dist.p1, fields, "value", clampMin(dist), clampMax(dist));
  } else if (name == "uniform") {
    JsonFields fields(value, path, {"dist", "min", "max"});
    dist.kind = DistKind::Uniform;
    fields.require("min");
    fields.require("max");
    readClamps(fields, dist);  // for uniform the clamps are the parameters
    dist.p1 = static_cast<double>(dist.clampMin);
    dist.p2 = static_cast<double>(dist.clampMax);
  } else if (name == "normal") {
    JsonFields fields(value, path, {"dist", "mean", "stddev", "min", "max"});
    dist.kind = DistKind::Normal;
    dist.p1 = fields.requireNumber("mean");
    dist.p2 = fields.requireNumber("stddev");
    checkPositive(dist.p1, fields.childPath("mean"));
    checkNonNegative(dist.p2, fields.childPath("stddev"));
    readClamps(fields, dist);
    checkCenterWithinClamps(dist.p1, fields, "mean", clampMin(dist), clampMax(dist));
  } else if (name == "lognormal") {
    JsonFields fields(value, path, {"dist", "median", "sigma", "min", "max"});
    dist.kind = DistKind::Lognormal;
    dist.p1 = fields.requireNumber("median");
    dist.p2 = fields.requireNumber("sigma");
    checkPositive(dist.p1, fields.childPath("median"));
    checkNonNegative(dist.p2, fields.childPath("sigma"));
    readClamps(fields, dist);
    checkCenterWithinClamps(dist.p1, fields, "median", clampMin(dist), clampMax(dist));
  } else if (name == "exponential") {
    JsonFields fields(value, path, {"dist", "mean", "min", "max"});
    dist.kind = DistKind::Exponential;
    dist.p1 = fields.requireNumber("mean");
    checkPositive(dist.p1, fields.childPath("mean"));
    readClamps(fields, dist);
    checkCenterWithinClamps(dist.p1, fields, "mean", clampMin(dist), clampMax(dist),
                            /*exponential=*/true);
  } else if (name == "empirical") {
    throw WorkloadError(distPath, "distribution 'empirical' is not supported yet");
  } else {
    throw WorkloadError(distPath, "unknown distribution '" + name +
                                      "' (expected fixed, uniform, normal, lognormal or "
                                      "exponential)");
  }
  return dist;
}

}  // namespace plumbline::workload
