#include "core/workload/arrival_preview.h"

#include <cmath>
#include <cstdio>

#include "core/workload/trace_replay.h"

namespace plumbline::workload {
namespace {

std::string formatLine(const char* format, auto... args) {
  char buffer[768];
  std::snprintf(buffer, sizeof buffer, format, args...);
  return buffer;
}

}  // namespace

const char* arrivalName(Arrival arrival) {
  switch (arrival) {
    case Arrival::Constant: return "constant";
    case Arrival::Poisson: return "poisson";
    case Arrival::Gamma: return "gamma";
    case Arrival::Trace: return "trace";
  }
  return "constant";
}

void ArrivalStatsBuilder::add(int64_t plannedNs) {
  if (m_count++ > 0) {
    const double gap = static_cast<double>(plannedNs - m_previousNs) * 1e-9;
    ++m_gaps;
    const double delta = gap - m_mean;
    m_mean += delta / static_cast<double>(m_gaps);
    m_m2 += delta * (gap - m_mean);
  }
  m_previousNs = plannedNs;
}

ArrivalStats ArrivalStatsBuilder::finish(double durationS) const {
  ArrivalStats stats;
  stats.meanRate = durationS > 0 ? static_cast<double>(m_count) / durationS : 0;
  stats.gapMeanS = m_mean;
  if (m_gaps >= 2 && m_mean > 0)
    stats.gapCv = std::sqrt(m_m2 / static_cast<double>(m_gaps - 1)) / m_mean;
  return stats;
}

std::optional<TracePreview> makeTracePreview(const WorkloadSpec& spec) {
  if (!spec.load.trace || !spec.load.traceSchedule) return std::nullopt;
  const TraceSpec& trace = *spec.load.trace;
  const TraceSchedule& schedule = *spec.load.traceSchedule;
  TracePreview out;
  out.file = trace.file;
  out.format = traceFormatName(trace.format);
  out.rowsInFile = schedule.rowsInFile;
  out.rowsUsed = schedule.rows.size();
  if (!schedule.rows.empty()) {
    out.firstLine = schedule.rows.front().line;
    out.lastLine = schedule.rows.back().line;
  }
  out.traceSpanS = schedule.traceSpanS;
  out.timeScale = trace.timeScale;
  out.replaySpanS = schedule.durationS;
  out.traceRate = schedule.durationS > 0
                      ? static_cast<double>(out.rowsUsed) / (schedule.durationS / trace.timeScale)
                      : 0;
  out.scaledRate = schedule.meanRate();
  out.lengthsFromTrace = trace.lengthsFromTrace;
  return out;
}

std::string formatArrivalPreview(const PlanPreview& preview, const WorkloadSpec& spec) {
  std::string out;
  const ArrivalStats& a = preview.arrivals;
  out += formatLine("arrivals  mean %.2f sessions/s  mean gap %.4f s  gap CV %.3f", a.meanRate,
                    a.gapMeanS, a.gapCv);
  if (spec.load.arrival == Arrival::Gamma) out += formatLine("  (configured cv %.3g)", spec.load.cv);
  out += "\n";
  if (const auto& t = preview.trace) {
    out += formatLine("trace     %s (%s)  rows %llu of %llu (lines %llu-%llu)  lengths from %s\n",
                      t->file.c_str(), t->format.c_str(),
                      static_cast<unsigned long long>(t->rowsUsed),
                      static_cast<unsigned long long>(t->rowsInFile),
                      static_cast<unsigned long long>(t->firstLine),
                      static_cast<unsigned long long>(t->lastLine),
                      t->lengthsFromTrace ? "the trace" : "the workload");
    // The window replayed, in trace time, times the scale: the product is the replay's length
    // (QA: "span 7.526 s x 0.5 = 4.000 s" multiplied the rows' span, not the window).
    out += formatLine(
        "          %.3f s of trace time (its rows %.3f s apart, first to last) x time_scale %.3g "
        "= %.3f s replayed; %.2f rows/s in the trace, %.2f/s replayed\n",
        t->timeScale > 0 ? t->replaySpanS / t->timeScale : 0.0, t->traceSpanS, t->timeScale,
        t->replaySpanS, t->traceRate, t->scaledRate);
  }
  return out;
}

void addArrivalPreviewJson(const PlanPreview& preview, nlohmann::json& out) {
  out["arrival_stats"] = {{"mean_rate", preview.arrivals.meanRate},
                          {"gap_mean_s", preview.arrivals.gapMeanS},
                          {"gap_cv", preview.arrivals.gapCv}};
  if (const auto& t = preview.trace) {
    out["trace"] = {{"file", t->file},
                    {"format", t->format},
                    {"rows_in_file", t->rowsInFile},
                    {"rows_used", t->rowsUsed},
                    {"first_line", t->firstLine},
                    {"last_line", t->lastLine},
                    {"trace_span_s", t->traceSpanS},
                    {"time_scale", t->timeScale},
                    {"replay_span_s", t->replaySpanS},
                    {"trace_rate", t->traceRate},
                    {"scaled_rate", t->scaledRate},
                    {"lengths", t->lengthsFromTrace ? "trace" : "workload"}};
  }
}

}  // namespace plumbline::workload
