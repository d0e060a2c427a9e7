#include "core/compare/metric_table.h"

#include <cmath>

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
    {"e2e_p50_ms", "end-to-end p50 (ms)", "e2e_ms", "p50", true},
    {"e2e_p99_ms", "end-to-end p99 (ms)", "e2e_ms", "p99", true},
    {"ttft_from_planned_p99_ms", "TTFT from planned p99 (ms)", "ttft_from_planned_ms", "p99", true},
    {"e2e_from_planned_p99_ms", "e2e from planned p99 (ms)", "e2e_from_planned_ms", "p99", true},
    {"send_lag_p99_ms", "send lag p99 (ms)", "send_lag_ms", "p99", true},
    {"input_tokens_per_s", "input tokens/s", "input_tokens_per_s", "", false},
    {"output_tokens_per_s", "output tokens/s", "output_tokens_per_s", "", false},
};

std::optional<double> errorRate(const ComparedRun& r) {
  if (!r.summary.is_object()) return std::nullopt;
  double errors = 0;
  if (auto e = r.summary.find("errors"); e != r.summary.end() && e->is_object())
    for (const auto& [cls, n] : e->items())
      if (n.is_number()) errors += n.get<double>();
  auto sent = r.summaryNumber("sent");
  if (!sent || *sent <= 0) return std::nullopt;
  return 100.0 * errors / *sent;
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

int MetricRow::direction(size_t run) const {
  auto d = absoluteDelta(run);
  if (neutral || !d || *d == 0) return 0;
  if (!judgedOn.empty()) {  // the share of what was asked, not the value
    if (run >= judgedOn.size() || !judgedOn[0] || !judgedOn[run]) return 0;
    d = *judgedOn[run] - *judgedOn[0];
    if (std::fabs(*d) < 1e-3 * std::max(1e-9, std::fabs(*judgedOn[0]))) return 0;
  } else if (resolution > 0 && std::fabs(*d) < resolution * std::fabs(*values[0])) {
    return 0;
  }
  return (*d < 0) == lowerIsBetter ? 1 : -1;
}

std::vector<MetricRow> metricTable(const std::vector<ComparedRun>& runs,
                                   const std::vector<Goodput>& goodput) {
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
    const char* asked = key == "achieved_rps" ? "requested_rps"
                        : key == "completed"  ? "planned"
                                              : nullptr;
    if (asked != nullptr)
      for (const auto& r : runs) {
        const auto value = r.summaryNumber(d.summaryKey), whole = r.summaryNumber(asked);
        row.judgedOn.push_back(value && whole && *whole > 0 ? std::optional(*value / *whole)
                                                            : std::nullopt);
      }
    if (d.sub[0] != '\0') row.resolution = 1.0 / 128;  // a latency percentile
    rows.push_back(std::move(row));
  }
  MetricRow errors{"error_rate_pct", "errors (% of sent)", true, {}};
  errors.percentage = true;
  for (const auto& r : runs) errors.values.push_back(errorRate(r));
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
    }
    rows.push_back(std::move(perS));
    rows.push_back(std::move(share));
  }
  return rows;
}

}  // namespace plumbline::compare
