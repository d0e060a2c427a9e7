#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "core/metrics/latency_histogram.h"

using plumbline::metrics::LatencyHistogram;

namespace {

std::vector<int64_t> latencies(size_t n) {
  std::mt19937_64 rng(1);
  std::lognormal_distribution<double> dist(17.0, 1.5);  // median ~24 ms
  std::vector<int64_t> v(n);
  for (auto& x : v) x = static_cast<int64_t>(dist(rng));
  return v;
}

LatencyHistogram filled(size_t n) {
  LatencyHistogram h;
  for (auto v : latencies(n)) h.record(v);
  return h;
}

void BM_Record(benchmark::State& state) {
  auto values = latencies(4096);
  LatencyHistogram h;
  size_t i = 0;
  for (auto _ : state) {
    h.record(values[i++ & 4095]);
  }
  benchmark::DoNotOptimize(h.count());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Record);

void BM_Percentile(benchmark::State& state) {
  LatencyHistogram h = filled(100000);
  for (auto _ : state) benchmark::DoNotOptimize(h.percentile(0.99));
}
BENCHMARK(BM_Percentile);

void BM_Merge(benchmark::State& state) {
  LatencyHistogram a = filled(100000), b = filled(1000);
  for (auto _ : state) {
    a.merge(b);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_Merge);

void BM_SerializeRoundTrip(benchmark::State& state) {
  LatencyHistogram h = filled(100000);
  for (auto _ : state) benchmark::DoNotOptimize(LatencyHistogram::deserialize(h.serialize()));
}
BENCHMARK(BM_SerializeRoundTrip);

}  // namespace
