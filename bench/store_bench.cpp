// Request rows per second through RunWriter into a fresh database (target: >= 300k/s).
#include <benchmark/benchmark.h>

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/metrics/request_record.h"
#include "core/store/run_writer.h"

namespace {

using plumbline::metrics::RequestRecord;

std::vector<RequestRecord> makeBatch(size_t n) {
  std::vector<RequestRecord> batch(n);
  for (size_t i = 0; i < n; ++i) {
    auto& r = batch[i];
    r.sessionId = i;
    r.plannedNs = static_cast<int64_t>(i) * 1000;
    r.sendNs = r.plannedNs + 20;
    r.firstByteNs = r.sendNs + 300'000;
    r.firstTokenNs = r.firstByteNs + 1000;
    r.lastTokenNs = r.firstTokenNs + 5'000'000;
    r.endNs = r.lastTokenNs + 1000;
    r.inputTokensServer = r.inputTokensClient = 512;
    r.outputTokensServer = r.outputTokensClient = 128;
    r.chunks = 128;
    r.httpStatus = 200;
  }
  return batch;
}

// Writes `rows` requests in batches of range(0) and finishes: the time includes the last commit.
void BM_RunWriterRequests(benchmark::State& state) {
  const auto batchSize = static_cast<size_t>(state.range(0));
  constexpr size_t kRows = 1'000'000;
  const auto batch = makeBatch(batchSize);
  std::string tmpl = (std::filesystem::temp_directory_path() / "plumbline-bench-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) {
    state.SkipWithError("mkdtemp failed");
    return;
  }
  int round = 0;
  for (auto _ : state) {
    plumbline::store::RunWriter writer(tmpl + "/runs" + std::to_string(round++) + ".db", {});
    for (size_t done = 0; done < kRows; done += batchSize) writer.addRequests(batch);
    writer.finish({}, {}, true);
  }
  state.counters["rows/s"] = benchmark::Counter(
      static_cast<double>(kRows) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
  std::filesystem::remove_all(tmpl);
}

}  // namespace

BENCHMARK(BM_RunWriterRequests)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->UseRealTime()
    ->Iterations(3);
