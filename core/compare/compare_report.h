#pragma once
#include <iosfwd>

#include <nlohmann/json.hpp>

#include "core/compare/comparison.h"

namespace plumbline::compare {

/// Warnings first, then the runs, the metrics table with deltas against the baseline, goodput
/// and the load-latency points.
void printComparison(const Comparison& c, std::ostream& out);

/// {"runs", "warnings", "slo", "metrics", "goodput", "cdfs", "load_latency", "series"}.
nlohmann::json comparisonToJson(const Comparison& c);

/// "+12.5 ms (+3.1%)"-style delta text for a row's run; "-" when unknown. Shared with the UI.
std::string deltaText(const MetricRow& row, size_t run);
/// How a change is judged, for a cell: "better", "worse", "within noise", "too few samples",
/// "below resolution"; empty for a baseline, an unknown, an asked-for or an unchanged figure.
std::string judgementText(Judgement j);
/// One sentence on which figures changed beyond sampling noise and how: "Beyond sampling noise
/// (95%): TTFT p99 worse in #2 (+12.0%). Otherwise 9 changes within it." or "No figure changed
/// beyond sampling noise (95%): 2 changes within it; 4 not judged, too few samples: TTFT p99, …
/// (TTFT p99 from #1 50, #2 100 samples; a p99 needs 563, a p90 53)." Shared with the UI.
std::string noiseSummary(const Comparison& c);
/// A figure with as many decimals as its size deserves; "-" when unknown.
std::string figureText(std::optional<double> v);
/// A row's value for a run as shown: its figure, with the row's note for it in parentheses;
/// the note alone when the value is unknown ("n/a (no TTFT without streaming)"). Shared with the
/// UI.
std::string valueText(const MetricRow& row, size_t run);
/// One run's goodput as a sentence's end: "171 of 175 planned (97.7%), 5.70 req/s", with the
/// never-sent requests and any limit not judged; "n/a (no TTFT without streaming)".
std::string goodputText(const Goodput& g);
/// What a run's inter-token limit divided each stream by: "gaps per token of the server's
/// usage"; goodputText adds it when the compared runs' counts differ.
std::string gapBasisText(const Goodput& g);

}  // namespace plumbline::compare
