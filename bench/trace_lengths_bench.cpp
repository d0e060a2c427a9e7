// What the Designer computes on the GUI thread for a replay of a whole catalog trace: loading
// the workload the first time (reading and selecting the trace: BM_Build), again after an edit
// that left the trace alone (BM_Load: the schedule is kept, trace_schedule_cache.h), and the
// input and output length histograms of its rows. Also a 300,000-row Mooncake trace (the
// conversation trace repeated end to end), for traces bigger than the catalog's.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "core/workload/length_histogram.h"
#include "core/workload/trace_replay.h"
#include "core/workload/workload_loader.h"

using namespace plumbline::workload;

namespace {

const std::string kTraceDir = std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/traces/";

nlohmann::json wholeTraceReplay(const std::string& file, const char* format) {
  return {{"plumbline", 1},
          {"name", "whole trace"},
          {"load", {{"arrival", "trace"}, {"trace", {{"file", file}, {"format", format}}}}},
          {"requests", {{"prompt", {{"source", "synthetic"}}}}}};
}

/// The conversation trace repeated until it has `rows` rows, each copy after the last; the
/// file is removed at exit.
struct BigMooncakeTrace {
  explicit BigMooncakeTrace(size_t rows) {
    char name[] = "/tmp/plumbline-bench-trace-XXXXXX";
    close(mkstemp(name));
    path = name;
    std::ifstream in(kTraceDir + "mooncake_conversation.jsonl");
    std::vector<std::pair<long long, std::string>> source;  // timestamp, rest of the line
    for (std::string line; std::getline(in, line);)
      source.emplace_back(nlohmann::json::parse(line).at("timestamp").get<long long>(),
                          line.substr(line.find(',')));
    const long long span = source.back().first + 1000;
    std::ofstream out(path);
    for (size_t i = 0; i < rows; ++i) {
      const auto& [ms, rest] = source[i % source.size()];
      out << "{\"timestamp\": " << ms + span * static_cast<long long>(i / source.size()) << rest
          << '\n';
    }
  }
  ~BigMooncakeTrace() { unlink(path.c_str()); }
  std::string path;
};

const std::string& bigMooncakeTrace() {
  static const BigMooncakeTrace trace(300'000);
  return trace.path;
}

void loadAndHistogram(benchmark::State& state, const nlohmann::json& document, bool load) {
  const WorkloadSpec spec = parseWorkload(document);
  for (auto _ : state) {
    if (load) {
      benchmark::DoNotOptimize(parseWorkload(document));
    } else {
      benchmark::DoNotOptimize(traceLengthHistograms(spec));
    }
  }
  state.counters["rows"] = static_cast<double>(traceLengthHistograms(spec)->input.draws);
}

/// Reading and selecting the trace, as the first validation of a workload does.
void BM_Build(benchmark::State& state, const std::string& file, const char* format) {
  const WorkloadSpec spec = parseWorkload(wholeTraceReplay(kTraceDir + file, format));
  for (auto _ : state) benchmark::DoNotOptimize(buildTraceSchedule(*spec.load.trace, "load.trace"));
}

void BM_Load(benchmark::State& state, const std::string& file, const char* format) {
  loadAndHistogram(state, wholeTraceReplay(kTraceDir + file, format), true);
}
void BM_Histograms(benchmark::State& state, const std::string& file, const char* format) {
  loadAndHistogram(state, wholeTraceReplay(kTraceDir + file, format), false);
}
void BM_LoadBig(benchmark::State& state) {
  loadAndHistogram(state, wholeTraceReplay(bigMooncakeTrace(), "mooncake_jsonl"), true);
}
void BM_HistogramsBig(benchmark::State& state) {
  loadAndHistogram(state, wholeTraceReplay(bigMooncakeTrace(), "mooncake_jsonl"), false);
}

BENCHMARK_CAPTURE(BM_Build, azure_conv, std::string("azure_llm_2023_conv.csv"), "azure_csv")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Load, azure_conv, std::string("azure_llm_2023_conv.csv"), "azure_csv")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Histograms, azure_conv, std::string("azure_llm_2023_conv.csv"), "azure_csv")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Build, mooncake_conv, std::string("mooncake_conversation.jsonl"),
                  "mooncake_jsonl")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Load, mooncake_conv, std::string("mooncake_conversation.jsonl"),
                  "mooncake_jsonl")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Histograms, mooncake_conv, std::string("mooncake_conversation.jsonl"),
                  "mooncake_jsonl")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadBig)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HistogramsBig)->Unit(benchmark::kMillisecond);

}  // namespace
