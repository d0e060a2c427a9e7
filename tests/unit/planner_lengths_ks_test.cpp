// Lengths as the planner hands them out (whole tokens, per session id) match their
// distributions: each whole count k, spread uniformly over [k − 0.5, k + 0.5) with a fixed
// seed, is compared with the continuous CDF (the binning moves it by far less than the
// critical value for these wide distributions).
#include <algorithm>
#include <cmath>
#include <functional>
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>

#include "core/util/rng.h"
#include "core/workload/planner.h"
#include "ks_test.h"
#include "workload_test_support.h"

using namespace plumbline::workload;
using plumbline::testing::ksCritical;
using plumbline::testing::ksStatistic;
using plumbline::testing::normalCdf;
using plumbline::testing::validDocument;
using json = nlohmann::json;

namespace {

std::vector<double> plannedLengths(const json& inputDist, bool output) {
  auto document = validDocument();
  document["load"] = {{"arrival", "poisson"}, {"seed", 99},
                      {"stages", {{{"rate", 1000}, {"duration_s", 20}}}}};
  document["requests"][output ? "output_tokens" : "input_tokens"] = inputDist;
  const auto spec = parseWorkload(document);
  Planner planner(spec);
  plumbline::util::Rng jitter(5);
  std::vector<double> out;
  SessionPlan s;
  while (planner.next(s))
    out.push_back((output ? s.outputTokens : s.inputTokens) + jitter.uniform01() - 0.5);
  return out;
}

void expectMatches(const char* name, const std::vector<double>& sample,
                   const std::function<double(double)>& cdf) {
  const double d = ksStatistic(sample, cdf);
  std::printf("[ planned %s ] n=%zu KS D=%.5f critical(0.001)=%.5f\n", name, sample.size(), d,
              ksCritical(sample.size()));
  EXPECT_LT(d, ksCritical(sample.size())) << name;
}

}  // namespace

TEST(PlannerLengthsKs, LognormalNormalExponentialUniformMatch) {
  expectMatches("lognormal(512, 0.7)",
                plannedLengths({{"dist", "lognormal"}, {"median", 512}, {"sigma", 0.7}}, false),
                [](double x) { return x <= 0 ? 0.0 : normalCdf(std::log(x), std::log(512), 0.7); });
  expectMatches("normal(256, 64)",
                plannedLengths({{"dist", "normal"}, {"mean", 256}, {"stddev", 64}}, true),
                [](double x) { return normalCdf(x, 256, 64); });
  expectMatches("exponential(128)",
                plannedLengths({{"dist", "exponential"}, {"mean", 128}, {"max", 100000}}, true),
                [](double x) { return x <= 0.5 ? 0.0 : 1.0 - std::exp(-x / 128); });
  expectMatches("uniform(10, 1000)",
                plannedLengths({{"dist", "uniform"}, {"min", 10}, {"max", 1000}}, false),
                [](double x) { return std::clamp((x - 9.5) / 991.0, 0.0, 1.0); });
}
