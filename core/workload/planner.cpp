#include "core/workload/planner.h"
#include "core/workload/session_graph.h"

#include "core/workload/prompt_materials.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/workload/trace_replay.h"

namespace plumbline::workload {
namespace {

constexpr uint64_t kArrivalStream = 0;
constexpr uint64_t kLengthStreamBase = 1'000'000;

/// Time into a stage at which its integrated rate reaches `x` (0 <= x <= expected sessions).
/// Λ(τ) = r0·τ + a·τ² with a = (r1 − r0) / 2D; the root is taken in the form
/// 2x / (r0 + sqrt(r0² + 4ax)), which has no cancellation for rising or falling ramps
/// and reduces to x / r0 when the ramp is (nearly) flat.
double timeAtIntegral(const Stage& stage, double x) {
  if (x <= 0) return 0;
  const double r0 = stage.startRate;
  const double a = (stage.endRate - stage.startRate) / (2.0 * stage.durationS);
  const double discriminant = std::max(0.0, r0 * r0 + 4.0 * a * x);
  const double denominator = r0 + std::sqrt(discriminant);
  if (!(denominator > 0)) return stage.durationS;
  return std::clamp(2.0 * x / denominator, 0.0, stage.durationS);
}

}  // namespace

const ShareGptPrompts* shareGptPrompts(const WorkloadSpec& spec) {
  if (!spec.requests.prompt.sharegpt) return nullptr;
  const auto& materials = spec.requests.prompt.materials;
  if (!materials || !materials->sharegpt)
    throw std::logic_error("sharegpt prompts were not loaded (loadPromptMaterials) before planning");
  return materials->sharegpt.get();
}

SessionPlan drawSession(const WorkloadSpec& spec, uint64_t id) {
  SessionPlan s;
  s.id = id;
  s.traceRow = -1;
  util::Rng lengths = util::Rng::forStream(spec.load.seed, kLengthStreamBase + id);
  if (spec.load.arrival == Arrival::Trace) s.traceRow = static_cast<int64_t>(id);
  if (spec.load.arrival == Arrival::Trace && spec.load.trace->lengthsFromTrace) {
    const TraceRow& row = spec.load.traceSchedule->rows[id];
    // A request asks for at least one token of each; the trace's rare zeros become ones.
    s.inputTokens = std::max<uint32_t>(row.inputTokens, 1);
    s.outputTokens = std::max<uint32_t>(row.outputTokens, 1);
    s.promptBlocks = row.hashIds;
  } else if (const ShareGptPrompts* dataset = shareGptPrompts(spec)) {
    const ShareGptPrompt& prompt = dataset->pick(spec.load.seed, id);
    s.inputTokens = prompt.firstRequestTokens();  // its system turn is sent too
    s.outputTokens = prompt.outputTokens;
  } else {
    s.inputTokens = sampleLength(spec.requests.inputTokens, lengths);
    s.outputTokens = sampleLength(spec.requests.outputTokens, lengths);
  }
  planSessionRequests(spec, s);
  return s;
}

uint32_t SessionPlan::rootCount() const {
  uint32_t roots = 0;
  for (const auto& r : requests) roots += r.parents.empty() ? 1 : 0;
  return requests.empty() ? 1u : roots;
}

double expectedSessions(const Stage& stage) {
  return 0.5 * (stage.startRate + stage.endRate) * stage.durationS;
}

Planner::Planner(const WorkloadSpec& spec)
    : m_spec(spec),
      m_arrivalRng(util::Rng::forStream(spec.load.seed, kArrivalStream)),
      m_durationNs(std::llround(spec.totalDurationS() * 1e9)) {
  // A replay's last row may sit exactly at its end; never clamp a trace instant.
  if (spec.load.traceSchedule && !spec.load.traceSchedule->plannedNs.empty())
    m_durationNs = std::max(m_durationNs, spec.load.traceSchedule->plannedNs.back());
}

bool Planner::nextArrival(int64_t& plannedNs, uint32_t& stage) {
  const auto& stages = m_spec.load.stages;
  if (m_stage >= stages.size()) return false;
  // Arrivals are placed in integrated-rate space (one expected arrival per unit), then mapped
  // through the stages' rate profile: this is how every arrival process follows ramps.
  switch (m_spec.load.arrival) {
    case Arrival::Constant:
      m_cumulative = static_cast<double>(m_nextId) + 0.5;
      break;
    case Arrival::Poisson:
      m_cumulative += m_arrivalRng.exponential(1.0);
      break;
    case Arrival::Gamma: {
      // Mean 1 and CV cv: shape 1/cv², scale cv².
      const double cv2 = m_spec.load.cv * m_spec.load.cv;
      m_cumulative += m_arrivalRng.gamma(1.0 / cv2, cv2);
      break;
    }
    case Arrival::Trace:
      return nextTraceArrival(plannedNs, stage);
  }
  while (m_cumulative > m_stageStartCum + expectedSessions(stages[m_stage])) {
    m_stageStartCum += expectedSessions(stages[m_stage]);
    m_stageStartS += stages[m_stage].durationS;
    if (++m_stage >= stages.size()) return false;
  }
  const double tau = timeAtIntegral(stages[m_stage], m_cumulative - m_stageStartCum);
  plannedNs = std::min<int64_t>(std::llround((m_stageStartS + tau) * 1e9), m_durationNs);
  stage = static_cast<uint32_t>(m_stage);
  return true;
}

bool Planner::nextTraceArrival(int64_t& plannedNs, uint32_t& stage) {
  const TraceSchedule& schedule = *m_spec.load.traceSchedule;
  if (m_nextId >= schedule.plannedNs.size()) return false;
  plannedNs = schedule.plannedNs[m_nextId];
  stage = 0;
  return true;
}

bool Planner::next(SessionPlan& out) {
  if (!nextArrival(out.plannedNs, out.stage)) return false;
  SessionPlan drawn = drawSession(m_spec, m_nextId++);
  drawn.plannedNs = out.plannedNs;
  drawn.stage = out.stage;
  out = std::move(drawn);
  return true;
}

}  // namespace plumbline::workload
