#include "core/compare/compare_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace plumbline::compare {

namespace {

using Json = nlohmann::json;

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string printf1(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

template <typename T>
Json orNull(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}

Json runJson(const ComparedRun& r) {
  const auto& row = r.row;
  return Json{{"id", row.id},
              {"name", row.name},
              {"workload", row.workloadName},
              {"created_at", row.createdAt},
              {"status", row.status},
              {"verdict", orNull(row.verdict)},
              {"target", row.targetUrl},
              {"model", row.model},
              {"tool_version", row.toolVersion},
              {"tags", r.tags}};
}

Json pointJson(const LoadLatencyPoint& p) {
  return Json{{"label", p.label},
              {"start_s", p.startS},
              {"end_s", p.endS},
              {"requested_rps", p.requestedRps},
              {"completed_rps", p.completedRps},
              {"ttft_p50_ms", orNull(p.ttftP50Ms)},
              {"ttft_p99_ms", orNull(p.ttftP99Ms)},
              {"itl_p99_ms", orNull(p.itlP99Ms)},
              {"e2e_p99_ms", orNull(p.e2eP99Ms)}};
}

void printMetrics(const Comparison& c, std::ostream& out) {
  auto cell = [](const MetricRow& row, size_t i) {
    std::string text = valueText(row, i);
    if (i > 0 && row.values[i] && row.note(i).empty()) {
      const std::string judged = judgementText(row.judgement(i));
      text += " (" + deltaText(row, i) + (judged.empty() ? "" : "; " + judged) + ")";
    }
    return text;
  };
  size_t width = 30;  // wider when a note needs it: the columns stay aligned
  for (const MetricRow& row : c.metrics)
    for (size_t i = 0; i < c.runs.size(); ++i) width = std::max(width, cell(row, i).size() + 2);
  out << pad("metric", 30);
  for (size_t i = 0; i < c.runs.size(); ++i)
    out << pad("#" + std::to_string(c.runs[i].row.id) + (i == 0 ? " (baseline)" : ""), width);
  out << '\n';
  for (const MetricRow& row : c.metrics) {
    out << pad(row.label, 30);
    for (size_t i = 0; i < c.runs.size(); ++i) out << pad(cell(row, i), width);
    out << '\n';
  }
}

void printGoodput(const Comparison& c, std::ostream& out) {
  out << "\ngoodput: requests that succeeded with";
  const char* joint = "";
  if (c.slo.ttftMs) {
    out << " TTFT from planned <= " << figureText(c.slo.ttftMs) << " ms";
    joint = " and";
  }
  if (c.slo.ttfaMs) {
    out << joint << " TTFA (first answer token) from planned <= " << figureText(c.slo.ttfaMs)
        << " ms";
    joint = " and";
  }
  if (c.slo.itlMs) {
    out << joint << " mean inter-token gap <= " << figureText(c.slo.itlMs)
        << " ms (per token the server's usage counted, else the client's)";
    joint = " and";
  }
  if (c.slo.e2eMs)
    out << joint << " end-to-end from planned <= " << figureText(c.slo.e2eMs) << " ms";
  out << ", as a share of planned requests (one never sent did not meet it)\n";
  for (size_t i = 0; i < c.runs.size(); ++i)
    out << "  " << pad(c.runs[i].label(), 36) << ' ' << goodputText(c.goodput[i]) << '\n';
}

void printLoadLatency(const Comparison& c, std::ostream& out) {
  bool any = false;
  for (size_t i = 0; i < c.runs.size(); ++i) {
    if (c.loadLatency[i].size() < 2) continue;
    if (!any) out << "\nlatency vs throughput (sweep runs):\n";
    any = true;
    out << "  " << c.runs[i].label() << '\n';
    for (const auto& p : c.loadLatency[i])
      out << "    " << pad(p.label, 40) << " requested "
          << pad(printf1("%.1f/s", p.requestedRps), 10) << " completed "
          << pad(printf1("%.1f/s", p.completedRps), 10) << " ttft p99 "
          << pad(p.ttftP99Ms ? printf1("%.1f ms", *p.ttftP99Ms) : "-", 12) << " e2e p99 "
          << (p.e2eP99Ms ? printf1("%.1f ms", *p.e2eP99Ms) : "-") << '\n';
  }
}

}  // namespace

std::string figureText(std::optional<double> v) {
  if (!v) return "-";
  double a = std::fabs(*v);
  const char* format = a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f";
  if (*v == std::round(*v) && a < 1e15) format = "%.0f";
  return printf1(format, *v);
}

std::string valueText(const MetricRow& row, size_t run) {
  const std::string& note = row.note(run);
  const std::optional<double> value = run < row.values.size() ? row.values[run] : std::nullopt;
  if (!value) return note.empty() ? "-" : note;
  return note.empty() ? figureText(value) : figureText(value) + " (" + note + ")";
}

std::string gapBasisText(const Goodput& g) {
  const std::string client =
      "the client's count" + (g.clientOutputBasis.empty() ? "" : " (" + g.clientOutputBasis + ")");
  if (g.itlTokenBasis == "server") return "gaps per token of the server's usage";
  if (g.itlTokenBasis == "client") return "gaps per token of " + client;
  return "gaps per token of the server's usage where given, else of " + client;
}

std::string goodputText(const Goodput& g) {
  if (!g.judged) return "n/a (" + g.unjudgedReason + ")";
  std::string text = std::to_string(g.met) + " of " + std::to_string(g.planned) + " planned (" +
                     printf1("%.1f%%", 100 * g.fraction());
  if (g.notSent()) text += "; " + std::to_string(g.notSent()) + " never sent";
  text += "), " + printf1("%.2f req/s", g.perSecond());
  if (g.partial()) text += "; judged on " + g.judgedOn.names() + " only (" + g.unjudgedReason + ")";
  if (g.itlBasisDiffers) text += "; " + gapBasisText(g);
  return text;
}

std::string deltaText(const MetricRow& row, size_t run) {
  auto d = row.absoluteDelta(run);
  if (!d) return "-";
  std::string text = (*d >= 0 ? "+" : "") + figureText(*d) + (row.percentage ? " pp" : "");
  if (auto rel = row.relativeDelta(run)) text += ", " + printf1("%+.1f%%", *rel * 100);
  return text;
}

std::string judgementText(Judgement j) {
  if (!isBeyondNoise(j) && j != Judgement::WithinNoise && j != Judgement::TooFewSamples &&
      j != Judgement::BelowResolution)
    return {};
  std::string text(judgementName(j));
  std::replace(text.begin(), text.end(), '_', ' ');
  return text;
}

std::string noiseSummary(const Comparison& c) {
  std::string changed, fewRows, fewCounts;
  size_t noise = 0, few = 0;
  for (const MetricRow& row : c.metrics) {
    std::string name = row.label;  // "TTFT p99 (ms)": "TTFT p99"
    if (name.ends_with(" (ms)")) name.resize(name.size() - 5);
    bool rowFew = false;
    for (size_t i = 1; i < c.runs.size(); ++i) {
      const Judgement j = row.judgement(i);
      noise += j == Judgement::WithinNoise || j == Judgement::BelowResolution ? 1 : 0;
      if (j == Judgement::TooFewSamples) {
        ++few;
        rowFew = true;
      }
      if (!isBeyondNoise(j)) continue;
      std::string change = deltaText(row, i);
      if (const size_t comma = change.find(", "); comma != std::string::npos)
        change = change.substr(comma + 2);  // the relative change where there is one
      changed += (changed.empty() ? "" : ", ") + name + " " + judgementText(j) + " in #" +
                 std::to_string(c.runs[i].row.id) + " (" + change + ")";
    }
    if (!rowFew) continue;
    fewRows += (fewRows.empty() ? "" : ", ") + name;
    if (!fewCounts.empty()) continue;  // the sample counts of the first such row
    for (size_t i = 0; i < c.runs.size() && i < row.intervals.size(); ++i)
      if (row.intervals[i])
        fewCounts += (fewCounts.empty() ? "" : ", ") + std::string("#") +
                     std::to_string(c.runs[i].row.id) + " " +
                     std::to_string(row.intervals[i]->samples);
    fewCounts = name + " from " + fewCounts + " samples";
  }
  std::string rest =
      noise ? std::to_string(noise) + (noise == 1 ? " change" : " changes") + " within it"
            : std::string();
  if (few)
    rest += (rest.empty() ? "" : "; ") + std::to_string(few) +
            " not judged, too few samples: " + fewRows + " (" + fewCounts + "; a p99 needs " +
            std::to_string(samplesToBound(0.99)) + ", a p90 " +
            std::to_string(samplesToBound(0.90)) + ")";
  if (changed.empty())
    return "No figure changed beyond sampling noise (95%)" + (rest.empty() ? "" : ": " + rest) +
           ".";
  return "Beyond sampling noise (95%): " + changed + "." +
         (rest.empty() ? "" : " Otherwise " + rest + ".");
}

void printComparison(const Comparison& c, std::ostream& out) {
  if (c.warnings.empty()) {
    out << "comparability: no warnings\n";
  } else {
    out << "comparability warnings (" << c.warnings.size() << "):\n";
    for (const auto& w : c.warnings)
      out << "  ! [" << warningKindName(w.kind) << "] " << w.message << '\n';
  }
  out << "\nruns (deltas against the first):\n";
  for (const auto& r : c.runs)
    out << "  " << pad(r.label(), 36) << " verdict " << pad(r.row.verdict.value_or("none"), 16)
        << " " << r.row.createdAt << "  model " << r.row.model << '\n';
  out << '\n';
  printMetrics(c, out);
  out << '\n' << noiseSummary(c) << '\n';
  if (c.slo.any()) printGoodput(c, out);
  printLoadLatency(c, out);
}

Json comparisonToJson(const Comparison& c) {
  Json j;
  j["runs"] = Json::array();
  for (const auto& r : c.runs) j["runs"].push_back(runJson(r));
  j["warnings"] = Json::array();
  for (const auto& w : c.warnings)
    j["warnings"].push_back(
        {{"kind", std::string(warningKindName(w.kind))}, {"message", w.message}, {"run_ids", w.runIds}});
  j["slo"] = {{"ttft_ms", orNull(c.slo.ttftMs)},
              {"itl_ms", orNull(c.slo.itlMs)},
              {"e2e_ms", orNull(c.slo.e2eMs)},
              {"ttfa_ms", orNull(c.slo.ttfaMs)}};
  j["metrics"] = Json::array();
  for (const auto& row : c.metrics) {
    Json values = Json::array(), abs = Json::array(), rel = Json::array();
    Json judged = Json::array(), intervals = Json::array();
    for (size_t i = 0; i < row.values.size(); ++i) {
      values.push_back(orNull(row.values[i]));
      abs.push_back(orNull(row.absoluteDelta(i)));
      rel.push_back(orNull(row.relativeDelta(i)));
      judged.push_back(std::string(judgementName(row.judgement(i))));
      const auto& interval = i < row.intervals.size() ? row.intervals[i] : std::nullopt;
      intervals.push_back(interval ? Json{{"low", orNull(interval->low)},
                                          {"high", orNull(interval->high)},
                                          {"samples", interval->samples},
                                          {"values", interval->values}}
                                   : Json(nullptr));
    }
    // interval_95: a percentile's distribution-free 95% interval (an end null where the samples
    // cannot bound it); judgement: better, worse, within_noise, too_few_samples, ...
    j["metrics"].push_back({{"key", row.key},
                            {"label", row.label},
                            {"lower_is_better", row.lowerIsBetter},
                            {"values", values},
                            {"abs_delta", abs},
                            {"rel_delta", rel},
                            {"judgement", judged},
                            {"interval_95", intervals}});
  }
  j["goodput"] = Json::array();
  for (size_t i = 0; i < c.goodput.size(); ++i) {
    const Goodput& g = c.goodput[i];
    // met, per_s and fraction are null when no set limit could be judged, never a false 0;
    // fraction is of `planned` (never-sent requests included).
    j["goodput"].push_back(
        {{"run_id", c.runs[i].row.id},
         {"planned", g.planned},
         {"requests", g.requests},
         {"not_sent", g.notSent()},
         {"met", g.judged ? Json(g.met) : Json(nullptr)},
         {"per_s", g.judged ? Json(g.perSecond()) : Json(nullptr)},
         {"fraction", g.judged ? Json(g.fraction()) : Json(nullptr)},
         {"fraction_of", "planned"},
         {"itl_token_basis", g.itlTokenBasis.empty() ? Json(nullptr) : Json(g.itlTokenBasis)},
         {"not_judged_reason", g.unjudgedReason.empty() ? Json(nullptr) : Json(g.unjudgedReason)}});
  }
  j["cdfs"] = Json::array();
  for (const auto& cdf : c.cdfs) {
    Json points = Json::array();
    for (const auto& p : cdf.points) points.push_back({p.valueMs, p.fraction});
    j["cdfs"].push_back(
        {{"run_id", cdf.runId}, {"metric", cdf.metric}, {"count", cdf.count}, {"points", points}});
  }
  j["load_latency"] = Json::array();
  for (size_t i = 0; i < c.runs.size(); ++i) {
    Json points = Json::array();
    for (const auto& p : c.loadLatency[i]) points.push_back(pointJson(p));
    j["load_latency"].push_back({{"run_id", c.runs[i].row.id}, {"points", points}});
  }
  j["series"] = Json::object();
  for (size_t m = 0; m < kSeriesMetricCount; ++m) {
    Json perRun = Json::array();
    for (size_t i = 0; i < c.runs.size(); ++i) {
      Json points = Json::array();
      for (const auto& p : c.series[i][m]) points.push_back({p.tS, p.value});
      perRun.push_back({{"run_id", c.runs[i].row.id}, {"points", points}});
    }
    j["series"][std::string(seriesMetricName(static_cast<SeriesMetric>(m)))] = perRun;
  }
  return j;
}

}  // namespace plumbline::compare
