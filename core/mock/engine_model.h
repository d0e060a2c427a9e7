#pragma once
// The simulated serving engine: continuous batching over a KV cache, chunked prefill,
// prefix caching, preemption by recompute, speculative decoding. Pure and clock-free: the
// caller advances time by the duration each step() returns, so tests drive it step by step.
#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/mock/engine_params.h"
#include "core/mock/kv_cache.h"
#include "core/util/rng.h"

namespace plumbline::mock {

/// A request handed to the engine.
struct SequenceSpec {
  uint64_t id = 0;
  int64_t promptTokens = 1;
  std::vector<uint64_t> blockHashes;  ///< chained hashes of the prompt's full blocks
  int64_t outputTokens = 1;           ///< tokens to generate (max_tokens / natural length)
  double temperature = 1.0;
};

/// Tokens one sequence produced in one step (emitted when the step ends).
struct TokenEmission {
  uint64_t id = 0;
  int64_t tokens = 0;
  bool finished = false;
};

struct StepOutcome {
  int64_t durationNs = 0;  ///< 0 when there was nothing to do
  std::vector<TokenEmission> emissions;
};

/// Cumulative counters and current gauges (vLLM's names in /metrics).
struct EngineCounters {
  int64_t running = 0;
  int64_t waiting = 0;
  double kvUsage = 0.0;             ///< used blocks / total blocks
  int64_t promptTokens = 0;         ///< prompt tokens of admitted requests
  int64_t generationTokens = 0;
  int64_t prefixQueriedTokens = 0;  ///< prompt tokens looked up in the prefix cache
  int64_t prefixHitTokens = 0;      ///< of which found cached
  int64_t preemptions = 0;
  int64_t steps = 0;
};

class EngineModel {
 public:
  explicit EngineModel(const EngineParams& params);
  ~EngineModel();
  EngineModel(const EngineModel&) = delete;
  EngineModel& operator=(const EngineModel&) = delete;

  /// Whether prompt + output can ever fit the KV cache (else the request must be refused).
  bool fits(int64_t promptTokens, int64_t outputTokens) const;
  /// Queues a request (FCFS). The caller checks fits() first.
  void submit(SequenceSpec spec);
  /// Forgets a request wherever it is (the client went away); unknown ids are ignored.
  void cancel(uint64_t id);
  /// Schedules and prices one step; its emissions are due when it ends.
  StepOutcome step();
  bool idle() const { return m_running.empty() && m_waiting.empty(); }
  const EngineCounters& counters() const { return m_counters; }
  const EngineParams& params() const { return m_params; }

 private:
  struct Sequence;
  struct StepWork {
    int64_t budget = 0;
    int64_t decodingSeqs = 0;
    int64_t decodeContext = 0;
    int64_t prefillTokens = 0;
  };

  void decodeRunning(StepWork& work, std::vector<TokenEmission>& out);
  void prefillRunning(StepWork& work, std::vector<TokenEmission>& out);
  void admitWaiting(StepWork& work, std::vector<TokenEmission>& out);
  bool admit(Sequence& seq);
  void prefillChunk(Sequence& seq, StepWork& work, std::vector<TokenEmission>& out);
  int64_t draftTokensAccepted(const Sequence& seq);
  bool growFor(Sequence& seq, int64_t tokens);
  void preempt(Sequence& victim);
  void finish(Sequence& seq);
  int64_t blocksFor(int64_t tokens) const;
  int64_t priceNs(const StepWork& work) const;
  void refreshGauges();

  EngineParams m_params;
  KvCache m_kv;
  util::Rng m_rng;
  std::unordered_map<uint64_t, std::unique_ptr<Sequence>> m_sequences;
  std::vector<Sequence*> m_running;  ///< in admission order; the last is preempted first
  std::deque<Sequence*> m_waiting;
  EngineCounters m_counters;
};

}  // namespace plumbline::mock
