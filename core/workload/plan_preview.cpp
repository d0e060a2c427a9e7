#include "core/workload/plan_preview.h"

#include "core/workload/prompt_materials.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/workload/arrival_preview.h"
#include "core/workload/length_dist_parser.h"
#include "core/workload/nearest_rank.h"
#include "core/workload/planner.h"
#include "core/workload/prefix_reuse.h"
#include "core/workload/session_estimate.h"

namespace plumbline::workload {
namespace {

LengthSummary summarize(std::vector<uint32_t>& values) {
  LengthSummary summary;
  if (values.empty()) return summary;
  std::sort(values.begin(), values.end());
  for (uint32_t v : values) summary.total += v;
  summary.min = values.front();
  summary.max = values.back();
  summary.p1 = nearestRank(values, 1);
  summary.p10 = nearestRank(values, 10);
  summary.p50 = nearestRank(values, 50);
  summary.p90 = nearestRank(values, 90);
  summary.p99 = nearestRank(values, 99);
  summary.mean = static_cast<double>(summary.total) / static_cast<double>(values.size());
  return summary;
}

std::string formatText(const char* format, auto... args) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, format, args...);
  return buffer;
}

nlohmann::json lengthJson(const LengthSummary& s) {
  return {{"min", s.min}, {"p1", s.p1},   {"p10", s.p10},   {"p50", s.p50},    {"p90", s.p90},
          {"p99", s.p99}, {"max", s.max}, {"mean", s.mean}, {"total", s.total}};
}

std::string lengthLine(const char* label, const LengthSummary& s, const LengthDist& dist,
                       const WorkloadSpec& spec) {
  const bool fromTrace = spec.load.trace && spec.load.trace->lengthsFromTrace;
  std::string source = fromTrace ? "trace"
                       : dist.source.is_object() && dist.source.value("dist", "") == "sharegpt" ? "sharegpt"
                                                                                               : distKindName(dist.kind);
  // Input lengths of shaped sessions and shared prefixes are more than the drawn new text.
  const bool context = spec.session.kind != SessionShape::Single || spec.requests.sharedPrefix.groups > 0;
  if (context && std::string(label) == "input") source += "+context";
  if (spec.requests.sampling.maxTokens && std::string(label) == "output") source += "+max_tokens";
  return formatText(
      "  %-7s %-18s min %-6u p1 %-6u p10 %-6u p50 %-6u p90 %-6u p99 %-6u max %-6u "
      "mean %.1f\n",
      label, source.c_str(), s.min, s.p1, s.p10, s.p50, s.p90, s.p99, s.max, s.mean);
}

/// "sharegpt chat.json (38 of 40 entries usable, 5 of them led by a system turn sent with the
/// prompt, 3 truncated to 256 tokens)  token counts: tokenizer: qwen3/…"
std::string promptLine(const PromptSpec& prompt) {
  std::string line = prompt.source;
  if (prompt.sharegpt) {
    line += " " + prompt.sharegpt->file;
    if (prompt.materials && prompt.materials->sharegpt) {
      const auto& g = *prompt.materials->sharegpt;
      line += formatText(
          " (%zu of %zu entries usable, %zu of them led by a system turn sent with the prompt, "
          "%zu truncated to %lld tokens)",
          g.prompts().size(), g.entries, g.withSystemTurn, g.truncatedInputs,
          static_cast<long long>(prompt.sharegpt->maxInputTokens));
    }
  }
  return line + "  token counts: " + prompt.basis();
}

/// What the prefix reuse is made of, for the reader: " (shared system prompt, resent
/// conversations)"; "" when there is none to name.
std::string prefixReuseSources(const WorkloadSpec& spec) {
  std::vector<std::string> parts;
  if (spec.requests.sharedPrefix.groups > 0) parts.push_back("shared system prompts");
  if (spec.session.kind != SessionShape::Single && spec.session.kind != SessionShape::Summarize)
    parts.push_back("resent conversations");
  const bool blocks = spec.load.trace && spec.load.trace->lengthsFromTrace &&
                      spec.load.trace->format == TraceFormat::MooncakeJsonl;
  if (blocks) parts.push_back("Mooncake hash_id blocks, 512 tokens each");
  std::string out;
  for (const auto& part : parts) out += (out.empty() ? " (" : ", ") + part;
  return out.empty() ? out : out + ")";
}

}  // namespace

PlanPreview buildPreview(const WorkloadSpec& spec) {
  PlanPreview preview;
  preview.durationS = spec.totalDurationS();
  double startS = 0;
  for (size_t i = 0; i < spec.load.stages.size(); ++i) {
    const Stage& stage = spec.load.stages[i];
    StagePreview row;
    row.index = static_cast<uint32_t>(i);
    row.startS = startS;
    row.endS = startS + stage.durationS;
    row.startRate = stage.startRate;
    row.endRate = stage.endRate;
    row.expectedSessions = expectedSessions(stage);
    row.expectedRequestRate = row.expectedSessions / stage.durationS;  // scaled below for sessions
    preview.stages.push_back(row);
    startS = row.endS;
  }

  double expectedTotal = 0;
  for (const auto& row : preview.stages) expectedTotal += row.expectedSessions;
  std::vector<uint32_t> inputs, outputs;
  const auto reserve = static_cast<size_t>(expectedTotal * 1.05 + 64);
  inputs.reserve(reserve);
  outputs.reserve(reserve);

  Planner planner(spec);
  SessionPlan session;
  ArrivalStatsBuilder arrivals;
  PrefixReuseCounter reuse;
  while (planner.next(session)) {
    arrivals.add(session.plannedNs);
    const std::vector<uint64_t> sessionInputs = requestInputTokens(session);
    reuse.add(session, sessionInputs);
    for (uint64_t in : sessionInputs) inputs.push_back(static_cast<uint32_t>(std::min<uint64_t>(in, UINT32_MAX)));
    // What each request asks for: requests.sampling.max_tokens caps the drawn length (QA: the
    // table showed the drawn lengths while every request went out with max_tokens 5).
    const auto asked = [&spec](uint32_t drawn) {
      const auto cap = spec.requests.sampling.maxTokens;
      return cap ? static_cast<uint32_t>(std::min<int64_t>(drawn, *cap)) : drawn;
    };
    if (session.requests.empty()) outputs.push_back(asked(session.outputTokens));
    for (const auto& r : session.requests) outputs.push_back(asked(r.outputTokens));
    ++preview.stages[session.stage].plannedSessions;
    ++preview.sessions;
  }
  preview.prefixReuseShare = reuse.share();
  preview.arrivals = arrivals.finish(preview.durationS);
  preview.trace = makeTracePreview(spec);
  preview.requests = inputs.size();
  preview.session = estimateSessions(spec);
  for (auto& row : preview.stages) row.expectedRequestRate *= preview.session.requestsPerSession;
  preview.input = summarize(inputs);
  preview.output = summarize(outputs);
  preview.totalInputTokens = preview.input.total;
  preview.totalOutputTokens = preview.output.total;
  if (preview.durationS > 0) {
    preview.inputTokensPerS = static_cast<double>(preview.totalInputTokens) / preview.durationS;
    preview.outputTokensPerS = static_cast<double>(preview.totalOutputTokens) / preview.durationS;
  }
  return preview;
}

std::string formatPreview(const PlanPreview& preview, const WorkloadSpec& spec) {
  std::string out;
  out += "workload  " + spec.name + "\n";
  if (!spec.description.empty()) out += "          " + spec.description + "\n";
  out += "target    " + spec.target.url + "  api " +
         (spec.target.api == Api::Chat ? "chat" : "completions") + "  model " + spec.target.model +
         (spec.target.stream ? "  streaming" : "  not streaming") + "\n";
  out += formatText("arrival   %s  seed %llu  max in flight %lld  session shape %s\n",
                    arrivalName(spec.load.arrival), static_cast<unsigned long long>(spec.load.seed),
                    static_cast<long long>(spec.load.maxInFlight), spec.session.shape.c_str());
  out += formatArrivalPreview(preview, spec);
  out += "\nstages\n";
  out += formatText("  %-5s %9s %9s %10s %10s %12s %10s %10s\n", "#", "start s", "end s", "from /s",
                    "to /s", "expected", "planned", "req/s");
  for (const auto& row : preview.stages) {
    out +=
        formatText("  %-5u %9.1f %9.1f %10.2f %10.2f %12.1f %10llu %10.2f\n", row.index, row.startS,
                   row.endS, row.startRate, row.endRate, row.expectedSessions,
                   static_cast<unsigned long long>(row.plannedSessions), row.expectedRequestRate);
  }
  out += "prompts   " + promptLine(spec.requests.prompt) + "\n";
  const SessionEstimate& e = preview.session;
  out += "\nsession\n";
  out += formatText("  shape %s  %.2f requests/session  derived request rate %.2f/s (%.2f sessions/s)\n",
                    spec.session.shape.c_str(), e.requestsPerSession, e.requestRate, e.sessionRate);
  out += formatText("  expected per session: %.0f input tokens, %.0f output tokens; %.0f input tokens/s, %.0f output tokens/s\n",
                    e.inputTokensPerSession, e.outputTokensPerSession, e.inputTokensPerS, e.outputTokensPerS);
  if (spec.requests.sharedPrefix.groups > 0)
    out += formatText("  shared prefix: %u groups of %u tokens\n", spec.requests.sharedPrefix.groups,
                      spec.requests.sharedPrefix.tokens);
  out += formatText("  prefix reuse: %.1f%% of input tokens repeat the start of an earlier prompt%s\n",
                    100.0 * preview.prefixReuseShare, prefixReuseSources(spec).c_str());
  out += "\nlengths (tokens per request; input includes context)\n";
  out += lengthLine("input", preview.input, spec.requests.inputTokens, spec);
  out += lengthLine("output", preview.output, spec.requests.outputTokens, spec);
  out += "\ntotals\n";
  out += formatText(
      "  %llu sessions, %llu requests over %.1f s (%.2f requests/s)\n",
      static_cast<unsigned long long>(preview.sessions),
      static_cast<unsigned long long>(preview.requests), preview.durationS,
      preview.durationS > 0 ? static_cast<double>(preview.requests) / preview.durationS : 0.0);
  out += formatText(
      "  %llu input tokens (%.0f/s), %llu output tokens (%.0f/s)\n",
      static_cast<unsigned long long>(preview.totalInputTokens), preview.inputTokensPerS,
      static_cast<unsigned long long>(preview.totalOutputTokens), preview.outputTokensPerS);
  return out;
}

nlohmann::json previewJson(const PlanPreview& preview, const WorkloadSpec& spec) {
  nlohmann::json stages = nlohmann::json::array();
  for (const auto& row : preview.stages) {
    stages.push_back({{"index", row.index},
                      {"start_s", row.startS},
                      {"end_s", row.endS},
                      {"start_rate", row.startRate},
                      {"end_rate", row.endRate},
                      {"expected_sessions", row.expectedSessions},
                      {"planned_sessions", row.plannedSessions},
                      {"expected_request_rate", row.expectedRequestRate}});
  }
  nlohmann::json out = {{"name", spec.name},
          {"target",
           {{"url", spec.target.url},
            {"api", spec.target.api == Api::Chat ? "chat" : "completions"},
            {"model", spec.target.model},
            {"stream", spec.target.stream}}},
          {"arrival", arrivalName(spec.load.arrival)},
          {"seed", spec.load.seed},
          {"session_shape", spec.session.shape},
          {"prompt_source", spec.requests.prompt.source},
          {"prompt_tokens_basis", spec.requests.prompt.basis()},
          {"session",
           {{"shape", spec.session.shape},
            {"requests_per_session", preview.session.requestsPerSession},
            {"session_rate", preview.session.sessionRate},
            {"derived_request_rate", preview.session.requestRate},
            {"input_tokens_per_session", preview.session.inputTokensPerSession},
            {"output_tokens_per_session", preview.session.outputTokensPerSession},
            {"expected_input_tokens_per_s", preview.session.inputTokensPerS},
            {"expected_output_tokens_per_s", preview.session.outputTokensPerS},
            {"prefix_reuse_share", preview.prefixReuseShare},
            {"shared_prefix_groups", spec.requests.sharedPrefix.groups},
            {"shared_prefix_tokens", spec.requests.sharedPrefix.tokens}}},
          {"sessions", preview.sessions},
          {"requests", preview.requests},
          {"duration_s", preview.durationS},
          {"stages", stages},
          {"input_tokens", lengthJson(preview.input)},
          {"output_tokens", lengthJson(preview.output)},
          {"total_input_tokens", preview.totalInputTokens},
          {"total_output_tokens", preview.totalOutputTokens},
          {"input_tokens_per_s", preview.inputTokensPerS},
          {"output_tokens_per_s", preview.outputTokensPerS}};
  addArrivalPreviewJson(preview, out);
  const auto& materials = spec.requests.prompt.materials;
  if (materials && materials->sharegpt) {
    const auto& g = *materials->sharegpt;
    out["prompt_dataset"] = {{"entries", g.entries},
                             {"usable", g.prompts().size()},
                             {"with_system_turn", g.withSystemTurn},
                             {"truncated", g.truncatedInputs}};
  }
  return out;
}

}  // namespace plumbline::workload
