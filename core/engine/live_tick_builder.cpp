#include "core/engine/live_tick_builder.h"

#include <algorithm>
#include <iterator>

#include "core/live/live_protocol.h"

namespace plumbline::engine {

namespace {

using live::protocol::kTickIntervalNs;
using protocol::kRateSliceNs;

constexpr int64_t kSecondNs = 1'000'000'000;
static_assert(kSecondNs % kRateSliceNs == 0, "a second is made of whole rate slices");

// Slice::latency indices, in the order of LiveTick's percentile members.
enum Latency : size_t {
  kTtft,
  kItl,
  kE2e,
  kTtftFromPlanned,
  kE2eFromPlanned,
  kSendLag,
  kTtfa,
  kTpot
};

using live::LiveTick;
constexpr live::LivePercentiles LiveTick::*kTickMember[] = {
    &LiveTick::ttft,           &LiveTick::itl,     &LiveTick::e2e,  &LiveTick::ttftFromPlanned,
    &LiveTick::e2eFromPlanned, &LiveTick::sendLag, &LiveTick::ttfa, &LiveTick::tpot};
static_assert(std::size(kTickMember) == LiveTickBuilder::kLatencyCount);

double nsToMs(int64_t ns) { return static_cast<double>(ns) / 1e6; }

int64_t sliceIndex(int64_t ns) { return ns >= 0 ? ns / kTickIntervalNs : -1; }

}  // namespace

LiveTickBuilder::Slice& LiveTickBuilder::sliceAt(int64_t ns) { return m_slices[sliceIndex(ns)]; }

void LiveTickBuilder::dropSlicesBefore(int64_t index) {
  m_slices.erase(m_slices.begin(), m_slices.lower_bound(index));
}

void LiveTickBuilder::addRecords(const std::vector<metrics::RequestRecord>& records) {
  for (const auto& r : records) {
    if (r.error == metrics::ErrorClass::HarnessLimit) {
      const int64_t at = std::max<int64_t>(0, r.sendNs >= 0 ? r.sendNs : r.plannedNs);
      ++m_rateSlices[at / kRateSliceNs].neverLeft;
    }
    if (!r.ok() || r.endNs < 0) continue;  // latencies of completed requests, as in windows
    Slice& s = sliceAt(r.endNs);
    if (r.sendNs >= 0 && r.firstTokenNs >= 0) s.latency[kTtft].record(r.ttftNs());
    if (r.sendNs >= 0 && r.firstAnswerNs >= 0) s.latency[kTtfa].record(r.ttfaNs());
    if (const int64_t tpot = r.tpotNs(); tpot >= 0) s.latency[kTpot].record(tpot);
    if (r.sendNs >= 0) s.latency[kE2e].record(r.e2eNs());
    if (r.plannedNs >= 0 && r.firstTokenNs >= 0)
      s.latency[kTtftFromPlanned].record(r.ttftFromPlannedNs());
    if (r.plannedNs >= 0) s.latency[kE2eFromPlanned].record(r.e2eFromPlannedNs());
  }
}

void LiveTickBuilder::addStats(const StatsReport& stats) {
  Slice& s = sliceAt(stats.sample.atNs);
  s.latency[kItl].merge(stats.itl);
  for (const auto& [slice, count] : stats.sentBySlice) m_rateSlices[slice].sent += count;
  for (const auto& send : stats.sends) s.latency[kSendLag].merge(send.sendLag);
  s.loopDelayMaxNs = std::max(s.loopDelayMaxNs, stats.sample.loopDelayMaxNs);
  if (stats.sample.cpuWaitNs >= 0) s.cpuWaitNs[stats.sample.workerId] += stats.sample.cpuWaitNs;
  CpuSamples& cpu = s.cpu[stats.sample.workerId];
  cpu.sum += stats.sample.cpuFraction;
  ++cpu.count;
  auto it = m_latestSample.find(stats.sample.workerId);
  if (it != m_latestSample.end() && stats.sample.atNs < it->second.atNs) return;  // out of order
  m_latestSample[stats.sample.workerId] = stats.sample;
  m_connectionsOpen[stats.sample.workerId] = stats.connectionsOpen;
}

void LiveTickBuilder::addHandedLate(int64_t atNs, int64_t latenessNs) {
  Slice& s = sliceAt(atNs);
  s.handedLateMaxNs = std::max(s.handedLateMaxNs, latenessNs);
}

void LiveTickBuilder::addPlanned(int64_t plannedNs, uint64_t count) {
  m_rateSlices[std::max<int64_t>(0, plannedNs) / kRateSliceNs].planned += count;
}

void LiveTickBuilder::removeWorker(uint32_t workerId) {
  m_latestSample.erase(workerId);
  m_connectionsOpen.erase(workerId);
}

std::optional<live::LiveTick> LiveTickBuilder::due(int64_t nowNs,
                                                   const metrics::RunAggregator& aggregator) {
  if (m_nextTickNs == 0) m_nextTickNs = kTickIntervalNs;
  if (nowNs < m_nextTickNs) return std::nullopt;
  const int64_t atNs = nowNs - nowNs % kTickIntervalNs;
  m_nextTickNs = atNs + kTickIntervalNs;
  return build(atNs, aggregator);
}

live::LiveTick LiveTickBuilder::build(int64_t atNs, const metrics::RunAggregator& a) {
  live::LiveTick t;
  t.atNs = atNs;
  t.planned = a.planned();
  t.sent = a.sent();
  t.completed = a.completed();
  t.notSent = a.notSentKnown();  // known so far; the run's last tick has the final planned − sent
  for (size_t i = 1; i < metrics::kErrorClassCount; ++i)
    if (a.errors()[i] != 0) t.errors[std::string(metrics::kErrorClassNames[i])] = a.errors()[i];
  t.inputTokens = a.inputTokens();
  t.outputTokens = a.outputTokens();

  fillRates(t);
  // Output tokens over the last second: against the counters of the tick a second ago, or of t0
  // (all zero) during the first second, so an early tick does not measure from the tick before it.
  if (m_history.empty() && atNs <= kSecondNs) m_history.push_back(Counters{});
  while (!m_history.empty() && m_history.front().atNs < atNs - kSecondNs) m_history.pop_front();
  const Counters then = m_history.empty() ? Counters{} : m_history.front();
  const double spanS = std::max(1e-3, static_cast<double>(atNs - then.atNs) / 1e9);
  if (t.outputTokens >= then.outputTokens)
    t.outputTokensPerS = static_cast<double>(t.outputTokens - then.outputTokens) / spanS;
  m_history.push_back({atNs, t.outputTokens});

  // Latencies of the four slices that make up (atNs - 1 s, atNs].
  const int64_t last = sliceIndex(atNs) - 1;
  std::array<metrics::LatencyHistogram, kLatencyCount> merged;
  int64_t loopDelayMaxNs = 0;
  int64_t handedLateMaxNs = 0;
  std::map<uint32_t, int64_t> cpuWaitNs;  // by worker, over the second
  std::map<uint32_t, CpuSamples> cpu;     // by worker, over the second
  for (auto it = m_slices.lower_bound(last - kSlicesPerSecond + 1);
       it != m_slices.end() && it->first <= last; ++it) {
    for (size_t i = 0; i < merged.size(); ++i) merged[i].merge(it->second.latency[i]);
    loopDelayMaxNs = std::max(loopDelayMaxNs, it->second.loopDelayMaxNs);
    handedLateMaxNs = std::max(handedLateMaxNs, it->second.handedLateMaxNs);
    for (const auto& [id, ns] : it->second.cpuWaitNs) cpuWaitNs[id] += ns;
    for (const auto& [id, c] : it->second.cpu) {
      cpu[id].sum += c.sum;
      cpu[id].count += c.count;
    }
  }
  int64_t cpuWaitMaxNs = -1;
  for (const auto& [id, ns] : cpuWaitNs) cpuWaitMaxNs = std::max(cpuWaitMaxNs, ns);
  t.cpuWaitMaxMs = cpuWaitMaxNs < 0 ? -1.0 : nsToMs(cpuWaitMaxNs);
  for (size_t i = 0; i < merged.size(); ++i)
    t.*kTickMember[i] = {nsToMs(merged[i].percentile(0.5)), nsToMs(merged[i].percentile(0.99)),
                         merged[i].count()};
  t.loopDelayMaxMs = nsToMs(loopDelayMaxNs);
  t.handedLateMaxMs = nsToMs(handedLateMaxNs);
  dropSlicesBefore(last - kSlicesPerSecond + 1);

  // Worker CPU as a window has it: the busiest worker's mean over its samples, and the mean of
  // every sample, of the last second only. A worker's latest sample kept as current held the
  // chart at its last value after the workers had stopped reporting (QA: flat after sending).
  double cpuSum = 0;
  int cpuSamples = 0;
  for (const auto& [id, c] : cpu) {
    t.workerCpuMax = std::max(t.workerCpuMax, c.sum / c.count);
    cpuSum += c.sum;
    cpuSamples += c.count;
  }
  if (cpuSamples > 0) t.workerCpuMean = cpuSum / cpuSamples;
  for (const auto& [id, s] : m_latestSample) t.inFlight += s.inFlight;
  for (const auto& [id, n] : m_connectionsOpen) t.connectionsOpen += static_cast<int64_t>(n);
  return t;
}

void LiveTickBuilder::fillRates(live::LiveTick& t) {
  // The latest whole second that every running worker has reported its sends for, ending on a
  // slice boundary no later than the tick; none before the run's first whole second.
  const int64_t through = std::min(t.atNs, m_sendsReportedThroughNs);
  const int64_t endSlice = through >= kSecondNs ? through / kRateSliceNs : -1;
  t.ratesThroughNs = 0;
  if (endSlice < 0) return;
  const int64_t firstSlice = endSlice - kSecondNs / kRateSliceNs;
  m_rateSlices.erase(m_rateSlices.begin(), m_rateSlices.lower_bound(firstSlice));
  uint64_t planned = 0, sent = 0, neverLeft = 0;
  for (auto it = m_rateSlices.begin(); it != m_rateSlices.end() && it->first < endSlice; ++it) {
    planned += it->second.planned;
    sent += it->second.sent;
    neverLeft += it->second.neverLeft;
  }
  t.ratesThroughNs = endSlice * kRateSliceNs;
  t.requestedRps = static_cast<double>(planned);  // over exactly one second
  t.achievedRps =
      static_cast<double>(sent > neverLeft ? sent - neverLeft : 0);  // what the target was offered
}

}  // namespace plumbline::engine
