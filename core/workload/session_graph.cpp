#include "core/workload/session_graph.h"

#include <algorithm>
#include <cmath>

#include "core/workload/length_sampling.h"
#include "core/workload/sharegpt_prompts.h"

namespace plumbline::workload {
namespace {

constexpr uint64_t kSessionStreamBase = 2'000'000'000'000ULL;
constexpr uint64_t kPrefixGroupStream = 3'000'000'000'000ULL;

SessionRequest request(std::vector<uint32_t> parents, int64_t delayNs, uint32_t newTokens,
                       uint32_t outputTokens, RequestText text) {
  return SessionRequest{std::move(parents), delayNs, newTokens, outputTokens, text};
}

/// The text kind of a session's first request: a ShareGPT session sends its prompt's own text.
RequestText firstText(const WorkloadSpec& spec) {
  return spec.requests.prompt.sharegpt ? RequestText::DatasetTurn : RequestText::UserMessage;
}

/// multi_turn over a ShareGPT conversation: turn k sends exchange k's human text and asks for
/// its model turn's length; the drawn turn count is cut to the exchanges the conversation has.
void planDatasetTurns(const WorkloadSpec& spec, SessionPlan& s, util::Rng& rng, const ShareGptPrompt& prompt) {
  const uint32_t drawn = sampleLength(spec.session.count, rng);
  const uint32_t n = std::min<uint32_t>(drawn, static_cast<uint32_t>(prompt.laterTurns.size()) + 1);
  s.requests.push_back(request({}, 0, s.inputTokens, s.outputTokens, RequestText::DatasetTurn));
  for (uint32_t k = 1; k < n; ++k) {
    const int64_t delay = sampleDelayNs(spec.session.delay, rng);
    const ShareGptExchange& e = prompt.laterTurns[k - 1];
    s.requests.push_back(request({k - 1}, delay, e.inputTokens, e.outputTokens, RequestText::DatasetTurn));
  }
}

void planChain(const WorkloadSpec& spec, SessionPlan& s, util::Rng& rng, bool agentic) {
  const auto& sess = spec.session;
  if (const ShareGptPrompts* dataset = shareGptPrompts(spec); dataset != nullptr && !agentic)
    return planDatasetTurns(spec, s, rng, dataset->pick(spec.load.seed, s.id));
  const uint32_t n = sampleLength(sess.count, rng);
  s.requests.push_back(request({}, 0, s.inputTokens, s.outputTokens, firstText(spec)));
  for (uint32_t k = 1; k < n; ++k) {
    const int64_t delay = sampleDelayNs(sess.delay, rng);
    const uint32_t text = agentic ? sampleLength(sess.toolResultTokens, rng) : sampleLength(spec.requests.inputTokens, rng);
    const uint32_t out = sampleLength(spec.requests.outputTokens, rng);
    s.requests.push_back(request({k - 1}, delay, text, out, agentic ? RequestText::ToolResult : RequestText::UserMessage));
  }
}

void planTree(const WorkloadSpec& spec, SessionPlan& s, util::Rng& rng) {
  s.requests.push_back(request({}, 0, s.inputTokens, s.outputTokens, firstText(spec)));
  size_t levelStart = 0, levelEnd = 1;
  for (uint32_t level = 1; level <= spec.session.depth; ++level) {
    for (size_t parent = levelStart; parent < levelEnd; ++parent) {
      for (uint32_t c = 0; c < spec.session.branching; ++c) {
        const uint32_t in = sampleLength(spec.requests.inputTokens, rng);
        const uint32_t out = sampleLength(spec.requests.outputTokens, rng);
        s.requests.push_back(request({static_cast<uint32_t>(parent)}, 0, in, out, RequestText::UserMessage));
      }
    }
    levelStart = levelEnd;
    levelEnd = s.requests.size();
  }
}

void planSummarize(const WorkloadSpec& spec, SessionPlan& s, util::Rng& rng) {
  const uint32_t chunks = sampleLength(spec.session.count, rng);
  std::vector<uint32_t> maps;
  for (uint32_t i = 0; i < chunks; ++i) {
    const uint32_t in = i == 0 ? s.inputTokens : sampleLength(spec.requests.inputTokens, rng);
    const uint32_t out = i == 0 ? s.outputTokens : sampleLength(spec.requests.outputTokens, rng);
    s.requests.push_back(request({}, 0, in, out, RequestText::Chunk));
    maps.push_back(i);
  }
  s.requests.push_back(request(std::move(maps), 0, 0, sampleLength(spec.requests.outputTokens, rng), RequestText::Reduce));
}

}  // namespace

int64_t sampleDelayNs(const SecondsDist& dist, util::Rng& rng) {
  double seconds = dist.p1;
  switch (dist.kind) {
    case DistKind::Fixed: break;
    case DistKind::Uniform: seconds = dist.p1 + (dist.p2 - dist.p1) * rng.uniform01(); break;
    case DistKind::Normal: seconds = rng.normal(dist.p1, dist.p2); break;
    case DistKind::Lognormal: seconds = std::exp(std::log(dist.p1) + dist.p2 * rng.normal(0.0, 1.0)); break;
    case DistKind::Exponential: seconds = rng.exponential(dist.p1); break;
  }
  if (std::isnan(seconds)) seconds = dist.clampMin;
  seconds = std::clamp(seconds, dist.clampMin, std::max(dist.clampMin, std::min(dist.clampMax, 1e9)));
  return std::llround(seconds * 1e9);
}

void planSessionRequests(const WorkloadSpec& spec, SessionPlan& s) {
  s.requests.clear();
  const auto& prefix = spec.requests.sharedPrefix;
  if (prefix.groups > 0) {
    util::Rng groupRng = util::Rng::forStream(spec.load.seed, kPrefixGroupStream + s.id);
    s.prefixGroup = static_cast<uint32_t>(groupRng.nextU64() % prefix.groups);
    s.prefixTokens = prefix.tokens;
  }
  util::Rng rng = util::Rng::forStream(spec.load.seed, kSessionStreamBase + s.id);
  switch (spec.session.kind) {
    case SessionShape::Single:
      // A shared system prompt or trace blocks need the session path (it builds their text).
      if (prefix.groups > 0 || !s.promptBlocks.empty())
        s.requests.push_back(request({}, 0, s.inputTokens, s.outputTokens, firstText(spec)));
      return;
    case SessionShape::MultiTurn: return planChain(spec, s, rng, false);
    case SessionShape::Agentic: return planChain(spec, s, rng, true);
    case SessionShape::Tree: return planTree(spec, s, rng);
    case SessionShape::Summarize: return planSummarize(spec, s, rng);
  }
}

}  // namespace plumbline::workload
