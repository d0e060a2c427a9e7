#include "core/compare/metric_table.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

namespace plumbline::compare {

namespace {

struct Definition {
  const char* key;
  const char* label;
  const char* summaryKey;
  const char* sub;
  bool lowerIsBetter;
  /// Shown only when a compared run's model thought before answering (summary thought_first):
  /// otherwise the answer's first token is the first token, and the row repeats TTFT's.
  bool onlyWhenThought = false;
};

constexpr Definition kDefinitions[] = {
    {"requested_rps", "requested (req/s)", "requested_rps", "", false},
    {"achieved_rps", "achieved (req/s)", "achieved_rps", "", false},
    {"completed", "completed", "completed", "", false},
    {"ttft_p50_ms", "TTFT p50 (ms)", "ttft_ms", "p50", true},
    {"ttft_p90_ms", "TTFT p90 (ms)", "ttft_ms", "p90", true},
    {"ttft_p99_ms", "TTFT p99 (ms)", "ttft_ms", "p99", true},
    {"ttfa_p50_ms", "TTFA p50 (ms)", "ttfa_ms", "p50", true, true},
    {"ttfa_p99_ms", "TTFA p99 (ms)", "ttfa_ms", "p99", true, true},
    {"itl_p50_ms", "inter-token p50 (ms)", "itl_ms", "p50", true},
    {"itl_p99_ms", "inter-token p99 (ms)", "itl_ms", "p99", true},
    {"tpot_p50_ms", "TPOT p50 (ms)", "tpot_ms", "p50", true},
    {"tpot_p99_ms", "TPOT p99 (ms)", "tpot_ms", "p99", true},
    {"e2e_p50_ms", "end-to-end p50 (ms)", "e2e_ms", "p50", true},
    {"e2e_p99_ms", "end-to-end p99 (ms)", "e2e_ms", "p99", true},
    {"ttft_from_planned_p99_ms", "TTFT from planned p99 (ms)", "ttft_from_planned_ms", "p99", true},
    {"e2e_from_planned_p99_ms", "e2e from planned p99 (ms)", "e2e_from_planned_ms", "p99", true},
    {"send_lag_p99_ms", "send lag p99 (ms)", "send_lag_ms", "p99", true},
    {"input_tokens_per_s", "input tokens/s", "input_tokens_per_s", "", false},
    {"output_tokens_per_s", "output tokens/s", "output_tokens_per_s", "", false},
};

/// The summary's errors (of every class) and sends; nullopt without a summary or a send.
std::optional<std::pair<double, double>> errorsOfSent(const ComparedRun& r) {
  if (!r.summary.is_object()) return std::nullopt;
  double errors = 0;
  if (auto e = r.summary.find("errors"); e != r.summary.end() && e->is_object())
    for (const auto& [cls, n] : e->items())
      if (n.is_number()) errors += n.get<double>();
  auto sent = r.summaryNumber("sent");
  if (!sent || *sent <= 0) return std::nullopt;
  return std::pair(errors, *sent);
}

std::optional<double> errorRate(const ComparedRun& r) {
  const auto e = errorsOfSent(r);
  return e ? std::optional(100.0 * e->first / e->second) : std::nullopt;
}

/// {errors, sent} as counts, for the noise test; nullopt where they are not counts of one whole.
std::optional<std::pair<uint64_t, uint64_t>> errorShare(const ComparedRun& r) {
  const auto e = errorsOfSent(r);
  if (!e || e->first < 0 || e->first > e->second) return std::nullopt;
  return std::pair(static_cast<uint64_t>(e->first), static_cast<uint64_t>(e->second));
}

/// The 95% interval of a percentile row's figure from the run's histogram ("ttft_ms" → "ttft").
std::optional<PercentileInterval> intervalOf(const RunHistograms& histograms, const Definition& d) {
  std::string name = d.summaryKey;
  if (name.size() > 3 && name.ends_with("_ms")) name.resize(name.size() - 3);
  const auto it = histograms.find(name);
  if (it == histograms.end()) return std::nullopt;
  const std::string_view sub = d.sub;
  const double q = sub == "p50" ? 0.50 : sub == "p90" ? 0.90 : 0.99;
  // A stream's gaps vary together (a slow server step, a held loop): its streams are the
  // independent samples. Two runs of one workload with 314 streams each differed by 7 % in
  // their gaps' p99, far outside an interval that took their ~6,000 gaps as independent.
  uint64_t independent = 0;
  if (name == "itl") {
    const auto streams = histograms.find("ttft");
    independent = streams == histograms.end() ? 1 : std::max<uint64_t>(1, streams->second.count());
  }
  return percentileInterval(it->second, q, independent);
}

}  // namespace

const std::string& MetricRow::note(size_t run) const {
  static const std::string kNone;
  return run < notes.size() ? notes[run] : kNone;
}

std::optional<double> MetricRow::absoluteDelta(size_t run) const {
  if (values.empty() || run >= values.size() || !values[0] || !values[run]) return std::nullopt;
  if (!note(0).empty() || !note(run).empty()) return std::nullopt;
  return *values[run] - *values[0];
}

std::optional<double> MetricRow::relativeDelta(size_t run) const {
  auto d = absoluteDelta(run);
  if (!d || *values[0] == 0 || percentage) return std::nullopt;
  return *d / std::fabs(*values[0]);
}

Judgement MetricRow::judgement(size_t run) const {
  if (run == 0) return Judgement::Baseline;
  if (neutral) return Judgement::Asked;
  auto d = absoluteDelta(run);
  if (!d) return Judgement::Unknown;
  if (*d == 0) return Judgement::Same;
  if (!judgedOn.empty()) {  // the share of what was asked, not the value
    if (run >= judgedOn.size() || !judgedOn[0] || !judgedOn[run]) return Judgement::Unknown;
    d = *judgedOn[run] - *judgedOn[0];
    if (std::fabs(*d) < 1e-3 * std::max(1e-9, std::fabs(*judgedOn[0]))) return Judgement::Same;
    if (run < meanOver.size() &&
        meanBeyondNoise(*judgedOn[0], meanOver[0], *judgedOn[run], meanOver[run]) == false)
      return Judgement::WithinNoise;
  } else {
    if (resolution > 0 && std::fabs(*d) < resolution * std::fabs(*values[0]))
      return Judgement::BelowResolution;
    if (run < intervals.size() && intervals[0] && intervals[run]) {
      const auto beyond = beyondNoise(*values[0], *intervals[0], *values[run], *intervals[run]);
      if (!beyond) return Judgement::TooFewSamples;
      if (!*beyond) return Judgement::WithinNoise;
    } else if (run < shares.size() && shares[0] && shares[run]) {
      const auto beyond = shareBeyondNoise(shares[0]->first, shares[0]->second, shares[run]->first,
                                           shares[run]->second);
      if (beyond && !*beyond) return Judgement::WithinNoise;
    }
  }
  return (*d < 0) == lowerIsBetter ? Judgement::Better : Judgement::Worse;
}

int MetricRow::direction(size_t run) const {
  const Judgement j = judgement(run);
  return j == Judgement::Better ? 1 : j == Judgement::Worse ? -1 : 0;
}

std::string_view judgementName(Judgement j) {
  static constexpr std::array<std::string_view, 9> kNames = {
      "baseline",     "unknown",         "asked",  "same", "below_resolution",
      "within_noise", "too_few_samples", "better", "worse"};
  return kNames[static_cast<size_t>(j)];
}

std::vector<MetricRow> metricTable(const std::vector<ComparedRun>& runs,
                                   const std::vector<Goodput>& goodput,
                                   const std::vector<RunHistograms>& histograms) {
  std::vector<MetricRow> rows;
  bool anyThought = false;
  for (const auto& r : runs)
    anyThought = anyThought || r.summaryNumber("thought_first").value_or(0) > 0;
  for (const Definition& d : kDefinitions) {
    if (d.onlyWhenThought && !anyThought) continue;
    MetricRow row{d.key, d.label, d.lowerIsBetter, {}};
    const std::string key = d.key;
    row.neutral = key == "requested_rps" || key == "input_tokens_per_s";
    for (const auto& r : runs) row.values.push_back(r.summaryNumber(d.summaryKey, d.sub));
    // QA 23b: "achieved 20 → 10, −50 %" in red between two runs that each achieved what they
    // were asked for; and a 7 µs TTFT difference, below what a histogram resolves, in red.
    // Output tokens/s follows the rate asked too: judged per request asked for, it changes when
    // replies get shorter or fail, not when a run asked for more.
    const char* asked = key == "achieved_rps" || key == "output_tokens_per_s" ? "requested_rps"
                        : key == "completed"                                  ? "planned"
                                                                              : nullptr;
    if (asked != nullptr)
      for (const auto& r : runs) {
        const auto value = r.summaryNumber(d.summaryKey), whole = r.summaryNumber(asked);
        row.judgedOn.push_back(value && whole && *whole > 0 ? std::optional(*value / *whole)
                                                            : std::nullopt);
        if (key == "output_tokens_per_s")
          row.meanOver.push_back(
              static_cast<uint64_t>(std::max(0.0, r.summaryNumber("completed").value_or(0))));
      }
    if (d.sub[0] != '\0') {  // a latency percentile
      row.resolution = 1.0 / 128;
      if (histograms.size() == runs.size())
        for (const RunHistograms& h : histograms) row.intervals.push_back(intervalOf(h, d));
    }
    rows.push_back(std::move(row));
  }
  MetricRow errors{"error_rate_pct", "errors (% of sent)", true, {}};
  errors.percentage = true;
  for (const auto& r : runs) {
    errors.values.push_back(errorRate(r));
    errors.shares.push_back(errorShare(r));
  }
  rows.insert(rows.begin() + 3, std::move(errors));
  if (!goodput.empty() && goodput.size() == runs.size()) {
    MetricRow perS{"goodput_rps", "goodput (req/s meeting SLO)", false, {}};
    MetricRow share{"goodput_pct", "goodput (% of planned)", false, {}};
    share.percentage = true;
    for (const Goodput& g : goodput) {
      perS.values.push_back(g.judged && g.durationS > 0 ? std::optional(g.perSecond())
                                                        : std::nullopt);
      share.values.push_back(g.judged && g.planned ? std::optional(100.0 * g.fraction())
                                                   : std::nullopt);
      const std::string note = !g.judged     ? "n/a (" + g.unjudgedReason + ")"
                               : g.partial() ? "judged on " + g.judgedOn.names(true) + " only"
                                             : std::string();
      perS.notes.push_back(note);
      share.notes.push_back(note);
      // Requests met of planned: a share, tested for noise like the errors (QA: two runs of one
      // workload, 30 of 30 each over a few ms more or less, read "goodput better, +0.0 %").
      const auto met =
          g.judged && g.planned ? std::optional(std::pair(g.met, g.planned)) : std::nullopt;
      perS.shares.push_back(met);
      share.shares.push_back(met);
    }
    rows.push_back(std::move(perS));
    rows.push_back(std::move(share));
  }
  return rows;
}

}  // namespace plumbline::compare
