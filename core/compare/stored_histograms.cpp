#include "core/compare/stored_histograms.h"

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

std::map<int64_t, WindowPercentiles> answerPercentilesByWindow(const store::RunReader& reader,
                                                               int64_t runId) {
  const auto answer = windowHistograms(reader, runId, "ttfa");
  const auto first = windowHistograms(reader, runId, "ttft");
  bool differs = false;
  std::map<int64_t, WindowPercentiles> out;
  for (const auto& [idx, h] : answer) {
    const auto t = first.find(idx);
    differs = differs || t == first.end() || !(t->second == h);
    out[idx] = {ms(h.percentile(0.5)), ms(h.percentile(0.99))};
  }
  if (!differs) out.clear();
  return out;
}

}  // namespace plumbline::compare
