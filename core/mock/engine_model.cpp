#include "core/mock/engine_model.h"

#include <algorithm>
#include <cmath>
#include <span>

namespace plumbline::mock {

struct EngineModel::Sequence {
  SequenceSpec spec;
  double acceptRate = 0.0;
  int64_t prefillTarget = 0;  ///< tokens to compute before the next token: prompt (+ output after a preemption)
  int64_t computed = 0;       ///< tokens whose KV is computed
  int64_t generated = 0;
  int64_t published = 0;      ///< prompt blocks handed to the prefix cache
  bool decoding = false;
  bool admittedOnce = false;
  std::vector<int32_t> blocks;

  bool done() const { return generated >= spec.outputTokens; }
};

EngineModel::EngineModel(const EngineParams& params)
    : m_params(params),
      m_kv(std::max<int64_t>(1, params.kvCapacityTokens / std::max(1, params.blockTokens)), params.prefixCaching),
      m_rng(params.seed) {}

EngineModel::~EngineModel() = default;

int64_t EngineModel::blocksFor(int64_t tokens) const {
  const int64_t b = std::max(1, m_params.blockTokens);
  return (tokens + b - 1) / b;
}

// A 1 % headroom of blocks, like vLLM's watermark: admission leaves room for running
// sequences to grow, so that admitting does not immediately force a preemption.
static int64_t watermark(const KvCache& kv) { return kv.totalBlocks() / 100; }

bool EngineModel::fits(int64_t promptTokens, int64_t outputTokens) const {
  return blocksFor(std::max<int64_t>(1, promptTokens) + outputTokens) <= m_kv.totalBlocks() - watermark(m_kv);
}

void EngineModel::submit(SequenceSpec spec) {
  auto seq = std::make_unique<Sequence>();
  seq->spec = std::move(spec);
  seq->spec.promptTokens = std::max<int64_t>(1, seq->spec.promptTokens);  // a BOS token at least
  seq->spec.outputTokens = std::max<int64_t>(1, seq->spec.outputTokens);
  seq->acceptRate = m_params.acceptRate(seq->spec.temperature);
  seq->prefillTarget = seq->spec.promptTokens;
  m_waiting.push_back(seq.get());
  m_sequences[seq->spec.id] = std::move(seq);
  refreshGauges();
}

void EngineModel::cancel(uint64_t id) {
  const auto it = m_sequences.find(id);
  if (it == m_sequences.end()) return;
  Sequence* seq = it->second.get();
  std::erase(m_running, seq);
  std::erase(m_waiting, seq);
  m_kv.release(seq->blocks);
  m_sequences.erase(it);
  refreshGauges();
}

StepOutcome EngineModel::step() {
  StepOutcome outcome;
  if (idle()) return outcome;
  StepWork work;
  work.budget = m_params.maxBatchedTokens;
  decodeRunning(work, outcome.emissions);
  prefillRunning(work, outcome.emissions);
  admitWaiting(work, outcome.emissions);
  for (Sequence* seq : m_running) {
    if (seq->done()) finish(*seq);
  }
  std::erase_if(m_running, [](const Sequence* s) { return s == nullptr; });
  for (auto it = m_sequences.begin(); it != m_sequences.end();) {
    it = it->second->done() ? m_sequences.erase(it) : std::next(it);
  }
  outcome.durationNs = priceNs(work);
  ++m_counters.steps;
  refreshGauges();
  return outcome;
}

void EngineModel::decodeRunning(StepWork& work, std::vector<TokenEmission>& out) {
  const int64_t cost = 1 + m_params.specTokens;
  for (size_t i = 0; i < m_running.size(); ++i) {
    Sequence& seq = *m_running[i];
    if (!seq.decoding || work.budget < cost) continue;
    const int64_t n = std::min(seq.spec.outputTokens - seq.generated, 1 + draftTokensAccepted(seq));
    if (!growFor(seq, seq.computed + n)) continue;  // it was preempted itself
    work.budget -= cost;
    ++work.decodingSeqs;
    work.decodeContext += seq.computed;
    seq.computed += n;
    seq.generated += n;
    m_counters.generationTokens += n;
    out.push_back({seq.spec.id, n, seq.done()});
  }
}

void EngineModel::prefillRunning(StepWork& work, std::vector<TokenEmission>& out) {
  for (Sequence* seq : m_running) {
    if (!seq->decoding && work.budget > 0) prefillChunk(*seq, work, out);
  }
}

void EngineModel::admitWaiting(StepWork& work, std::vector<TokenEmission>& out) {
  while (!m_waiting.empty() && static_cast<int>(m_running.size()) < m_params.maxRunningSeqs && work.budget > 0) {
    Sequence& seq = *m_waiting.front();
    if (!admit(seq)) break;  // FCFS: nobody overtakes the head of the queue
    m_waiting.pop_front();
    m_running.push_back(&seq);
    prefillChunk(seq, work, out);
  }
}

bool EngineModel::admit(Sequence& seq) {
  // At least one token is always computed: its logits give the next token.
  const auto cacheable = static_cast<size_t>(
      std::min<int64_t>(static_cast<int64_t>(seq.spec.blockHashes.size()), (seq.prefillTarget - 1) / m_params.blockTokens));
  const int64_t hit = m_kv.takeCachedPrefix(std::span(seq.spec.blockHashes.data(), cacheable), seq.blocks);
  const int64_t need = blocksFor(seq.prefillTarget) - hit;
  if (need > m_kv.availableBlocks() - watermark(m_kv) || !m_kv.allocate(need, seq.blocks)) {
    m_kv.release(seq.blocks);
    return false;
  }
  seq.computed = hit * m_params.blockTokens;
  seq.published = hit;
  if (!seq.admittedOnce) {
    seq.admittedOnce = true;
    m_counters.promptTokens += seq.spec.promptTokens;
    if (m_params.prefixCaching) {
      m_counters.prefixQueriedTokens += seq.spec.promptTokens;
      m_counters.prefixHitTokens += seq.computed;
    }
  }
  return true;
}

void EngineModel::prefillChunk(Sequence& seq, StepWork& work, std::vector<TokenEmission>& out) {
  const int64_t chunk = std::min(work.budget, seq.prefillTarget - seq.computed);
  if (chunk <= 0) return;
  seq.computed += chunk;
  work.budget -= chunk;
  work.prefillTokens += chunk;
  const int64_t full = std::min<int64_t>(seq.computed / m_params.blockTokens,
                                         static_cast<int64_t>(seq.spec.blockHashes.size()));
  for (; seq.published < full; ++seq.published) {
    const auto b = static_cast<size_t>(seq.published);
    m_kv.publish(seq.blocks[b], seq.spec.blockHashes[b]);
  }
  if (seq.computed < seq.prefillTarget) return;
  seq.decoding = true;  // the last prefill chunk also samples the next token
  seq.generated += 1;
  m_counters.generationTokens += 1;
  out.push_back({seq.spec.id, 1, seq.done()});
}

int64_t EngineModel::draftTokensAccepted(const Sequence& seq) {
  int64_t accepted = 0;
  while (accepted < m_params.specTokens && m_rng.uniform01() < seq.acceptRate) ++accepted;
  return accepted;
}

bool EngineModel::growFor(Sequence& seq, int64_t tokens) {
  const int64_t need = blocksFor(tokens) - static_cast<int64_t>(seq.blocks.size());
  while (need > 0 && !m_kv.allocate(need, seq.blocks)) {
    Sequence* victim = m_running.back();  // the latest admitted gives way, as in vLLM
    preempt(*victim);
    if (victim == &seq) return false;
  }
  return true;
}

void EngineModel::preempt(Sequence& victim) {
  m_kv.release(victim.blocks);  // its published prompt blocks stay cached for the recompute
  victim.computed = 0;
  victim.published = 0;
  victim.decoding = false;
  victim.prefillTarget = victim.spec.promptTokens + victim.generated;
  m_running.pop_back();
  m_waiting.push_front(&victim);
  ++m_counters.preemptions;
}

void EngineModel::finish(Sequence& seq) {
  m_kv.release(seq.blocks);
  *std::find(m_running.begin(), m_running.end(), &seq) = nullptr;
}

int64_t EngineModel::priceNs(const StepWork& work) const {
  const EngineParams& p = m_params;
  double us = 0.0;
  if (work.decodingSeqs > 0) {
    us += p.stepBaseUs * (1.0 + p.specDraftCost * p.specTokens);
    us += p.decodePerSeqUs * static_cast<double>(work.decodingSeqs * (1 + p.specTokens));
    us += p.contextPerTokenUs * static_cast<double>(work.decodeContext);
  } else {
    us += p.stepBaseUs;  // a prefill-only step still reads the weights; an empty one idles a step
  }
  us += p.prefillPerTokenUs * static_cast<double>(work.prefillTokens);
  return std::llround(us * 1000.0);
}

void EngineModel::refreshGauges() {
  m_counters.running = static_cast<int64_t>(m_running.size());
  m_counters.waiting = static_cast<int64_t>(m_waiting.size());
  m_counters.kvUsage = static_cast<double>(m_kv.usedBlocks()) / static_cast<double>(m_kv.totalBlocks());
}

}  // namespace plumbline::mock
