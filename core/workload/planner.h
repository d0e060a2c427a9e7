#pragma once
#include <cstdint>
#include <vector>

#include "core/util/rng.h"
#include "core/workload/session_request.h"
#include "core/workload/workload_spec.h"

namespace plumbline::workload {

/// One session to run: for single-shape workloads, exactly one request.
struct SessionPlan {
  /// Brace-initialisable by the first five fields, as before sessions had request graphs.
  SessionPlan(uint64_t id_ = 0, int64_t plannedNs_ = 0, uint32_t inputTokens_ = 0, uint32_t outputTokens_ = 0,
              uint32_t stage_ = 0)
      : id(id_), plannedNs(plannedNs_), inputTokens(inputTokens_), outputTokens(outputTokens_), stage(stage_) {}

  uint64_t id = 0;           ///< 0, 1, 2... in planned-time order
  int64_t plannedNs = 0;     ///< relative to the run's t0
  uint32_t inputTokens = 0;
  uint32_t outputTokens = 0;
  uint32_t stage = 0;
  int64_t traceRow = -1;  ///< arrival "trace": index into load.traceSchedule->rows, else -1

  /// Shaped sessions (and any with a shared prefix): every request, index = position (turn,
  /// node in breadth-first order, step, chunk; the reduce is last). Empty: one plain request.
  std::vector<SessionRequest> requests;
  uint32_t prefixGroup = 0;
  uint32_t prefixTokens = 0;  ///< 0 = no shared system prompt
  /// A replayed Mooncake row (lengths "trace"): its hash_ids; the first request's prompt is
  /// built from one shared 512-token block per id (prompt_blocks.h). Empty otherwise.
  std::vector<uint32_t> promptBlocks;

  uint32_t requestCount() const { return requests.empty() ? 1u : static_cast<uint32_t>(requests.size()); }
  /// Requests sent at the session's planned instant (the rest depend on earlier replies).
  uint32_t rootCount() const;
};

/// Streams the schedule of a workload in planned-time order. Deterministic for a seed:
/// arrival instants come from one stream, each session's lengths from a stream derived
/// from (seed, session id), so the result never depends on how many workers run it.
/// Holds a reference to the spec, which must outlive the planner.
class Planner {
 public:
  explicit Planner(const WorkloadSpec& spec);
  /// Fills the next session; false when the schedule is exhausted.
  bool next(SessionPlan& out);
  int64_t durationNs() const { return m_durationNs; }

 private:
  bool nextArrival(int64_t& plannedNs, uint32_t& stage);
  bool nextTraceArrival(int64_t& plannedNs, uint32_t& stage);
  const WorkloadSpec& m_spec;
  util::Rng m_arrivalRng;
  uint64_t m_nextId = 0;
  double m_cumulative = 0;     ///< position in integrated-rate space (expected arrivals so far)
  size_t m_stage = 0;
  double m_stageStartS = 0;
  double m_stageStartCum = 0;
  int64_t m_durationNs = 0;
};

/// The lengths and request graph of session `id` (arrival fields left zero): what next()
/// fills in for that id, independent of the arrival stream.
SessionPlan drawSession(const WorkloadSpec& spec, uint64_t id);

/// Draws one value from a length distribution, clamped and rounded to a whole token count.
uint32_t sampleLength(const LengthDist& dist, util::Rng& rng);

class ShareGptPrompts;
/// The loaded ShareGPT prompts of a sharegpt workload, null for other sources. Throws
/// std::logic_error when a sharegpt spec was never loaded.
const ShareGptPrompts* shareGptPrompts(const WorkloadSpec& spec);

/// Expected sessions in a stage (the integral of its rate).
double expectedSessions(const Stage& stage);

}  // namespace plumbline::workload
