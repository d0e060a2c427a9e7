#include "core/engine/store_sink.h"

#include <nlohmann/json.hpp>

#include "core/store/store_error.h"

namespace plumbline::engine {

using metrics::Metric;

namespace {
double sinkNsToMs(int64_t ns) { return static_cast<double>(ns) / 1e6; }
}  // namespace

store::WindowRow toWindowRow(const metrics::WindowStats& w) {
  store::WindowRow r;
  r.idx = w.index;
  r.startNs = w.startNs;
  r.lengthNs = w.lengthNs;
  r.planned = static_cast<int64_t>(w.planned);
  r.sent = static_cast<int64_t>(w.sent);
  r.completed = static_cast<int64_t>(w.completed);
  r.errors = static_cast<int64_t>(w.errorCount());
  nlohmann::json errors = nlohmann::json::object();
  for (size_t i = 1; i < metrics::kErrorClassCount; ++i)
    if (w.errors[i] != 0) errors[std::string(metrics::kErrorClassNames[i])] = w.errors[i];
  r.errorsJson = errors.dump();
  r.inputTokens = static_cast<int64_t>(w.inputTokens);
  r.outputTokens = static_cast<int64_t>(w.outputTokens);
  r.inFlight = w.harness.inFlight;
  r.connectionsOpen = w.harness.connectionsOpen;
  auto ms = [&w](Metric m, double q) -> std::optional<double> {
    const metrics::LatencyHistogram& h = w.hist(m);
    if (h.count() == 0) return std::nullopt;  // no sample: NULL, not a 0 ms latency
    return sinkNsToMs(q < 1 ? h.percentile(q) : h.max());
  };
  r.ttftP50Ms = ms(Metric::Ttft, 0.5);
  r.ttftP99Ms = ms(Metric::Ttft, 0.99);
  r.itlP50Ms = ms(Metric::Itl, 0.5);
  r.itlP99Ms = ms(Metric::Itl, 0.99);
  r.e2eP50Ms = ms(Metric::E2e, 0.5);
  r.e2eP99Ms = ms(Metric::E2e, 0.99);
  r.sendLagP50Ms = ms(Metric::SendLag, 0.5);
  r.sendLagP99Ms = ms(Metric::SendLag, 0.99);
  r.sendLagMaxMs = ms(Metric::SendLag, 1);
  r.ttfaP50Ms = ms(Metric::Answer, 0.5);
  r.ttfaP99Ms = ms(Metric::Answer, 0.99);
  r.ttftFromPlannedP50Ms = ms(Metric::TtftFromPlanned, 0.5);
  r.ttftFromPlannedP99Ms = ms(Metric::TtftFromPlanned, 0.99);
  r.e2eFromPlannedP50Ms = ms(Metric::E2eFromPlanned, 0.5);
  r.e2eFromPlannedP99Ms = ms(Metric::E2eFromPlanned, 0.99);
  r.tpotP50Ms = ms(Metric::Tpot, 0.5);
  r.tpotP99Ms = ms(Metric::Tpot, 0.99);
  r.workerCpuMax = w.harness.workerCpuMax;
  r.workerCpuMean = w.harness.workerCpuMean;
  r.loopDelayMaxMs = sinkNsToMs(w.harness.loopDelayMaxNs);
  r.cpuWaitMaxMs = w.harness.cpuWaitMaxNs < 0 ? -1.0 : sinkNsToMs(w.harness.cpuWaitMaxNs);
  r.handedLateMaxMs = sinkNsToMs(w.harness.handedLateMaxNs);
  r.sentDuring = static_cast<int64_t>(w.sentDuring);
  r.inFlightCapHits = w.harness.inFlightCapHits;
  r.workerDied = w.harness.workerDied;
  return r;
}

store::HistogramBlobs histogramBlobs(
    const std::array<metrics::LatencyHistogram, static_cast<size_t>(Metric::Count)>& hists) {
  store::HistogramBlobs out;
  for (size_t i = 0; i < hists.size(); ++i)
    if (hists[i].count() != 0) out.emplace_back(metrics::kMetricNames[i], hists[i].serialize());
  return out;
}

template <typename Write>
void StoreSink::guarded(Write&& write) {
  if (!m_failure.empty()) return;
  try {
    write();
  } catch (const store::StoreError& e) {  // disk full, I/O error, a lock held past patience
    m_failure = e.what();
  }
}

void StoreSink::onRecords(const std::vector<metrics::RequestRecord>& records) {
  guarded([&] { m_writer.addRequests(records); });
}

void StoreSink::onT0(int64_t t0WallNs) {
  guarded([&] { m_writer.setT0Wall(t0WallNs); });
}

void StoreSink::onWindow(const metrics::WindowStats& window) {
  guarded([&] { m_writer.addWindow(toWindowRow(window), histogramBlobs(window.latency)); });
}

}  // namespace plumbline::engine
