#include "core/workload/session_estimate.h"

#include "core/workload/trace_replay.h"

#include <algorithm>

namespace plumbline::workload {

std::vector<uint64_t> requestInputTokens(const SessionPlan& s) {
  if (s.requests.empty()) return {static_cast<uint64_t>(s.prefixTokens) + s.inputTokens};
  std::vector<uint64_t> context(s.requests.size(), 0);
  std::vector<uint64_t> input(s.requests.size(), 0);
  for (size_t i = 0; i < s.requests.size(); ++i) {
    const SessionRequest& r = s.requests[i];
    uint64_t c = r.newTokens;
    if (r.text == RequestText::Reduce) {
      for (uint32_t p : r.parents) c += s.requests[p].outputTokens;
    } else if (!r.parents.empty()) {
      const uint32_t p = r.parents.front();
      c += context[p] + s.requests[p].outputTokens;
    }
    context[i] = c;
    input[i] = c + s.prefixTokens;
  }
  return input;
}

SessionTokens sessionTokens(const SessionPlan& s, std::optional<int64_t> maxTokens) {
  SessionTokens t;
  t.requests = s.requestCount();
  for (uint64_t in : requestInputTokens(s)) t.inputTokens += in;
  const auto asked = [&maxTokens](uint64_t drawn) {
    return maxTokens ? std::min<uint64_t>(drawn, static_cast<uint64_t>(*maxTokens)) : drawn;
  };
  if (s.requests.empty()) t.outputTokens = asked(s.outputTokens);
  for (const auto& r : s.requests) t.outputTokens += asked(r.outputTokens);
  return t;
}

SessionAverages averageSessions(const WorkloadSpec& spec, uint32_t samples) {
  // A replay has one session per selected row; draw no more than there are.
  if (spec.load.arrival == Arrival::Trace && spec.load.traceSchedule)
    samples = static_cast<uint32_t>(std::min<size_t>(samples, spec.load.traceSchedule->rows.size()));
  SessionAverages a;
  double requests = 0, input = 0, output = 0;
  std::vector<uint32_t> counts;
  for (uint32_t id = 0; id < samples && requests < static_cast<double>(kEstimateRequestBudget); ++id) {
    const SessionTokens t = sessionTokens(drawSession(spec, id), spec.requests.sampling.maxTokens);
    requests += static_cast<double>(t.requests);
    input += static_cast<double>(t.inputTokens);
    output += static_cast<double>(t.outputTokens);
    counts.push_back(static_cast<uint32_t>(t.requests));
  }
  a.sessions = static_cast<uint32_t>(counts.size());
  if (counts.empty()) return a;
  const double n = static_cast<double>(counts.size());
  a.requests = requests / n;
  a.inputTokens = input / n;
  a.outputTokens = output / n;
  std::nth_element(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(counts.size() / 2), counts.end());
  a.medianRequests = counts[counts.size() / 2];
  return a;
}

SessionEstimate estimateSessions(const WorkloadSpec& spec, uint32_t samples) {
  const SessionAverages a = averageSessions(spec, samples);
  SessionEstimate e;
  e.requestsPerSession = a.requests;
  e.inputTokensPerSession = a.inputTokens;
  e.outputTokensPerSession = a.outputTokens;
  if (spec.load.arrival == Arrival::Trace && spec.load.traceSchedule) {
    e.sessionRate = spec.load.traceSchedule->meanRate();
  } else {
    double sessions = 0;
    for (const auto& stage : spec.load.stages) sessions += expectedSessions(stage);
    const double duration = spec.totalDurationS();
    e.sessionRate = duration > 0 ? sessions / duration : 0;
  }
  e.requestRate = e.sessionRate * e.requestsPerSession;
  e.inputTokensPerS = e.sessionRate * e.inputTokensPerSession;
  e.outputTokensPerS = e.sessionRate * e.outputTokensPerSession;
  return e;
}

}  // namespace plumbline::workload
