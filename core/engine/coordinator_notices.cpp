// What the coordinator says while the run goes: notices on the live stream (and stderr unless
// --quiet), the embedded target's shortages, a worker turning quiet. The rest of the coordinator
// is in coordinator.cpp.
#include <cstdio>
#include <string>

#include "core/engine/coordinator.h"
#include "core/engine/coordinator_text.h"

namespace plumbline::engine {

using coordinator_text::fmtMs;
using coordinator_text::fmtSeconds;

namespace {
/// A coordinator or a worker held up again and again says so once per this long, not on every
/// tick.
constexpr int64_t kHandedLateNoticeGapNs = 5'000'000'000;
}  // namespace

void Coordinator::tellQuietChanges(int64_t nowNs) {
  for (const auto& q : m_watch.quietChanges(nowNs)) {
    const std::string who = "worker " + std::to_string(q.worker);
    if (q.quiet)
      notice("warning", who + " has sent nothing for " + fmtSeconds(WorkerWatch::kQuietNs) +
                            " (stopped, or wedged): new sessions go to the other workers; it is "
                            "killed if it stays silent for " +
                            fmtSeconds(m_watch.silenceLimitNs()));
    else
      notice("warning", who + " answers again: it is handed sessions again");
  }
}

void Coordinator::tellHandedLate(int64_t nowNs, int64_t lateMaxNs) {
  if (m_opt.observer) m_opt.observer->onHandedLate(nowNs, lateMaxNs);
  if (lateMaxNs < static_cast<int64_t>(m_spec.verdict.sendLagToleranceMs * 1e6)) return;
  if (m_handedLateNoticedNs >= 0 && nowNs - m_handedLateNoticedNs < kHandedLateNoticeGapNs) return;
  m_handedLateNoticedNs = nowNs;
  notice("warning", "sessions reached their workers up to " + fmtMs(lateMaxNs) +
                        " after they were due: the coordinator that hands them out was held up "
                        "(stopped, or without a CPU), so their sends are late");
}

void Coordinator::tellLoopHeld(uint32_t worker, int64_t heldNs) {
  if (heldNs < m_holdToleranceNs) return;
  const int64_t nowNs = nowRel();
  if (m_loopHeldNoticedNs >= 0 && nowNs - m_loopHeldNoticedNs < kHandedLateNoticeGapNs) return;
  m_loopHeldNoticedNs = nowNs;
  // While it goes, not only in the summary's timing_held: a reply that came meanwhile is dated
  // when the worker read it (one read takes every segment with the last one's stamp).
  notice("warning", "worker " + std::to_string(worker) + "'s event loop was held " + fmtMs(heldNs) +
                        " (stopped, or without a CPU): replies that came meanwhile are dated when "
                        "it ran again, so the timings of requests in flight across it may be late "
                        "by up to that (counted in the summary's timing_held)");
}

void Coordinator::pollEmbeddedShortage(int64_t nowNs) {
  if (const std::string first = m_embeddedShortage.poll(nowNs); !first.empty())
    notice("error", "harness limit: " + first);
}

void Coordinator::explainTimeoutSample(metrics::FailureSample& sample) {
  pollEmbeddedShortage(nowRel());
  const auto timeoutNs = static_cast<int64_t>(m_spec.target.timeoutS * 1e9);
  if (m_embeddedShortage.overlaps(sample.sendNs, sample.sendNs + timeoutNs))
    sample.reason +=
        "; sent while the harness's own embedded mock could not accept connections (see the "
        "verdict)";
}

void Coordinator::noticeRetryAfter(const metrics::RequestRecord& r) {
  // Once per run, while it goes: the summary, report and History count every such reply.
  m_retryAfterNoticed = true;
  const std::string status = r.httpStatus > 0 ? " (HTTP " + std::to_string(r.httpStatus) + ")" : "";
  // The notice carries its own time: the text says what and how long.
  notice("warning",
         "a reply" + status + " asked to retry after " +
             metrics::retryAfterWaitText(r.retryAfterMs, r.retryAfterMs) +
             "; not obeyed: the run keeps its plan (every such reply is counted in the summary)");
}

void Coordinator::notice(const std::string& level, const std::string& text) {
  const int64_t at = m_t0 == 0 ? 0 : nowRel();
  if (m_opt.observer) m_opt.observer->onNotice(at, level, text);
  if (!m_opt.printNotices) return;
  if (m_opt.statusLine) std::fputs("\r\x1b[K", stderr);  // the status line comes back next tick
  std::fprintf(stderr, "plumbline run: %s at %s: %s\n", level.c_str(),
               at > 0 ? fmtSeconds(at).c_str() : "the start", text.c_str());
}

}  // namespace plumbline::engine
