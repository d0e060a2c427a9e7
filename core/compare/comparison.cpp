#include "core/compare/comparison.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "core/compare/stored_histograms.h"
#include "core/metrics/window_stats.h"
#include "core/store/store_error.h"

namespace plumbline::compare {

namespace {

std::vector<std::pair<int64_t, metrics::LatencyHistogram>> decoded(
    const store::RunReader& reader, int64_t id, const std::string& metric) {
  std::vector<std::pair<int64_t, metrics::LatencyHistogram>> out;
  for (auto& [idx, blob] : reader.windowHistograms(id, metric)) {
    try {
      out.emplace_back(idx, metrics::LatencyHistogram::deserialize(blob));
    } catch (const std::invalid_argument& e) {
      throw store::StoreError(reader.path(), "reading run " + std::to_string(id) + " " + metric +
                                                 " histogram of window " + std::to_string(idx),
                              e.what(), store::StoreErrorKind::NotADatabase);
    }
  }
  return out;
}

/// Every whole-run histogram the run stored, by name.
RunHistograms wholeRunHistograms(const store::RunReader& reader, int64_t id) {
  RunHistograms out;
  for (const char* metric : metrics::kMetricNames) {
    auto blob = reader.histogram(id, metric, -1);
    if (!blob) continue;
    try {
      out.emplace(metric, metrics::LatencyHistogram::deserialize(*blob));
    } catch (const std::invalid_argument& e) {
      throw store::StoreError(reader.path(),
                              "reading run " + std::to_string(id) + " " + metric + " histogram",
                              e.what(), store::StoreErrorKind::NotADatabase);
    }
  }
  return out;
}

void addCdf(Comparison& c, int64_t id, const RunHistograms& histograms, const char* metric) {
  if (const auto it = histograms.find(metric); it != histograms.end())
    c.cdfs.push_back({id, metric, it->second.count(), latencyCdf(it->second)});
}

/// Whether a run's answer came after its first token: their histograms differ.
bool thoughtFirst(const RunHistograms& histograms) {
  const auto find = [&](const char* name) {
    const auto it = histograms.find(name);
    return it == histograms.end() ? nullptr : &it->second;
  };
  return answerDiffers(find(kAnswerCdfMetric), find("ttft"));
}

Goodput goodputOf(const store::RunReader& reader, const ComparedRun& run, const Slo& slo) {
  const nlohmann::json stream = run.specAt("/target/stream");
  // Runs stored before answer tokens were timed have no ttfa in their summary or windows.
  const bool answersTimed = (run.summary.is_object() && run.summary.contains("ttfa_ms")) ||
                            !reader.windowHistograms(run.row.id, "ttfa").empty();
  GoodputCounter counter(slo, !stream.is_boolean() || stream.get<bool>(),  // streams by default
                         answersTimed);
  reader.forEachRequest(run.row.id, [&](const metrics::RequestRecord& r) { counter.add(r); });
  // Of every planned request: one never sent (no stored row) did not meet the SLO either.
  const double planned =
      run.summaryNumber("planned").value_or(static_cast<double>(run.row.planned.value_or(0)));
  Goodput g =
      counter.result(run.row.durationS.value_or(run.summaryNumber("duration_s").value_or(0)),
                     planned > 0 ? static_cast<uint64_t>(planned) : 0);
  if (run.summary.is_object())
    if (const auto counts = run.summary.find("token_counts");
        counts != run.summary.end() && counts->is_object())
      g.clientOutputBasis = counts->value("client_output_basis", std::string());
  return g;
}

/// Marks every run's goodput when their inter-token limits divided by different counts.
void markDifferentGapBases(std::vector<Goodput>& goodput) {
  std::set<std::string> bases;
  for (const Goodput& g : goodput)
    if (!g.itlTokenBasis.empty())
      bases.insert(g.itlTokenBasis == "server" ? g.itlTokenBasis
                                               : g.itlTokenBasis + " " + g.clientOutputBasis);
  if (bases.size() > 1)
    for (Goodput& g : goodput) g.itlBasisDiffers = !g.itlTokenBasis.empty();
}

/// A run at one rate is one point of the plot: its summary figures, throughput as completed
/// requests per second of its schedule; none for a run where nothing completed (no latency).
std::vector<LoadLatencyPoint> wholeRunPoint(const ComparedRun& run) {
  const auto completed = run.summaryNumber("completed");
  const auto duration = run.summaryNumber("duration_s");
  if (!completed || *completed <= 0 || !duration || *duration <= 0) return {};
  LoadLatencyPoint p;
  p.label = "whole run";
  p.endS = *duration;
  p.requestedRps = run.summaryNumber("requested_rps").value_or(0);
  p.completedRps = *completed / *duration;
  p.ttftP50Ms = run.summaryNumber("ttft_ms", "p50");
  p.ttftP99Ms = run.summaryNumber("ttft_ms", "p99");
  p.itlP99Ms = run.summaryNumber("itl_ms", "p99");
  p.e2eP99Ms = run.summaryNumber("e2e_ms", "p99");
  return {p};
}

}  // namespace

const LatencyCdf* Comparison::cdf(int64_t runId, const std::string& metric) const {
  for (const auto& c : cdfs)
    if (c.runId == runId && c.metric == metric) return &c;
  return nullptr;
}

bool Comparison::hasAnswerCdfs() const {
  return std::any_of(cdfs.begin(), cdfs.end(),
                     [](const LatencyCdf& cdf) { return cdf.metric == kAnswerCdfMetric; });
}

void checkComparedIds(const std::vector<int64_t>& ids, const std::string& dbPath) {
  if (ids.size() < kMinCompared || ids.size() > kMaxCompared)
    throw store::StoreError(dbPath, "comparing runs",
                            "give 2 to 4 run ids (got " + std::to_string(ids.size()) + ")",
                            store::StoreErrorKind::InvalidInput);
  for (size_t i = 0; i < ids.size(); ++i)
    if (std::find(ids.begin() + static_cast<ptrdiff_t>(i) + 1, ids.end(), ids[i]) != ids.end())
      throw store::StoreError(dbPath, "comparing runs",
                              "run " + std::to_string(ids[i]) + " is given twice",
                              store::StoreErrorKind::InvalidInput);
}

Comparison buildComparison(const store::RunReader& reader, const std::vector<int64_t>& ids,
                           const Slo& slo) {
  checkComparedIds(ids, reader.path());
  Comparison c;
  c.slo = slo;
  for (int64_t id : ids) c.runs.push_back(ComparedRun::load(reader, id));
  c.warnings = comparabilityWarnings(c.runs);
  std::vector<RunHistograms> histograms;
  for (const ComparedRun& run : c.runs) {
    const int64_t id = run.row.id;
    if (slo.any()) c.goodput.push_back(goodputOf(reader, run, slo));
    histograms.push_back(wholeRunHistograms(reader, id));
    for (const char* metric : kCdfMetrics) addCdf(c, id, histograms.back(), metric);
    std::vector<store::WindowRow> windows = windowsWithStoredPercentiles(reader, id);
    auto& series = c.series.emplace_back();
    for (size_t m = 0; m < kSeriesMetricCount; ++m)
      series[m] =
          decimateMinMax(windowSeries(windows, static_cast<SeriesMetric>(m), run.row.durationS));
    if (isSweep(run.spec)) {
      WindowLatency latency{decoded(reader, id, "ttft"), decoded(reader, id, "itl"),
                            decoded(reader, id, "e2e")};
      c.loadLatency.push_back(loadLatencyPoints(run.spec, windows, latency));
    } else {
      c.loadLatency.push_back(wholeRunPoint(run));
    }
  }
  if (std::any_of(histograms.begin(), histograms.end(), thoughtFirst))
    for (size_t i = 0; i < c.runs.size(); ++i)
      addCdf(c, c.runs[i].row.id, histograms[i], kAnswerCdfMetric);
  markDifferentGapBases(c.goodput);
  c.metrics = metricTable(c.runs, c.goodput, histograms);
  return c;
}

}  // namespace plumbline::compare
