#include "core/workload/workload_warnings.h"

#include <cmath>
#include <cstdio>

#include "core/workload/embedded_capacity.h"
#include "core/workload/length_histogram.h"
#include "core/workload/planner.h"
#include "core/workload/session_preview.h"
#include "core/workload/trace_replay.h"
#include "core/workload/workload_error.h"

namespace plumbline::workload {
namespace {

/// A p99 of fewer requests than this rests on fewer than 10 values above it.
constexpr double kRequestsForP99 = 1000;
/// Below this many sessions a stage's rate is mostly noise, and too short to hold.
constexpr double kSessionsPerStage = 10;
/// Verdict windows are 1 s; fewer than this many make a thin verdict.
constexpr double kShortRunS = 10;
/// A gamma schedule's opening burst past 1/this of its sessions changes its mean rate (5%).
constexpr double kGammaBurstDivisor = 20;

std::string format(const char* text, auto... args) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, text, args...);
  return buffer;
}

/// `extra` body fields that change how long the replies are, or how many there are.
constexpr const char* kLengthChangingExtras[] = {"n", "best_of", "max_completion_tokens",
                                                 "min_tokens"};

void samplingWarnings(const WorkloadSpec& spec, double outputP99,
                      std::vector<WorkloadWarning>& out) {
  const SamplingSpec& s = spec.requests.sampling;
  const std::string base = "requests.sampling.";
  for (const char* key : kLengthChangingExtras) {
    if (!s.extra.contains(key)) continue;
    out.push_back({base + "extra." + key,
                   "sent as written, but it changes the replies' length or number: the "
                   "output length check (with ignore_eos) compares the server's output tokens "
                   "against the planned length, and may blame a server that did as asked"});
  }
  if (!s.temperature) {
    out.push_back({base + "temperature",
                   "no temperature: the server's default applies, and defaults differ (0.7, "
                   "1.0...); set it so runs on different servers compare"});
  } else if (*s.temperature == 0) {
    out.push_back({base + "temperature",
                   "temperature 0 (greedy) is not how production samples: speculative decoding "
                   "and caches look better than they will, and runs at 0 do not compare with "
                   "runs at 0.7"});
  }
  if (!s.ignoreEos.value_or(false)) {
    out.push_back({base + "ignore_eos",
                   "without ignore_eos, replies stop at the model's end-of-sequence token: output "
                   "lengths follow the model, not requests.output_tokens, and differ between "
                   "servers"});
  } else if (s.maxTokens && static_cast<double>(*s.maxTokens) < outputP99) {
    out.push_back({base + "max_tokens",
                   format("max_tokens %lld cuts the drawn output lengths (p99 %.0f): with "
                          "ignore_eos every reply runs to the cap instead of its drawn length",
                          static_cast<long long>(*s.maxTokens), outputP99)});
  }
}

double requestsPerSession(const WorkloadSpec& spec) {
  const auto it = spec.document.find("session");
  if (it == spec.document.end()) return 1;
  try {
    return previewSession(*it, spec.requests.inputTokens, spec.requests.outputTokens, "session").requests;
  } catch (const WorkloadError&) {
    return 1;  // the loader reports a bad session; warnings only estimate
  }
}

struct Peak {
  double rate = 0;
  std::string path;
};

Peak peakStage(const LoadSpec& load) {
  Peak peak;
  for (size_t i = 0; i < load.stages.size(); ++i) {
    const Stage& stage = load.stages[i];
    const std::string path = "load.stages[" + std::to_string(i) + "]";
    if (stage.endRate > peak.rate) peak = {stage.endRate, path + (stage.isRamp() ? ".ramp_to" : ".rate")};
    if (stage.startRate > peak.rate) peak = {stage.startRate, path + ".rate"};
  }
  return peak;
}

/// "trace.csv line 7", "trace.csv lines 7, 9 and 12", "trace.csv lines 7, 9, 12 and 4 more".
std::string zeroLengthLines(const TraceSchedule& schedule, const std::string& file) {
  const auto& lines = schedule.zeroLengthLines;
  std::string out = file + (schedule.zeroLengthRows == 1 ? " line " : " lines ");
  for (size_t i = 0; i < lines.size(); ++i) {
    const bool last = i + 1 == lines.size() && schedule.zeroLengthRows == lines.size();
    out += (i == 0 ? "" : last ? " and " : ", ") + std::to_string(lines[i]);
  }
  if (schedule.zeroLengthRows > lines.size())
    out += " and " + std::to_string(schedule.zeroLengthRows - lines.size()) + " more";
  return out;
}

void traceWarnings(const WorkloadSpec& spec, std::vector<WorkloadWarning>& out) {
  if (auto raised = zeroLengthRowsWarning(spec)) out.push_back(std::move(*raised));
  const TraceSchedule* schedule = spec.load.traceSchedule.get();
  if (!schedule || schedule->windowPastEndS <= 0) return;
  out.push_back({"load.trace.window_s",
                 format("the window (%.3f s on the run's clock) reaches past the trace's last row, "
                        "%.3f s in: the replay ends there and its rates are over %.3f s",
                        schedule->windowPastEndS, schedule->durationS, schedule->durationS)});
}

/// A gamma schedule starts at an arrival, inside a burst: a renewal process started so plans
/// about (cv² − 1) / 2 sessions beyond rate × duration (measured: 450 at cv 30, 5,000 at 100).
void gammaBurstWarning(const LoadSpec& load, std::vector<WorkloadWarning>& out) {
  if (load.arrival != Arrival::Gamma) return;
  double sessions = 0;
  for (const Stage& stage : load.stages) sessions += expectedSessions(stage);
  const double extra = (load.cv * load.cv - 1) / 2;
  if (!(extra * kGammaBurstDivisor > sessions)) return;
  out.push_back(
      {"load.cv", format("cv %g opens the schedule with a burst of about %.0f sessions beyond "
                         "rate × duration (%.0f%% more than its %.0f): the mean rate will be "
                         "above the rate asked for; a schedule of %.0f sessions or more keeps "
                         "it under 5%%, or lower cv",
                         load.cv, extra, 100 * extra / sessions, sessions,
                         std::ceil(extra * kGammaBurstDivisor))});
}

/// Where a think time or tool latency centres (its value, mean or median; uniform's midpoint).
double delayCentreS(const SecondsDist& delay) {
  return delay.kind == DistKind::Uniform ? (delay.p1 + delay.p2) / 2 : delay.p1;
}

/// A delay longer than the whole schedule is most likely milliseconds written as seconds.
void delayWarning(const WorkloadSpec& spec, std::vector<WorkloadWarning>& out) {
  const SessionShape shape = spec.session.kind;
  if (shape != SessionShape::MultiTurn && shape != SessionShape::Agentic) return;
  const double centreS = delayCentreS(spec.session.delay);
  const double scheduleS = spec.totalDurationS();
  if (!(centreS > scheduleS)) return;
  const bool think = shape == SessionShape::MultiTurn;
  out.push_back({think ? "session.think_time_s" : "session.tool_latency_s",
                 format("%s of about %g s is longer than the whole schedule (%g s): every "
                        "session's later requests come after it, and the run stays open for "
                        "them; the unit is seconds, not milliseconds",
                        think ? "a think time" : "a tool latency", centreS, scheduleS)});
}

/// --rate or --duration alone keeps one stage: the file's ramps and later stages are dropped
/// (QA: 10/s, a ramp to 80/s, 0/s and 20/s ran as a flat 10/s with no word).
void flattenedStagesWarning(const LoadSpec& load, std::vector<WorkloadWarning>& out) {
  if (load.flattenedStages.empty() || load.stages.empty()) return;
  const Stage& kept = load.stages.front();
  const size_t count = load.flattenedStages.size();
  const bool duration = load.flattenedBy == "--duration";
  out.push_back({load.flattenedBy,
                 format("the workload's %s replaced by one stage of %g sessions/s for %g s%s; "
                        "give both --rate and --duration to mean that, or edit the stages to "
                        "keep the profile",
                        count == 1 ? "ramp was" : (std::to_string(count) + " stages were").c_str(),
                        kept.startRate, kept.durationS,
                        duration ? " (the first stage's rate)" : " (their length)")});
}

void loadWarnings(const WorkloadSpec& spec, double meanIn, double meanOut,
                  std::vector<WorkloadWarning>& out) {
  const double perSession = requestsPerSession(spec);
  const Peak peak = peakStage(spec.load);
  const double peakRequests = peak.rate * perSession;
  const double temperature = spec.requests.sampling.temperature.value_or(0.7);
  if (const auto capacity = embeddedCapacity(spec.target, meanIn, meanOut, temperature)) {
    if (capacity->maxRps && peakRequests > *capacity->maxRps) {
      out.push_back({peak.path,
                     format("about %.0f requests/s at peak is past what the embedded '%s' "
                            "simulator serves at these lengths (about %.0f/s): latency will be "
                            "its queue",
                            peakRequests, capacity->preset.c_str(), *capacity->maxRps)});
    }
    const double inFlight = peakRequests * capacity->latencyS;
    if (inFlight > static_cast<double>(spec.load.maxInFlight)) {
      out.push_back({"load.max_in_flight",
                     format("about %.0f requests in flight at peak (%.0f/s × %.2f s each) but "
                            "max_in_flight is %lld: the harness will hold sends back",
                            inFlight, peakRequests, capacity->latencyS,
                            static_cast<long long>(spec.load.maxInFlight))});
    }
  }
  double expectedRequests = 0;
  for (size_t i = 0; i < spec.load.stages.size(); ++i) {
    const double sessions = expectedSessions(spec.load.stages[i]);
    expectedRequests += sessions * perSession;
    if (sessions < kSessionsPerStage && spec.load.stages.size() > 1) {
      out.push_back({"load.stages[" + std::to_string(i) + "].duration_s",
                     format("this stage plans about %.1f sessions: too short for its rate to "
                            "be held or measured",
                            sessions)});
    }
  }
  // A replay's length and count come from its trace window, not from stages it does not have.
  const std::string where = spec.load.trace ? "load.trace" : "load.stages";
  if (spec.totalDurationS() < kShortRunS) {
    out.push_back(
        {where, format("%.1f s in all: the verdict judges 1 s windows, and a run this short "
                       "is mostly warm-up",
                       spec.totalDurationS())});
  }
  if (expectedRequests < kRequestsForP99) {
    const double above = std::floor(expectedRequests / 100);
    out.push_back(
        {where,
         above < 1
             ? format("about %.0f requests in all: their p99 is no more than their slowest; plan "
                      "at least 1000 for a p99 with 10 values above it",
                      expectedRequests)
             : format("about %.0f requests in all: their p99 has %.0f %s above it; plan at "
                      "least 1000 for 10",
                      expectedRequests, above, above == 1 ? "value" : "values")});
  }
}

}  // namespace

std::optional<WorkloadWarning> zeroLengthRowsWarning(const WorkloadSpec& spec) {
  const TraceSchedule* schedule = spec.load.traceSchedule.get();
  if (!schedule || !spec.load.trace || !spec.load.trace->lengthsFromTrace ||
      schedule->zeroLengthRows == 0)
    return std::nullopt;
  std::vector<std::string> fields;
  if (schedule->zeroInputRows > 0)
    fields.push_back(format("%zu with 0 input", schedule->zeroInputRows));
  if (schedule->zeroOutputRows > 0)
    fields.push_back(format("%zu with 0 output", schedule->zeroOutputRows));
  const std::string which = fields.size() == 2 ? fields[0] + ", " + fields[1] : fields[0];
  return WorkloadWarning{
      "load.trace",
      format(
          "%zu of the %zu replayed rows %s a 0 length (%s tokens) and %s sent with 1 instead, as a "
          "request asks for at least one token of each (",
          schedule->zeroLengthRows, schedule->rows.size(),
          schedule->zeroLengthRows == 1 ? "has" : "have", which.c_str(),
          schedule->zeroLengthRows == 1 ? "is" : "are") +
          zeroLengthLines(*schedule, spec.load.trace->file) + ")"};
}

std::vector<WorkloadWarning> workloadWarnings(const WorkloadSpec& spec) {
  constexpr uint64_t kSeed = 1;
  const LengthHistogram input = lengthHistogram(spec.requests.inputTokens, kSeed, 4000, 1);
  const LengthHistogram output = lengthHistogram(spec.requests.outputTokens, kSeed, 4000, 1);
  std::vector<WorkloadWarning> out;
  traceWarnings(spec, out);
  flattenedStagesWarning(spec.load, out);
  gammaBurstWarning(spec.load, out);
  loadWarnings(spec, input.mean, output.mean, out);
  delayWarning(spec, out);
  samplingWarnings(spec, output.p99, out);
  return out;
}

nlohmann::json warningsJson(const std::vector<WorkloadWarning>& warnings) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& w : warnings) out.push_back({{"path", w.path}, {"message", w.message}});
  return out;
}

}  // namespace plumbline::workload
