#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/metrics/request_record.h"

namespace plumbline::compare {

/// A service-level objective a person sets. An unset limit is not checked.
struct Slo {
  std::optional<double> ttftMs;  ///< time to first token, counted from the planned send time
  std::optional<double> itlMs;   ///< the request's mean inter-token gap
  std::optional<double> e2eMs{};  ///< end of the reply, counted from the planned send time
  /// Time to the first answer token, counted from the planned send time: what a user of a
  /// reasoning model waits for (its first token is thinking). A stream with no answer token
  /// fails it.
  std::optional<double> ttfaMs{};
  bool any() const { return ttftMs || itlMs || e2eMs || ttfaMs; }
  /// TTFT, TTFA and inter-token gaps exist only for streamed replies.
  bool needsStreaming() const { return ttftMs || itlMs || ttfaMs; }
  /// The limits set, "TTFT, TTFA and end-to-end" ("e2e" when brief, for a table cell).
  std::string names(bool brief = false) const;
};

/// How much of a run met the SLO. The share is of the requests the run planned: one never sent
/// (the harness fell behind, the run stopped) cannot have met it.
struct Goodput {
  uint64_t planned = 0;   ///< requests the run planned, sent or not (never below `requests`)
  uint64_t requests = 0;  ///< every recorded (sent) request, failed ones included
  uint64_t met = 0;       ///< succeeded and met every limit judged
  double durationS = 0;
  /// The limits this run could not be judged on, and why ("no TTFT without streaming");
  /// empty when every set limit was judged.
  std::string unjudgedReason;
  Slo judgedOn;  ///< the limits it was judged on (those set, less the ones it could not be)
  /// False when no set limit could be judged: there is no goodput figure (n/a), not a zero.
  bool judged = true;
  /// What the inter-token limit divided each stream's span by: "server" (usage counts),
  /// "client" (the client's count), "mixed" (server where given); empty when none was judged.
  std::string itlTokenBasis;
  /// What the client's count is (the summary's client_output_basis: "chunks", "tokenizer:FILE").
  std::string clientOutputBasis;
  /// The compared runs' gaps were per different counts: goodputText says which this one's were.
  bool itlBasisDiffers = false;

  uint64_t notSent() const { return planned > requests ? planned - requests : 0; }
  double perSecond() const { return durationS > 0 ? static_cast<double>(met) / durationS : 0; }
  double fraction() const {
    return planned ? static_cast<double>(met) / static_cast<double>(planned) : 0;
  }
  /// Judged on some limits but not all (a non-streaming run under TTFT + end-to-end limits, a
  /// run stored before answer tokens were timed under a TTFA limit).
  bool partial() const { return judged && !unjudgedReason.empty(); }
};

/// Counts requests meeting an SLO. TTFT, TTFA and end-to-end are measured from the planned time
/// (what a user waiting for the reply saw, no coordinated omission); the inter-token gap is
/// the request's time per output token, RequestRecord::tpotNs: (last token − first token) /
/// (tokens − 1), tokens as the server's usage counted them where it gave usage (as the token
/// rates do), else as the client counted them (QA 24 D2: per
/// streamed delta, a server sending several tokens an event scored 0 % without a tokenizer and
/// 100 % with one). A non-streaming run has no first token: its TTFT, TTFA and gap limits are
/// not judged (rather than failed), and only an end-to-end limit is. A streamed request that
/// never got an answer token (it ended still thinking) fails a TTFA limit.
class GoodputCounter {
 public:
  /// `answersTimed`: the run recorded when each answer began (false for runs stored before
  /// first_answer_ns, whose TTFA limit is then not judged).
  explicit GoodputCounter(Slo slo, bool streaming = true, bool answersTimed = true);
  void add(const metrics::RequestRecord& r);
  bool meets(const metrics::RequestRecord& r) const;
  /// `planned`: the run's planned requests (0 when unknown: the recorded ones are used).
  Goodput result(double durationS, uint64_t planned = 0) const;

 private:
  Slo m_slo;  ///< the limits judged: a non-streaming run's TTFT and gap limits are dropped
  std::string m_unjudgedReason;
  uint64_t m_requests = 0;
  uint64_t m_met = 0;
  uint64_t m_gapsPerServerCount = 0, m_gapsPerClientCount = 0;  ///< streams the gap limit judged
};

}  // namespace plumbline::compare
