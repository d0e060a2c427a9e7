#include "core/compare/stored_histograms.h"

#include <algorithm>
#include <stdexcept>

namespace plumbline::compare {

namespace {

std::optional<metrics::LatencyHistogram> decodedOrNone(const std::string& blob) {
  try {
    return metrics::LatencyHistogram::deserialize(blob);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

std::map<int64_t, metrics::LatencyHistogram> windowHistograms(const store::RunReader& reader,
                                                              int64_t runId,
                                                              const std::string& metric) {
  std::map<int64_t, metrics::LatencyHistogram> out;
  for (const auto& [idx, blob] : reader.windowHistograms(runId, metric))
    if (auto h = decodedOrNone(blob)) out.emplace(idx, std::move(*h));
  return out;
}

double ms(int64_t ns) { return static_cast<double>(ns) / 1e6; }

}  // namespace

std::optional<metrics::LatencyHistogram> storedHistogram(const store::RunReader& reader,
                                                         int64_t runId, const std::string& metric,
                                                         int64_t windowIdx) {
  const std::optional<std::string> blob = reader.histogram(runId, metric, windowIdx);
  return blob ? decodedOrNone(*blob) : std::nullopt;
}

bool answerDiffers(const metrics::LatencyHistogram* answer,
                   const metrics::LatencyHistogram* first) {
  return answer != nullptr && !answer->empty() && (first == nullptr || !(*answer == *first));
}

bool answerDiffersFromFirstToken(const store::RunReader& reader, int64_t runId) {
  const auto answer = storedHistogram(reader, runId, "ttfa");
  const auto first = storedHistogram(reader, runId, "ttft");
  return answerDiffers(answer ? &*answer : nullptr, first ? &*first : nullptr);
}

std::vector<store::WindowRow> windowsWithStoredPercentiles(const store::RunReader& reader,
                                                           int64_t runId) {
  using Field = std::optional<double> store::WindowRow::*;
  struct Stored {
    const char* metric;
    Field p50;
    Field p99;
  };
  static constexpr Stored kStored[] = {
      {"ttfa", &store::WindowRow::ttfaP50Ms, &store::WindowRow::ttfaP99Ms},
      {"ttft_from_planned", &store::WindowRow::ttftFromPlannedP50Ms,
       &store::WindowRow::ttftFromPlannedP99Ms},
      {"e2e_from_planned", &store::WindowRow::e2eFromPlannedP50Ms,
       &store::WindowRow::e2eFromPlannedP99Ms},
      {"tpot", &store::WindowRow::tpotP50Ms, &store::WindowRow::tpotP99Ms}};
  std::vector<store::WindowRow> windows = reader.windows(runId);
  for (const Stored& f : kStored) {
    auto whole = [&f](const store::WindowRow& w) { return (w.*f.p50) && (w.*f.p99); };
    // Rows that all have it (stored since it was a column, every window with a sample) need no
    // histogram.
    if (std::all_of(windows.begin(), windows.end(), whole)) continue;
    const auto hists = windowHistograms(reader, runId, f.metric);
    for (store::WindowRow& w : windows) {
      const auto h = hists.find(w.idx);
      if (whole(w) || h == hists.end() || h->second.empty()) continue;
      w.*f.p50 = ms(h->second.percentile(0.5));
      w.*f.p99 = ms(h->second.percentile(0.99));
    }
  }
  return windows;
}

}  // namespace plumbline::compare
