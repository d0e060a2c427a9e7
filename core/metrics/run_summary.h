#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/failure_sample.h"
#include "core/metrics/verdict.h"
#include "core/metrics/window_stats.h"

namespace plumbline::metrics {

struct Percentiles {
  double p50 = 0, p90 = 0, p99 = 0, max = 0;  ///< milliseconds
  /// How many values they are of; 0: none (the figures are not latencies, and are shown as
  /// "—"); -1: not known (a summary stored before the count was).
  int64_t count = -1;
  bool empty() const { return count == 0; }
  /// The same test on a stored summary's percentile object: true when it says it is of no
  /// values ("count": 0); an older one without the count, or anything else, is not.
  static bool emptyJson(const nlohmann::json& j);
  static Percentiles fromHistogram(const LatencyHistogram& h);
  nlohmann::json toJson() const;  ///< {"p50","p90","p99","max","count"}
  static Percentiles fromJson(const nlohmann::json& j);
  bool operator==(const Percentiles&) const = default;
};

/// The outcome of a run: what --summary-json writes and the runs table stores.
struct RunSummary {
  int64_t runId = 0;
  Verdict verdict;
  uint64_t planned = 0;
  uint64_t sent = 0;
  uint64_t completed = 0;
  uint64_t notSent = 0;
  std::map<std::string, uint64_t> errors;  ///< by class name; zero classes omitted
  /// Replies whose Retry-After header asked clients to wait (rate limits, overload), and the
  /// least and most they asked for in ms (-1 when none did). Recorded, not obeyed.
  uint64_t retryAfterResponses = 0;
  int64_t retryAfterMinMs = -1, retryAfterMaxMs = -1;
  /// The first reply of each failing HTTP class, as the server sent it (what it said is why).
  FailureSamples failureSamples;
  double durationS = 0;
  double requestedRps = 0;
  double achievedRps = 0;
  Percentiles sendLagMs, ttftMs, itlMs, e2eMs, ttftFromPlannedMs, e2eFromPlannedMs;
  Percentiles uploadMs;  ///< request body, first byte to last byte written (apart from TTFT)
  /// Time to the first answer token (streams; after a reasoning model's thinking), "ttfa_ms".
  Percentiles answerMs;
  /// Completed requests whose first token was not answer text (thinking or a tool call came
  /// first): when any did, ttft and ttfa differ and both are shown.
  uint64_t thoughtFirst = 0;
  /// Time per output token of each completed stream ("tpot_ms"): its first to last token over its
  /// tokens less one (RequestRecord::tpotNs), one value per request. The inter-token gaps are
  /// per streamed event; a server sending several tokens an event has gaps that long.
  Percentiles tpotMs;
  /// How many tokens a streamed event carried on average ("tokens_per_event"): the completed
  /// streams' tokens after their first (counted as tpot counts them) over their inter-token gaps.
  /// None without a gap (not streamed, or one event a stream), and for summaries stored before.
  std::optional<double> tokensPerEvent;
  /// Completed requests in flight while a worker's event loop was held holdToleranceMs or longer
  /// (busy, or without a CPU): their timings may include up to heldMaxMs of the harness's delay.
  /// "timing_held": {"requests", "max_ms", "tolerance_ms"}.
  uint64_t heldRequests = 0;
  double heldMaxMs = 0;
  double holdToleranceMs = 0;
  /// The token rates' time base: from t0 to the end of the last reply (at least durationS).
  /// Tokens keep coming after the sending period while requests finish: an overloaded run's
  /// did for a minute after a 2 s schedule, and per second of the schedule read 30× too high.
  double tokensSpanS = 0;
  double inputTokensPerS = 0;
  /// None when no completed request had an output count (no usage, not streamed, no
  /// tokenizer): unknown, not zero. JSON null.
  std::optional<double> outputTokensPerS;
  /// Which counts the token rates use: "server" (usage of every completed request),
  /// "client" (none had usage) or "mixed" (server where reported, client otherwise).
  std::string tokenCountSource;
  /// What prompt token counts mean: "tokenizer: FILE" (exact) or "approximate: 1 word per token".
  std::string promptTokensBasis;
  /// Which HTTP client timed the requests, and how ("http_client"; httpClientText says it):
  /// "native_arrival_stamps", "native_read_times" or "curl". Empty (JSON null) for a run
  /// stored before it was recorded.
  std::string httpClient;
  /// The load the workload asked for, in its own terms (engine::describeAskedLoad): requested_rps
  /// is the schedule as drawn. Empty for runs stored before it was recorded.
  std::string askedLoad;
  /// "token_counts": how many completed requests had server usage and how many only the
  /// client's counts, and what the client's counts are.
  uint64_t requestsWithServerCounts = 0;
  uint64_t requestsWithClientCountsOnly = 0;
  /// The output length check (with ignore_eos; token_counts.output_length in JSON, absent when
  /// nothing was checked): completed plain requests with server usage, the output tokens they
  /// were planned to give and what the server said they gave.
  uint64_t lengthCheckedRequests = 0, lengthPlannedTokens = 0, lengthServerTokens = 0;
  std::string clientInputCount;   ///< e.g. "planned prompt length (tokenizer: qwen3/tokenizer.json)"
  std::string clientOutputCount;  ///< e.g. "content chunks"
  /// Short, stable labels of the client's counts: input "tokenizer:FILE" or "approximate";
  /// output "tokenizer:FILE" (reply text as received, tokenized), "chunks" or "none".
  std::string clientInputBasis;
  std::string clientOutputBasis;
  /// Totals over completed requests of each side's counts (requests without one add nothing).
  uint64_t serverInputTokens = 0, serverOutputTokens = 0;
  uint64_t clientInputTokens = 0;
  /// None when no completed request had a client output count (not streamed, no tokenizer):
  /// not counted, not zero (QA 24 D7). JSON null.
  std::optional<uint64_t> clientOutputTokens;
  bool complete = true;
  /// What the run said beside its figures: why it stopped ("received SIGINT", "stopped early at
  /// 2.4 s; ..."), why requests were not sent, a worker lost, a database it waited for.
  std::vector<std::string> notes;

  /// The --summary-json object: exactly the keys of kSummaryJsonKeys.
  nlohmann::json toJson() const;
  /// Reads toJson()'s output back; throws std::invalid_argument naming a missing or
  /// mistyped key.
  static RunSummary fromJson(const nlohmann::json& j);
};

/// What Retry-After asked for, for a person: "7 s", or "0.5–30 s" for a range (seconds, %g). The
/// report, `runs show` and the studio's History say it the same way.
std::string retryAfterWaitText(int64_t minMs, int64_t maxMs);

/// The token rates' span as what it was: "10.14 s, to the end of the last reply", or "10.00 s,
/// the schedule's length (the last reply ended within it)" (QA 24 D7: that one was labelled
/// "to the last reply").
std::string tokensSpanText(double tokensSpanS, double durationS);

/// What a summary's "http_client" means, for a person: "native HTTP/1.1 client, bytes timed
/// by their kernel arrival stamps"; "not recorded" for an empty one.
std::string httpClientText(const std::string& name);

/// "reasoning: 812 of 1000 streams thought before answering; ttft counts the first thinking
/// token, ttfa the first answer token": why a report shows ttfa apart (only when thoughtFirst > 0).
std::string thoughtFirstText(uint64_t thoughtFirst, uint64_t completed);
/// Tokens an event from which a run's (or a window's) inter-token gaps are said to span several
/// tokens: the report's "tokens per event" line and the studio's per-token lines.
inline constexpr double kSeveralTokensPerEvent = 1.2;
/// "inter-token gaps are per streamed event, and the server's usage counted 3.98 tokens an
/// event: ..." when a run's events carried several tokens (kSeveralTokensPerEvent or more), so
/// that the gap per event is not read as a token's; empty otherwise. `countSource` is the
/// summary's token_count_source.
std::string tokensPerEventText(std::optional<double> tokensPerEvent, const std::string& countSource);
/// "timing: 2 of 8 completed requests were in flight while a worker's event loop was held 10 ms
/// or more (up to 48.0 ms at once) ...": why some timings may include the harness's own delay.
std::string heldText(uint64_t held, uint64_t completed, double maxMs, double toleranceMs);
/// Said apart from the verdict: some held, but no more than the 1% a p99 leaves out (more is a
/// verdict reason, which says it already).
bool heldIsANote(uint64_t held, uint64_t completed);

/// "14 of 14 sent failed (connect 14)", "3 of 100 sent failed (http_5xx 2, timeout 1)" from a
/// summary's "sent" and "errors"; empty when none failed or the summary does not say.
std::string failedText(const nlohmann::json& summary);

// clang-format off
/// The keys of RunSummary::toJson(), in order (the --summary-json contract).
inline constexpr std::array<const char*, 35> kSummaryJsonKeys = {
    "run_id", "verdict", "verdict_reasons", "planned", "sent", "completed", "not_sent",
    "errors", "failure_samples", "retry_after", "duration_s", "requested_rps", "asked_load", "achieved_rps", "send_lag_ms",
    "timing_held",
    "ttft_ms", "ttfa_ms", "thought_first", "itl_ms", "tpot_ms", "tokens_per_event", "e2e_ms", "ttft_from_planned_ms", "e2e_from_planned_ms", "upload_ms",
    "tokens_span_s", "input_tokens_per_s", "output_tokens_per_s", "token_count_source", "token_counts",
    "prompt_tokens_basis", "http_client", "complete", "notes"};
// clang-format on

}  // namespace plumbline::metrics
