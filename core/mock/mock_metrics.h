#pragma once
// GET /metrics: Prometheus text exposition of the mock, named like vLLM's metrics where an
// equivalent exists (vllm:num_requests_running, vllm:gpu_cache_usage_perc, ...), so the
// dashboards and scrapers people already use for vLLM work on the mock too.
#include <string>

namespace plumbline::mock {

class EngineScheduler;
class MockStatsBoard;

/// The whole exposition; `engine` null (fixed timing) leaves out the engine's series.
std::string renderMetrics(const MockStatsBoard& board, const EngineScheduler* engine);

}  // namespace plumbline::mock
