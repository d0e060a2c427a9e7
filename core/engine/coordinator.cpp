#include "core/engine/coordinator.h"

#include <event2/event.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "core/engine/coordinator_text.h"
#include "core/engine/early_stop_signal.h"
#include "core/engine/harness_limit.h"
#include "core/engine/session_frames.h"
#include "core/engine/verdict_policy.h"
#include "core/util/background_thread.h"
#include "core/util/clock.h"
#include "core/util/clock_pair.h"
#include "core/workload/prompt_materials.h"
#include "core/workload/workload_warnings.h"

namespace plumbline::engine {

using protocol::FrameType;

using coordinator_text::fmtSeconds;
using coordinator_text::kHandedToSurvivors;

namespace {
constexpr int64_t kTickNs = 20'000'000;
constexpr int64_t kStartDelayNs = 100'000'000;  ///< workers receive their config before t0
constexpr int64_t kWorkerStartTimeoutNs = 10'000'000'000;
/// After a stop's grace, what a worker may take to cancel its requests, flush and end; a second
/// signal leaves it this long. Past it the coordinator kills the worker.
constexpr int64_t kEndMarginNs = 2'000'000'000;
constexpr size_t kSessionsPerFrame = 20'000;
}  // namespace

Coordinator::Coordinator(const workload::WorkloadSpec& spec, CoordinatorOptions options,
                         RunSink& sink)
    : m_spec(spec),
      m_opt(std::move(options)),
      m_sink(sink),
      m_planner(spec),
      m_aggregator(m_opt.windowNs, m_opt.windowNs),
      m_lengths(spec),
      m_embeddedShortage(m_opt.embeddedShortage) {
  m_base = event_base_new();
  m_tick = event_new(m_base, -1, EV_PERSIST, &Coordinator::onTick, this);
  m_sigint = evsignal_new(m_base, SIGINT, &Coordinator::onSignal, this);
  m_sigterm = evsignal_new(m_base, SIGTERM, &Coordinator::onSignal, this);
  // The terminal closed: stop in order as for SIGTERM, unless started under nohup.
  if (!hangupIgnored()) m_sighup = evsignal_new(m_base, SIGHUP, &Coordinator::onSignal, this);
}

Coordinator::~Coordinator() {
  for (auto& w : m_workers) {
    w.channel.reset();
    reapWorker(w.proc.pid, 2000);
  }
  for (event* e : {m_tick, m_sigint, m_sigterm, m_sighup})
    if (e) event_free(e);
  event_base_free(m_base);
}

int64_t Coordinator::nowRel() const { return util::monotonicNs() - m_t0; }

void Coordinator::start() {
  for (auto& proc : spawnWorkers(m_opt.executable, m_opt.workers)) {
    m_workers.push_back(WorkerSlot{proc, nullptr, {}, false, false, {}});
  }
  for (auto& w : m_workers) {
    WorkerSlot* slot = &w;
    w.channel = std::make_unique<ControlChannel>(
        m_base, w.proc.fd, [this, slot](Frame&& f) { onWorkerFrame(*slot, std::move(f)); },
        [this, slot](const std::string& why) { onWorkerClosed(*slot, why); });
  }
  waitForWorkers();
  // t0 is set once every worker is up, so that no send is late because a process was starting.
  // Workers load the prompt tokenizer and dataset after their config: leave them the time it
  // took here, twice over, before the first send is due.
  const auto& prompts = m_spec.requests.prompt.materials;
  m_t0 = util::monotonicNs() + kStartDelayNs + (prompts ? 2 * prompts->loadNs : 0);
  {
    // The same instant on the wall clock, for the database and the live Hello: joining the
    // run's times with a server's logs needs t0 itself, not when the run was created, which is
    // the workers' start-up (100 ms or more) earlier.
    const util::ClockPair now = util::readClockPair();
    m_sink.onT0(now.realNs + (m_t0 - now.monoNs));
  }
  m_embeddedShortage.setT0(m_t0);
  m_watch = WorkerWatch(m_workers.size());  // silence is counted from t0: configs load before it
  for (const auto& w : m_workers)
    if (w.dead) m_watch.ended(w.proc.id);
  // Whole shares that add up to the cap (run_command runs no more workers than the cap): the
  // first workers take one more each where it does not divide evenly.
  const auto workerCount = static_cast<int64_t>(m_opt.workers);
  const auto capOf = [&](uint32_t workerId) {
    return std::max<int64_t>(
        1, m_spec.load.maxInFlight / workerCount +
               (static_cast<int64_t>(workerId) < m_spec.load.maxInFlight % workerCount));
  };
  const int64_t perWorkerCap = capOf(0);  // the largest share
  // Only a cap the workload asked for is worth a warning; the default is a ceiling, not a plan.
  const bool capAskedFor = m_spec.document.contains("load") && m_spec.document["load"].contains("max_in_flight");
  if (const std::string shortfall =
          capAskedFor ? connectionShortfall(perWorkerCap, m_spec.load.maxInFlight, raiseFileDescriptorLimit()) : "";
      !shortfall.empty()) {
    m_notes.push_back(shortfall);
    notice("warning", shortfall);
  }
  // What the plan warned of, the run's results say too: these requests are not the trace's.
  if (const auto raised = workload::zeroLengthRowsWarning(m_spec)) {
    m_notes.push_back(raised->path + ": " + raised->message);
    notice("warning", m_notes.back());
  }
  for (auto& w : m_workers) {
    if (w.dead) continue;
    WorkerConfig c;
    c.workerId = w.proc.id;
    c.t0Ns = m_t0;
    c.windowNs = m_opt.windowNs;
    c.scheduleEndNs = m_planner.durationNs();
    c.endpointUrl = m_opt.endpointUrl;
    c.api = m_spec.target.api;
    c.model = m_spec.target.model;
    c.stream = m_spec.target.stream;
    c.timeoutNs = std::llround(m_spec.target.timeoutS * 1e9);
    c.maxInFlight = capOf(w.proc.id);
    c.promptSeed = m_spec.load.seed;
    c.prompt = m_spec.requests.prompt;
    c.prompt.materials.reset();  // each worker loads its own (tokenizers serve one thread)
    c.sampling = m_spec.requests.sampling;
    c.apiKey = m_opt.apiKey;
    w.channel->send(FrameType::Config, c.toJson().dump());
  }
  m_next = nextPlanned();
  if (!m_next) m_planExhausted = true;
  const timeval tv{0, static_cast<suseconds_t>(kTickNs / 1000)};
  event_add(m_tick, &tv);
  event_add(m_sigint, nullptr);
  event_add(m_sigterm, nullptr);
  if (m_sighup) event_add(m_sighup, nullptr);
  // A stop signal that came while the run was starting: act on it now that the loop is ready.
  if (const int early = takeEarlyStopSignal(); early != 0) onSignal(early, 0, this);
}

RunOutcome Coordinator::run() {
  start();
  {
    // Every child (workers, an embedded target) exists now. The coordinator only needs its
    // share of CPU, never a given instant (sessions go out a second ahead): it waits for a
    // worker's slice to end rather than taking the CPU from a worker about to send.
    const util::BackgroundScheduling background;
    tick();
    event_base_dispatch(m_base);
  }
  // The loop is over: a stop signal from now on (while the results are recorded) is
  // remembered again (libevent puts the earlier handler back), not left to a loop that
  // no longer runs.
  for (event* e : {m_sigint, m_sigterm, m_sighup})
    if (e) event_del(e);
  if (m_opt.statusLine) std::fprintf(stderr, "\r\x1b[K");
  countPlannedUpTo(m_stopAtNs >= 0 ? m_stopAtNs : INT64_MAX);
  pollEmbeddedShortage(nowRel());
  if (std::string r = m_embeddedShortage.reason(); !r.empty()) m_reasons.push_back(std::move(r));
  // Sent between the stop instant and the Stop frame's arrival at their worker: they were due
  // and went out, so they are part of the plan (else sent could exceed planned). Workers send
  // in planned order, so every session up to the latest recorded instant went out.
  for (const HandedOut& h : m_afterStop)
    if (h.plannedNs <= m_latestSentPlannedNs) countSession(h);
  if (m_stopAtNs < 0) {
    // Every worker died before the schedule ended: the rest of it was planned and not sent.
    for (; m_next; m_next = nextPlanned()) countSession({m_next->plannedNs, m_next->rootCount(), m_next->requestCount()});
  }
  for (auto& w : m_aggregator.takeAllWindows()) m_sink.onWindow(w);

  const bool stopped = m_stopAtNs >= 0;
  // The span the plan's requests came due over: the stages, and for sessions of several requests
  // as far as their last turn went (a conversation started in the last second may run on for
  // minutes; its requests over the stages' length alone would overstate the rate).
  const int64_t planSpanNs = m_sessionGraphs
                                 ? std::max(m_planner.durationNs(), m_latestSentPlannedNs)
                                 : m_planner.durationNs();
  const int64_t durationNs = stopped ? std::min(m_stopAtNs, planSpanNs) : planSpanNs;
  const double durationS = std::max(1e-9, static_cast<double>(durationNs) / 1e9);
  const metrics::VerdictPolicy policy = verdictPolicyOf(m_spec.verdict);
  const double requested = static_cast<double>(m_aggregator.planned()) / durationS;
  RunOutcome out;
  out.summary = m_aggregator.summarize(durationS, requested, policy, m_reasons);
  // Every timeout was the embedded mock's doing (now harness_limit): no server timeout to show.
  if (m_aggregator.errors()[static_cast<size_t>(metrics::ErrorClass::Timeout)] == 0)
    m_failureSamples.erase(std::string(metrics::errorClassName(metrics::ErrorClass::Timeout)));
  out.summary.failureSamples = m_failureSamples;
  if (m_sessionGraphs) {
    // Every request of every session counted: due or not, sent or not (the verdict above judged
    // only those that came due; a request whose parent failed was never the harness's to send).
    out.summary.planned = m_plannedRequests;
    const uint64_t notSent = out.summary.planned > out.summary.sent ? out.summary.planned - out.summary.sent : 0;
    const uint64_t parentFailed = std::min(notSent, m_notSentParentFailed);
    const uint64_t workerDied = std::min(notSent - parentFailed, m_notSentWorkerDied);
    std::string why;
    auto part = [&why](uint64_t n, const char* because) {
      if (n > 0) why += (why.empty() ? "" : ", ") + std::to_string(n) + because;
    };
    part(parentFailed, " because an earlier request of their session failed");
    part(workerDied, " because their worker died");
    part(notSent - parentFailed - workerDied, " because the run ended first");
    if (notSent > 0)
      m_notes.push_back(
          "session requests not sent: " + std::to_string(notSent) + " (" + why + ")" +
          // QA: "planned 241" beside "requested 19.36 rps over 7.85 s" (= 152 / 7.85)
          (m_aggregator.planned() != out.summary.planned
               ? "; the requested rate counts the " + metrics::formatCount(m_aggregator.planned()) +
                     " that came due, over the " + fmtSeconds(durationNs) + " they came due in"
               : std::string()));
  }
  out.summary.notSent = out.summary.planned > out.summary.sent ? out.summary.planned - out.summary.sent : 0;
  // Single-request sessions: the workers said why they dropped what was still due at the end
  // (session graphs are explained above, request by request).
  if (const uint64_t late = m_notSentCapHeld + m_notSentBehind; !m_sessionGraphs && late > 0) {
    std::string why;
    if (m_notSentCapHeld > 0)
      why = metrics::formatCount(m_notSentCapHeld) +
            " waiting for a free slot under the in-flight cap (max_in_flight)";
    if (m_notSentBehind > 0)
      why += (why.empty() ? "" : ", ") + metrics::formatCount(m_notSentBehind) +
             " not reached in time by their worker";
    m_notes.push_back("requests not sent: " + metrics::formatCount(late) +
                      " still due when the schedule ended (" + why +
                      "); an open-loop run does not send them late");
  }
  if (m_opt.observer) m_opt.observer->onRunOver(nowRel(), m_aggregator, out.summary);
  // No worker left to finish the run: it ended there, not as planned.
  out.stoppedEarly = stopped || m_everyWorkerLost;
  out.stopSignal = m_stopSignal;
  out.summary.complete = !out.stoppedEarly;
  for (size_t i = 0; i < out.totals.size(); ++i) out.totals[i] = m_aggregator.total(static_cast<metrics::Metric>(i));
  out.notes = m_notes;
  out.summary.lengthCheckedRequests = m_lengths.requests();
  out.summary.lengthPlannedTokens = m_lengths.plannedTokens();
  out.summary.lengthServerTokens = m_lengths.serverTokens();
  if (auto shortReplies = m_lengths.note()) out.notes.push_back(*shortReplies);
  // The verdict is about the harness; a CI job reading only it (or exit 0) must still see at
  // once that the server served nothing (QA: a target not listening read "kept_up" first).
  if (out.summary.sent > 0 && out.summary.completed == 0)
    out.notes.insert(out.notes.begin(),
                     "not one request completed: " + metrics::failedText(out.summary.toJson()));
  // Nothing came due before the stop (a Ctrl-C as it started): no load, so no verdict.
  out.summary.verdict.nothingDue =
      m_aggregator.planned() == 0 && out.summary.verdict.kind == metrics::VerdictKind::KeptUp;
  if (stopped && out.summary.verdict.nothingDue)
    out.notes.push_back("stopped at " + fmtSeconds(m_stopAtNs) +
                        ", before the first request came due: nothing was sent and there is no "
                        "verdict");
  else if (stopped && m_stopAtNs >= m_planner.durationNs() && out.summary.notSent == 0)
    out.notes.push_back("stopped at " + fmtSeconds(m_stopAtNs) + ", after the schedule (" +
                        fmtSeconds(m_planner.durationNs()) +
                        ") had ended and every planned request had been sent");
  else if (stopped)
    out.notes.push_back("stopped early at " + fmtSeconds(m_stopAtNs) +
                        "; windows after it were not planned");
  else if (m_everyWorkerLost)
    out.notes.push_back("every worker was lost: the run ended before its schedule did");
  if (const auto& late = m_aggregator.lateAfterStored(); late.sent + late.planned > 0) {
    // Past the hold (RunAggregator::kMaxSendHoldNs): say which stored rows fall short.
    std::string what;
    if (late.sent > 0) what = metrics::formatCount(late.sent) + " sends";
    if (late.planned > 0)
      what +=
          (what.empty() ? "" : " and ") + metrics::formatCount(late.planned) + " planned requests";
    const std::string windows = late.firstWindow == late.lastWindow
                                    ? "window " + std::to_string(late.firstWindow) + " s"
                                    : "windows " + std::to_string(late.firstWindow) + "–" +
                                          std::to_string(late.lastWindow) + " s";
    out.notes.push_back(what + " came to be known only after their window's row was stored (" +
                        windows + "): the run's totals and verdict count them, those rows do not");
  }
  return out;
}

void Coordinator::waitForWorkers() {
  const int64_t deadline = util::monotonicNs() + kWorkerStartTimeoutNs;
  auto allUp = [this] {
    for (const auto& w : m_workers)
      if (!w.dead && !w.channel->peerGreeted()) return false;
    return true;
  };
  while (!allUp()) {
    if (util::monotonicNs() > deadline) {
      for (auto& w : m_workers)
        if (!w.dead && !w.channel->peerGreeted()) onWorkerClosed(w, "did not start within 10 s");
      return;
    }
    event_base_loop(m_base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
    usleep(1000);
  }
}

void Coordinator::requestStop() {
  if (m_stopAtNs >= 0) return;
  m_stopAtNs = std::max<int64_t>(0, nowRel());
  m_planExhausted = true;
  m_next.reset();
  for (auto& w : m_workers)
    if (!w.dead && !w.done) w.channel->send(FrameType::Stop, encodeStop(m_opt.graceNs));
  // The grace is enforced here too: a worker stopped or wedged never reads the Stop frame.
  m_watch.endBy(m_stopAtNs + m_opt.graceNs + kEndMarginNs);
  // Sessions handed out for after the stop were never due: they are not part of the plan.
  while (!m_handedOutPlanned.empty() && m_handedOutPlanned.back().plannedNs >= m_stopAtNs) {
    m_afterStop.push_front(m_handedOutPlanned.back());
    m_handedOutPlanned.pop_back();
  }
}

void Coordinator::onSignal(int sig, short, void* self) {
  auto* c = static_cast<Coordinator*>(self);
  if (c->m_stopAtNs >= 0) {
    // A second signal: give up waiting for in-flight requests, and for workers that do not end.
    for (auto& w : c->m_workers)
      if (!w.dead && !w.done) w.channel->send(FrameType::Stop, encodeStop(0));
    c->m_watch.endBy(c->nowRel() + kEndMarginNs);
    c->notice("warning",
              std::string("received SIG") + sigabbrev_np(sig) +
                  " again: requests in flight are cancelled now; a worker still running in " +
                  fmtSeconds(kEndMarginNs) + " is killed");
    return;
  }
  c->m_stopSignal = sig;
  c->m_notes.push_back(std::string("received ") + (sig == SIGINT   ? "SIGINT"
                                                   : sig == SIGHUP ? "SIGHUP"
                                                                   : "SIGTERM"));
  c->notice("warning", c->m_notes.back() + ": stopping; requests in flight get " + fmtSeconds(c->m_opt.graceNs));
  c->requestStop();
}

void Coordinator::onTick(int, short, void* self) { static_cast<Coordinator*>(self)->tick(); }

void Coordinator::tick() {
  const int64_t now = nowRel();
  if (m_stopAtNs < 0) {
    // Results that cannot be recorded are not worth producing: stop as on a signal, and say why.
    if (const std::string why = m_sink.failure(); !why.empty()) {
      m_notes.push_back("the results could not be recorded (" + why +
                        "): stopped; the database keeps what was committed before");
      notice("error", m_notes.back());
      requestStop();
    }
  }
  if (m_stopAtNs < 0) handOut(now + m_opt.lookaheadNs);
  pollEmbeddedShortage(now);
  countPlannedUpTo(m_stopAtNs >= 0 ? std::min(now, m_stopAtNs) : now);
  for (auto& w : m_workers) w.ledger.forgetPlansDueBy(now);
  for (const auto& o : m_watch.check(now)) killOverdue(m_workers[o.worker], o, now);
  tellQuietChanges(now);
  closeWindows(now);
  if (m_opt.observer) {
    m_opt.observer->onSendsReportedThrough(sendsReportedThrough());
    m_opt.observer->onProgress(now, m_aggregator);
  }
  if (m_opt.statusLine && now - m_lastStatusNs >= 250'000'000) {
    printStatus(now);
    m_lastStatusNs = now;
  }
  checkFinished();
}

std::optional<workload::SessionPlan> Coordinator::nextPlanned() {
  workload::SessionPlan s;
  if (!m_planner.next(s)) return std::nullopt;
  return s;
}

Coordinator::WorkerSlot* Coordinator::nextAliveWorker(int64_t nowNs) {
  // A quiet worker (stopped, or wedged) is passed over while another answers: the sessions
  // handed to it would wait, late, until it answers or is killed.
  WorkerSlot* quietOne = nullptr;
  size_t quietAt = 0;
  for (size_t i = 0; i < m_workers.size(); ++i) {
    const size_t at = m_rr + i;
    WorkerSlot& w = m_workers[at % m_workers.size()];
    if (w.dead) continue;
    if (!m_watch.quiet(w.proc.id, nowNs)) {
      m_rr = at + 1;
      return &w;
    }
    if (quietOne == nullptr) quietOne = &w, quietAt = at;
  }
  if (quietOne != nullptr) m_rr = quietAt + 1;  // every one quiet: still in turn
  return quietOne;
}

void Coordinator::handOut(int64_t horizonNs) {
  const int64_t now = nowRel();
  int64_t lateMaxNs = 0;
  while (m_next && m_next->plannedNs <= horizonNs) {
    WorkerSlot* w = nextAliveWorker(now);
    if (w == nullptr) break;
    // Handed out a second ahead, a session is late here only if this loop was held up.
    if (m_next->plannedNs < now) {
      m_aggregator.markHandedLate(m_next->plannedNs, now - m_next->plannedNs);
      lateMaxNs = std::max(lateMaxNs, now - m_next->plannedNs);
    }
    w->batch.push_back(*m_next);
    w->ledger.handedOut(*m_next);
    m_lengths.planned(*m_next);
    m_handedOutPlanned.push_back({m_next->plannedNs, m_next->rootCount(), m_next->requestCount()});
    if (!m_next->requests.empty()) m_sessionGraphs = true;
    if (w->batch.size() >= kSessionsPerFrame) sendBatch(*w);
    m_next = nextPlanned();
    if (!m_next) m_planExhausted = true;
  }
  if (lateMaxNs > 0) tellHandedLate(now, lateMaxNs);
  for (auto& w : m_workers) {
    if (!w.batch.empty() && !w.dead) sendBatch(w);
    w.batch.clear();
  }
  if (m_planExhausted && !m_endSent) {
    m_endSent = true;
    for (auto& w : m_workers)
      if (!w.dead) w.channel->send(FrameType::EndOfSessions, {});
  }
}

void Coordinator::sendBatch(WorkerSlot& w) {
  // Plain single requests keep the compact frame; sessions with request graphs need theirs.
  if (m_sessionGraphs) w.channel->send(FrameType::SessionGraphs, encodeSessionGraphs(w.batch));
  else w.channel->send(FrameType::Sessions, encodeSessions(w.batch));
  w.batch.clear();
}

int64_t Coordinator::sendsReportedThrough() const {
  int64_t through = INT64_MAX;
  for (const auto& w : m_workers)
    if (!w.dead && !w.done) through = std::min(through, w.reportedAtNs);
  return through;
}

void Coordinator::countSession(const HandedOut& h) {
  m_aggregator.addPlanned(h.plannedNs, h.roots);
  if (m_opt.observer) m_opt.observer->onPlanned(h.plannedNs, h.roots);
  m_plannedRequests += h.requests;
}

void Coordinator::countPlannedUpTo(int64_t nowNs) {
  while (!m_handedOutPlanned.empty() && m_handedOutPlanned.front().plannedNs <= nowNs) {
    countSession(m_handedOutPlanned.front());
    m_handedOutPlanned.pop_front();
  }
}

void Coordinator::onWorkerFrame(WorkerSlot& w, Frame&& f) {
  m_watch.heard(w.proc.id, nowRel());
  try {
    switch (f.type) {
      case FrameType::Records: {
        auto records = decodeRecords(f.payload);
        pollEmbeddedShortage(nowRel());
        for (auto& r : records) {
          m_embeddedShortage.reclassify(r);
          m_aggregator.addRecord(r);
          m_lengths.recorded(r);
          w.ledger.recorded(r);
          m_latestSentPlannedNs = std::max(m_latestSentPlannedNs, r.plannedNs);
          if (r.retryAfterMs >= 0 && !m_retryAfterNoticed) noticeRetryAfter(r);
        }
        m_sink.onRecords(records);
        return;
      }
      case FrameType::Stats: {
        StatsReport s = decodeStats(f.payload);
        s.sample.connectionsOpen = static_cast<int64_t>(s.connectionsOpen);
        for (const auto& send : s.sends) {
          m_aggregator.addSends(send);
          w.ledger.reportedSent(send.sent);
        }
        m_aggregator.addItl(s.itl, s.sample.atNs);
        m_aggregator.addWorkerSample(s.sample);
        tellLoopHeld(w.proc.id, s.sample.loopDelayMaxNs);
        w.sendsThroughNs = std::max(w.sendsThroughNs, s.sendsThroughNs);
        w.reportedAtNs = std::max(w.reportedAtNs, s.sample.atNs);
        if (m_opt.observer) m_opt.observer->onWorkerStats(s);
        return;
      }
      case FrameType::Done: {
        // Not-sent is derived as planned − sent; the worker says why for those it dropped.
        const DoneReport d = decodeDone(f.payload);
        m_notSentCapHeld += d.notSentCapHeld;
        m_notSentBehind += d.notSentBehind;
        w.done = true;
        m_watch.ended(w.proc.id);
        return checkFinished();
      }
      case FrameType::SessionProgress: {
        const SessionProgress p = decodeSessionProgress(f.payload);
        for (const auto& [window, count] : p.dueByWindow) m_aggregator.addPlanned(window * m_opt.windowNs, count);
        if (m_opt.observer)
          for (const auto& [slice, count] : p.dueBySlice)
            m_opt.observer->onPlanned(slice * protocol::kRateSliceNs, count);
        m_notSentRunEnded += p.notSentRunEnded;
        m_notSentParentFailed += p.notSentParentFailed;
        // Live not-sent counts those known for good; the ones a stop drops are in the final figure.
        m_aggregator.addNotSent(p.notSentParentFailed);
        return;
      }
      case FrameType::HarnessLimit:
        // A limit of the machine the harness hit (its requests are class harness_limit): the
        // verdict names it, once.
        if (std::find(m_reasons.begin(), m_reasons.end(), f.payload) == m_reasons.end()) {
          m_reasons.push_back(f.payload);
          notice("error", "harness limit: " + f.payload);
        }
        return;
      case FrameType::FailureSample: {
        // Each worker sends its first reply of a class; the run keeps the earliest sent, and
        // says what the server answered the moment the first arrives.
        FailureSampleReport r = decodeFailureSample(f.payload);
        if (r.errorClass == metrics::ErrorClass::Timeout) explainTimeoutSample(r.sample);
        const std::string name(metrics::errorClassName(r.errorClass));
        const auto it = m_failureSamples.find(name);
        if (it == m_failureSamples.end())
          notice("warning", metrics::describeFirstFailure(name, r.sample));
        if (it == m_failureSamples.end() || r.sample.sendNs < it->second.sendNs)
          m_failureSamples[name] = r.sample;
        return;
      }
      case FrameType::Error:
        m_notes.push_back("worker " + std::to_string(w.proc.id) + " reported: " + f.payload);
        notice("warning", m_notes.back());
        return;
      default:
        throw ProtocolError("unexpected frame " + std::string(protocol::frameTypeName(f.type)));
    }
  } catch (const ProtocolError& e) {
    onWorkerClosed(w, e.what());
  }
}

void Coordinator::closeWindows(int64_t nowNs) {
  // A window is stored once every live worker's sends for it are known (bounded wait).
  int64_t sendsThroughNs = INT64_MAX;
  for (const auto& w : m_workers)
    if (!w.dead && !w.done) sendsThroughNs = std::min(sendsThroughNs, w.sendsThroughNs);
  for (auto& w : m_aggregator.takeClosedWindows(nowNs, sendsThroughNs)) {
    m_sink.onWindow(w);
    m_lastWindow = std::move(w);
  }
}

void Coordinator::printStatus(int64_t nowNs) {
  const double total = static_cast<double>(m_planner.durationNs()) / 1e9;
  const double t = std::max(0.0, static_cast<double>(nowNs) / 1e9);
  double reqRps = 0, achRps = 0, ttftP99 = 0;
  if (m_lastWindow) {
    const double len = static_cast<double>(m_lastWindow->lengthNs) / 1e9;
    reqRps = static_cast<double>(m_lastWindow->planned) / len;
    achRps = static_cast<double>(m_lastWindow->sentDuring) / len;
    ttftP99 = static_cast<double>(m_lastWindow->hist(metrics::Metric::Ttft).percentile(0.99)) / 1e6;
  }
  uint64_t errors = 0;
  for (size_t i = 1; i < metrics::kErrorClassCount; ++i) errors += m_aggregator.errors()[i];
  std::fprintf(stderr,
               "\r\x1b[K %5.1f/%.1f s  sent %" PRIu64 "/%" PRIu64 "  requested %.1f rps  achieved %.1f rps  "
               "ttft p99 %.1f ms  errors %" PRIu64,
               std::min(t, total), total, m_aggregator.sent(), m_aggregator.planned(), reqRps, achRps, ttftP99,
               errors);
  std::fflush(stderr);
}

void Coordinator::checkFinished() {
  for (const auto& w : m_workers)
    if (!w.done && !w.dead) return;
  event_base_loopbreak(m_base);
}

}  // namespace plumbline::engine
