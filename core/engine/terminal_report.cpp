#include "core/engine/terminal_report.h"

#include <cinttypes>
#include <cstdio>

#include "core/metrics/latency_text.h"

namespace plumbline::engine {

namespace {
void line(std::string& out, const char* fmt, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, args...);
  out += buf;
  out += '\n';
}

void latencyRow(std::string& out, const char* name, const metrics::Percentiles& p) {
  if (p.empty()) {  // no request got this far: zeros here would read as latencies
    line(out, "  %-20s %10s %10s %10s %10s  (no samples)", name, "-", "-", "-", "-");
    return;
  }
  line(out, "  %-20s %10s %10s %10s %10s", name, metrics::latencyMsText(p.p50).c_str(),
       metrics::latencyMsText(p.p90).c_str(), metrics::latencyMsText(p.p99).c_str(),
       metrics::latencyMsText(p.max).c_str());
}
/// Which counts the rates used, and both sides' totals with what the client's mean.
std::string tokenCountLines(const metrics::RunSummary& s) {
  std::string out;
  if (s.completed == 0) {  // QA: "the server's (usage) … (0 requests)" when nothing replied
    out += "  token counts: none (no request completed)\n";
    return out;
  }
  const char* used = s.tokenCountSource == "server"   ? "the server's (usage)"
                     : s.tokenCountSource == "client" ? "the client's (no request had usage)"
                                                      : "the server's where reported, else the client's";
  line(out, "  token counts used for the rates: %s", used);
  line(out, "    server (usage): in %" PRIu64 "  out %" PRIu64 "  (%" PRIu64 " requests)", s.serverInputTokens,
       s.serverOutputTokens, s.requestsWithServerCounts);
  // No client count of the output at all (a whole body without a tokenizer) is "-", not 0.
  const std::string clientOut =
      s.clientOutputTokens ? std::to_string(*s.clientOutputTokens) : std::string("-");
  line(out, "    client:         in %" PRIu64 "  out %s", s.clientInputTokens, clientOut.c_str());
  if (!s.clientInputCount.empty()) line(out, "      client in:  %s", s.clientInputCount.c_str());
  if (!s.clientOutputCount.empty()) line(out, "      client out: %s", s.clientOutputCount.c_str());
  return out;
}
}  // namespace

std::string formatRunReport(const metrics::RunSummary& s, const std::vector<std::string>& notes) {
  std::string out;
  out += "verdict: " +
         (s.verdict.nothingDue ? std::string("none (no request came due)")
                               : metrics::verdictName(s.verdict.kind)) +
         "\n";
  for (const auto& r : s.verdict.reasons) out += "  - " + r + "\n";
  for (const auto& n : notes) out += "  note: " + n + "\n";
  uint64_t errors = 0;
  for (const auto& [cls, n] : s.errors) errors += n;
  line(out, "  planned %" PRIu64 "  sent %" PRIu64 "  completed %" PRIu64 "  failed %" PRIu64 "  not sent %" PRIu64,
       s.planned, s.sent, s.completed, errors, s.notSent);
  if (errors != 0) {
    std::string byClass = "  failed by class:";
    for (const auto& [cls, n] : s.errors) byClass += " " + cls + " " + std::to_string(n);
    out += byClass + "\n";
  }
  for (const auto& [cls, sample] : s.failureSamples)
    out += "    " + metrics::describeFirstFailure(cls, sample) + "\n";
  if (s.retryAfterResponses != 0)
    line(out, "  retry-after: %" PRIu64 " %s asked to wait %s (not obeyed: the plan was kept)",
         s.retryAfterResponses, s.retryAfterResponses == 1 ? "reply" : "replies",
         metrics::retryAfterWaitText(s.retryAfterMinMs, s.retryAfterMaxMs).c_str());
  line(out, "  requested %.2f rps  achieved %.2f rps  over %.2f s", s.requestedRps, s.achievedRps, s.durationS);
  // Requested is the schedule as drawn; what the workload asked for, in its own terms (QA: the
  // user's --rate 20 appeared nowhere beside "requested 20.93 rps").
  if (!s.askedLoad.empty()) line(out, "  asked: %s", s.askedLoad.c_str());
  line(out, "  %-20s %10s %10s %10s %10s", "latency (ms)", "p50", "p90", "p99", "max");
  latencyRow(out, "send lag", s.sendLagMs);
  latencyRow(out, "ttft", s.ttftMs);
  // Only a model that thought first has an answer apart; otherwise TTFT is the answer's.
  if (s.thoughtFirst > 0) latencyRow(out, "ttfa (answer)", s.answerMs);
  latencyRow(out, "inter-token", s.itlMs);
  if (!s.tpotMs.empty()) latencyRow(out, "tpot (per token)", s.tpotMs);  // streams only
  latencyRow(out, "end-to-end", s.e2eMs);
  latencyRow(out, "ttft from planned", s.ttftFromPlannedMs);
  latencyRow(out, "e2e from planned", s.e2eFromPlannedMs);
  latencyRow(out, "upload", s.uploadMs);
  if (s.thoughtFirst > 0)
    out += "  " + metrics::thoughtFirstText(s.thoughtFirst, s.completed) + "\n";
  if (const std::string perEvent = metrics::tokensPerEventText(s.tokensPerEvent, s.tokenCountSource);
      !perEvent.empty())
    out += "  " + perEvent + "\n";
  if (metrics::heldIsANote(s.heldRequests, s.completed))
    out += "  " + metrics::heldText(s.heldRequests, s.completed, s.heldMaxMs, s.holdToleranceMs) +
           " (within the 1% a p99 leaves out)\n";
  if (s.completed == 0) {
    out += "  tokens/s  -  (no request completed)\n";
  } else {
    char outRate[32] = "-";  // no completed request had an output count
    if (s.outputTokensPerS) std::snprintf(outRate, sizeof outRate, "%.1f", *s.outputTokensPerS);
    line(out, "  tokens/s  in %.1f  out %s  over %s  (counts: %s)", s.inputTokensPerS, outRate,
         metrics::tokensSpanText(s.tokensSpanS, s.durationS).c_str(), s.tokenCountSource.c_str());
  }
  out += tokenCountLines(s);
  line(out, "  prompt tokens: %s", s.promptTokensBasis.c_str());
  line(out, "  timed by: %s", metrics::httpClientText(s.httpClient).c_str());
  return out;
}

}  // namespace plumbline::engine
