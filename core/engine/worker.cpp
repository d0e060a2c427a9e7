#include "core/engine/worker.h"

#include <curl/curl.h>
#include <event2/event.h>
#include <sys/prctl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/engine/connection_reuse.h"
#include "core/engine/diagnostic_switches.h"
#include "core/engine/failure_reason.h"
#include "core/engine/loop_timer.h"
#include "core/engine/planned_order.h"
#include "core/tokenizer/tokenizer.h"
#include "core/util/clock.h"

namespace plumbline::engine {

using protocol::FrameType;

namespace {
constexpr int64_t kStatsIntervalNs = 250'000'000;
constexpr int64_t kFlushIntervalNs = 50'000'000;
constexpr int64_t kProbeIntervalNs = 10'000'000;
constexpr int64_t kHoldKeptPastTimeoutNs = 10'000'000'000;  // a grace period's worth
constexpr size_t kRecordsPerFrame = 2048;
constexpr int64_t kScheduleEndSlackNs = 100'000'000;
constexpr int kMaxSendsPerTurn = 64;
/// Request bodies are built at least this long before their planned instant, so building is
/// never part of the send lag; kPrepareFactor times the longest build seen where that is more
/// (a prompt of 800k tokens took 7 ms to build, its first 100 ms), up to kMaxPrepareNs.
constexpr int64_t kPrepareNs = 2'000'000;
constexpr int64_t kPrepareFactor = 3;
constexpr int64_t kMaxPrepareNs = 500'000'000;
constexpr size_t kMaxPrepared = 256;
/// Reply tokens are counted in slices of at most this long, ending this long before the next
/// send's spin; a reply waits at most kMaxCountWaitNs before it is counted regardless.
constexpr int64_t kCountSliceNs = 1'000'000;
constexpr int64_t kCountMarginNs = 300'000;
constexpr int64_t kMaxCountWaitNs = 50'000'000;
/// Before the first send, connections are opened for the sessions due in its first this long
/// (at most kMaxWarmConnections, and never in the last kWarmStopNs before it): a cold start
/// that opens them on demand falls behind by milliseconds while each connect and the server's
/// accept cost more than the gap between sends, and every late send needs one more.
constexpr int64_t kWarmHorizonNs = 10'000'000;
constexpr size_t kMaxWarmConnections = 256;
constexpr int64_t kWarmStopNs = 5'000'000;

/// The send timer's margin starts low and learns upward: it learns only from timers that sleep,
/// and starting at the 200 µs maximum, a run whose sends are under 200 µs apart (5,000/s and
/// up) never slept, never learnt, and spun between all its sends, a whole core at 10,000/s
/// whatever the machine. Above 50 µs apart the timer sleeps from the first send; the probe's
/// wake-ups (100/s) complete the first epoch within ~1.3 s at any rate. Since the margin now
/// really adapts, it must cover all but 0.2 % of wake-ups (not 1 %): with 1 % a VM's timer tail
/// put send lag p99 at 10,000/s over 100 µs in one run of three (docs/engine_figures.md).
SpinMargin::Params workerSpinParams() {
  SpinMargin::Params p;
  p.initialNs = 50'000;
  p.lateFraction = 0.002;
  return p;
}
}  // namespace

Worker::Worker(int controlFd) : m_prepareNs(kPrepareNs), m_spinMargin(workerSpinParams()) {
  prctl(PR_SET_TIMERSLACK, 1UL);  // timers fire when asked, not up to 50 µs later
  event_config* cfg = event_config_new();
  event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER);  // µs timers (timerfd), not ms
  m_base = event_base_new_with_config(cfg);
  event_config_free(cfg);
  m_channel = std::make_unique<ControlChannel>(
      m_base, controlFd, [this](Frame&& f) { onFrame(std::move(f)); },
      [this](const std::string& why) { onClosed(why); });
  m_sendTimer = evtimer_new(m_base, &Worker::onSendTimer, this);
  m_statsTimer = event_new(m_base, -1, EV_PERSIST, &Worker::onStatsTimer, this);
  m_flushTimer = event_new(m_base, -1, EV_PERSIST, &Worker::onFlushTimer, this);
  m_probeTimer = evtimer_new(m_base, &Worker::onProbeTimer, this);
  m_graceTimer = evtimer_new(m_base, &Worker::onGraceTimer, this);
  m_countTimer = evtimer_new(m_base, &Worker::onCountTimer, this);
}

void Worker::armTimer(event* timer, int64_t delayNs) {
  const timeval tv = util::toTimeval(delayNs);
  addTimerFromNow(m_base, timer, &tv);
}

Worker::~Worker() {
  m_sessionRunner.reset();
  m_http.reset();
  m_channel.reset();
  for (event* e : {m_sendTimer, m_statsTimer, m_flushTimer, m_probeTimer, m_graceTimer, m_countTimer}) event_free(e);
  event_base_free(m_base);
}

int Worker::run() {
  event_base_dispatch(m_base);
  return m_exitCode;
}

void Worker::onFrame(Frame&& f) {
  try {
    if (!m_config && f.type != FrameType::Config) return fatal("first frame was not config");
    switch (f.type) {
      case FrameType::Config: return configure(f.payload);
      case FrameType::Sessions:
      case FrameType::SessionGraphs: {
        auto sessions = f.type == FrameType::Sessions ? decodeSessions(f.payload) : decodeSessionGraphs(f.payload);
        m_sessionsReceived += sessions.size();
        if (m_stopping) {
          m_notSent += sessions.size();
          for (const auto& s : sessions) m_sessionRunner->dropUnstarted(s);
          return;
        }
        // In planned order, not appended: sessions handed over from a dead worker are due among
        // (or before) those already queued, and sendDue only looks at the front.
        mergeInPlannedOrder(m_pending, std::move(sessions), [this](size_t i) {
          // Ahead of a body already built: its own is built when it is sent.
          if (i < m_prepared.size())
            m_prepared.insert(m_prepared.begin() + static_cast<std::ptrdiff_t>(i), Prepared{});
        });
        warmConnections();
        return sendDue();  // sends what is due and re-arms the send timer for the new front
      }
      case FrameType::EndOfSessions:
        m_endOfSessions = true;
        return maybeFinish();
      case FrameType::Stop: return stop(decodeStop(f.payload));
      default: return fatal(std::string("unexpected frame ") + std::string(protocol::frameTypeName(f.type)));
    }
  } catch (const std::exception& e) {
    fatal(e.what());
  }
}

void Worker::configure(const std::string& json) {
  if (m_config) return fatal("config sent twice");
  m_config = WorkerConfig::fromJson(nlohmann::json::parse(json));
  prctl(PR_SET_NAME, ("pl-worker-" + std::to_string(m_config->workerId)).c_str());  // for top and perf
  if (auto fixedNs = SpinMargin::fixedMarginFromEnv(kWorkerSpinEnv, std::getenv(kWorkerSpinEnv)))
    m_spinMargin = SpinMargin::fixed(*fixedNs);
  m_http = makeRequestDriver(m_base, *m_config, [this](Transfer& t) { onRequestDone(t); });
  m_http->setAfterRead([this] {
    sendIfDue();
    if (m_sessionRunner) m_sessionRunner->pumpIfDue();
  });
  m_bodies = std::make_unique<RequestBodyBuilder>(*m_config);
  if (tokenizer::Tokenizer* tok = m_bodies->promptMaterials().tokenizer.get()) {
    m_replyTokens = std::make_unique<ReplyTokenQueue>(*tok);
    m_http->keepAllReplies(true);
  }
  m_sessionRunner = std::make_unique<SessionRunner>(m_base, *m_config, *m_http, *m_bodies,
                                                    [this](int64_t planned, int64_t sent) { noteSend(planned, sent); });
  const timeval stats = util::toTimeval(kStatsIntervalNs), flush = util::toTimeval(kFlushIntervalNs);
  event_add(m_statsTimer, &stats);
  event_add(m_flushTimer, &flush);
  m_lastStatsWallNs = util::monotonicNs();
  m_lastStatsCpuNs = util::processCpuNs();
  m_lastCpuWaitNs = m_cpuWait.totalNs();
  m_probeDueNs = m_lastStatsWallNs + kProbeIntervalNs;
  armTimer(m_probeTimer, kProbeIntervalNs);
}

void Worker::onClosed(const std::string& why) {
  // The coordinator is gone (or spoke nonsense): nobody can record what we would send.
  std::fprintf(stderr, "plumbline worker: control channel closed: %s\n", why.c_str());
  if (m_http) m_http->abortAll(metrics::ErrorClass::Cancelled);
  m_exitCode = 1;
  event_base_loopbreak(m_base);
}

void Worker::fatal(const std::string& why) {
  if (!m_channel->closed()) {
    m_channel->send(FrameType::Error, why);
    m_channel->flushBlocking(1000);
  }
  std::fprintf(stderr, "plumbline worker: %s\n", why.c_str());
  m_exitCode = 1;
  event_base_loopbreak(m_base);
}

void Worker::sendDue() {
  m_sendTurnDueNs = -1;  // armSendTimer sets the next; none while blocked by the in-flight cap
  const int64_t cap = m_config->maxInFlight;
  const int64_t margin = m_spinMargin.marginNs();
  // Bounded per turn, so that a backlog of overdue sends never starves the reading of streams.
  for (int sent = 0; !m_pending.empty() && sent < kMaxSendsPerTurn; ++sent) {
    const int64_t now = m_http->nowRel();
    if (now > m_config->scheduleEndNs + kScheduleEndSlackNs) {
      // Too late to be the load that was asked for. Waiting behind the in-flight cap when the
      // first of them was the last send the cap held back; else the worker fell behind.
      const bool capHeld = !m_pending.empty() && m_pending.front().id == m_lastCapBlockedId;
      (capHeld ? m_notSentCapHeld : m_notSentBehind) += m_pending.size();
      dropPending();
      return maybeFinish();
    }
    const auto& s = m_pending.front();
    if (s.plannedNs > now + margin) break;
    if (s.plannedNs > now) {
      if (sent != 0) break;  // let the loop read what arrived before spinning again
      spinUntil(s.plannedNs);
    }
    if (static_cast<int64_t>(m_http->inFlight()) >= cap) {
      if (s.id != m_lastCapBlockedId) {
        ++m_capHits;
        m_lastCapBlockedId = s.id;
      }
      prepareSoon();
      return;  // resumed when a request finishes
    }
    const workload::SessionPlan session = s;
    Prepared prepared = takePrepared();
    m_pending.pop_front();
    startSession(session, std::move(prepared));
  }
  prepareSoon();  // after the sends: building the next bodies never delays a due one
  armSendTimer();
  m_sendTurnEndNs = util::monotonicNs();
}

void Worker::warmConnections() {
  if (m_warmed || m_pending.empty()) return;
  m_warmed = true;
  const int64_t first = m_pending.front().plannedNs;
  size_t due = 0;
  for (const auto& s : m_pending) {
    if (s.plannedNs >= first + kWarmHorizonNs) break;
    ++due;
  }
  const size_t cap = static_cast<size_t>(std::max<int64_t>(1, m_config->maxInFlight));
  if (m_http->preconnect(std::min({due, cap, kMaxWarmConnections}), first - kWarmStopNs) == 0) return;
  // The connects held the loop before any send was due: not a delay of the run's (the loop-delay
  // probe restarts), and not a wake-up lateness for the spin margin to learn from.
  m_loopDelayMaxNs = 0;
  m_probeDueNs = util::monotonicNs() + kProbeIntervalNs;
  armTimer(m_probeTimer, kProbeIntervalNs);
}

void Worker::spinUntil(int64_t plannedNs) {
  const int64_t start = util::monotonicNs();
  while (m_http->nowRel() < plannedNs) {
  }
  m_sendTurnEndNs = util::monotonicNs();
  m_spinNs += m_sendTurnEndNs - start;  // idle time: not counted as CPU use
}

// libevent runs every callback that one poll made active before it looks at its timers again.
// At 1,000 streams/s with 64 tokens 5 ms apart, one poll can return ~300 streams' chunks at once:
// ~3 ms of reads, and a send due among them waited for all of them (28 runs each way: median
// run-wide send lag p99 0.090 ms, against 0.065 ms with this; 90th percentile 0.275 against
// 0.119 ms; docs/engine_figures.md, session 12). Checking after each read costs a clock read.
// Only a send timer that was asleep is overtaken (armSendTimer): when sends are behind, one
// send turn per read would starve the reads and open a connection per send (an overloaded
// run opened 20,000 of them and ran the mock out of file descriptors).
void Worker::sendIfDue() {
  if (m_sendTurnDueNs < 0 || m_http->nowRel() < m_sendTurnDueNs) return;
  evtimer_del(m_sendTimer);
  m_sendTimerAtNs = -1;  // not a timer wake-up: nothing for the spin margin to learn
  sendDue();
}

void Worker::armSendTimer() {
  m_sendTimerAtNs = -1;
  m_sendTurnDueNs = -1;
  if (m_pending.empty()) return;
  int64_t at = m_pending.front().plannedNs - m_spinMargin.marginNs();
  if (m_prepared.size() < std::min(m_pending.size(), kMaxPrepared))
    at = std::min(at, m_pending[m_prepared.size()].plannedNs - m_prepareNs);
  const int64_t delay = at - m_http->nowRel();
  armTimer(m_sendTimer, delay);
  // Only a timer that sleeps measures how late wake-ups are, and only a sleeping one may be
  // overtaken by sendIfDue (why: above it); one already due does neither.
  if (delay > 0) m_sendTimerAtNs = m_sendTurnDueNs = at;
}

void Worker::prepareSoon() {
  while (m_prepared.size() < std::min(m_pending.size(), kMaxPrepared)) {
    const workload::SessionPlan& s = m_pending[m_prepared.size()];
    const int64_t now = m_http->nowRel();
    // Until a body has been built its cost is unknown: the first is built as soon as it is
    // known (before t0 for the first sends), and sets how far ahead the next ones are.
    if (m_buildMaxNs >= 0 && s.plannedNs > now + m_prepareNs) break;
    // A build as long as the longest yet would hold a send already built and due before it
    // ends: that send goes first (sendDue calls here again after it).
    if (!m_prepared.empty() && m_pending.front().plannedNs < now + m_buildMaxNs) break;
    const int64_t start = util::monotonicNs();
    // A shaped session's roots too (QA 23a: with a shared prefix, 20k-token prompts were built
    // at their instant, send lag p50 1.9 ms against 0.0005 ms for the same prompts unshared).
    if (s.requests.empty())
      m_prepared.push_back(Prepared{buildRequest(s), nullptr});
    else
      m_prepared.push_back(Prepared{nullptr, m_sessionRunner->prepare(s)});
    m_buildMaxNs = std::max(m_buildMaxNs, util::monotonicNs() - start);
    m_prepareNs = std::clamp(kPrepareFactor * m_buildMaxNs, kPrepareNs, kMaxPrepareNs);
  }
}

Transfer* Worker::buildRequest(const workload::SessionPlan& s) {
  Transfer* t = m_http->acquire();
  m_bodies->build(s, t->body);
  auto& r = t->record;
  r.sessionId = s.id;
  r.turn = 0;
  r.workerId = m_config->workerId;
  r.plannedNs = s.plannedNs;
  r.inputTokensClient = static_cast<int32_t>(s.inputTokens);
  return t;
}

Worker::Prepared Worker::takePrepared() {
  if (m_prepared.empty()) return {};
  Prepared p = std::move(m_prepared.front());
  m_prepared.pop_front();
  return p;
}

void Worker::discard(Prepared& p) {
  if (p.single != nullptr) m_http->discard(p.single);
  p.single = nullptr;
  m_sessionRunner->discard(std::move(p.roots));
}

void Worker::dropPending() {
  for (Prepared& p : m_prepared) discard(p);
  m_prepared.clear();
  m_notSent += m_pending.size();
  for (const auto& s : m_pending) m_sessionRunner->dropUnstarted(s);
  m_pending.clear();
}

void Worker::noteSend(int64_t plannedNs, int64_t sendNs) {
  const int64_t window = plannedNs / m_config->windowNs;
  auto& report = m_sends[window];
  report.windowIndex = window;
  ++report.sent;
  report.sendLag.record(sendNs - plannedNs);
  // Most sends go out in the window they were planned in: no second lookup on the send path.
  const int64_t during = std::max<int64_t>(0, sendNs) / m_config->windowNs;
  metrics::SendReport& at = during == window ? report : m_sends[during];
  at.windowIndex = during;
  ++at.sentDuring;
  // Sends go out in time order: their slice is nearly always the last one, or one after it.
  const int64_t slice = std::max<int64_t>(0, sendNs) / protocol::kRateSliceNs;
  if (m_sentBySlice.empty() || m_sentBySlice.back().first < slice)
    m_sentBySlice.emplace_back(slice, 0);
  auto it = m_sentBySlice.end() - 1;
  if (it->first != slice) {
    it = std::lower_bound(m_sentBySlice.begin(), m_sentBySlice.end(),
                          std::pair<int64_t, uint64_t>(slice, 0));
    if (it->first != slice) it = m_sentBySlice.insert(it, {slice, 0});
  }
  ++it->second;
}

void Worker::startSession(const workload::SessionPlan& s, Prepared prepared) {
  if (!s.requests.empty()) return m_sessionRunner->start(s, std::move(prepared.roots));
  Transfer* t = prepared.single != nullptr ? prepared.single : buildRequest(s);
  auto& r = t->record;
  r.sendNs = m_http->nowRel();
  // Count the send before starting it: once it completes, the run may finish.
  noteSend(s.plannedNs, r.sendNs);
  ConnectionReuse::apply(*t, m_http->socketsOpen(), m_http->inFlight());
  m_http->start(t);
  // A reply curl already read is timestamped now, not at the end of this send turn. Safe:
  // completions never send inline, they only schedule the next send turn.
  m_http->drainFinished();
}

void Worker::onRequestDone(Transfer& t) {
  if (const HarnessLimit limit = m_http->takeHarnessLimit(); limit != HarnessLimit::None) reportLimit(limit);
  if (metrics::carriesFailureSample(t.record.error)) reportFirstFailure(t);
  if (m_replyTokens && ReplyTokenQueue::hasReply(t.record, m_config->stream)) {
    if (t.keepReply) {  // a session's parent: its children's context needs the count now
      // Reasoning and tool-call text count as ReplyTokenQueue::add counts them: after the reply.
      // Only the answer is resent (QA 24 D4: the thinking was counted as resent input too).
      t.answerTokensClient = m_replyTokens->countNow(t.reply);
      t.record.outputTokensClient = t.thought.empty()
                                        ? t.answerTokensClient
                                        : m_replyTokens->countNow(t.reply + '\n' + t.thought);
      m_records.push_back(t.record);
    } else {
      m_replyTokens->add(t.record, t.reply, t.thought, m_http->nowRel());
      scheduleCounting(0);
    }
  } else {
    m_records.push_back(t.record);
  }
  if (m_records.size() >= kRecordsPerFrame) flushRecords();
  m_sessionRunner->onDone(t);  // may make dependent requests due (sent from the loop, not here)
  // A send slot opened: take the next send turn from the loop, never from inside a completion.
  if (!m_pending.empty() && !m_stopping &&
      m_pending.front().plannedNs <= m_http->nowRel() + m_spinMargin.marginNs()) {
    m_sendTimerAtNs = -1;  // this turn is not a timer wake-up
    event_active(m_sendTimer, EV_TIMEOUT, 0);
  }
  maybeFinish();
}

void Worker::flushRecords() {
  if (m_records.empty()) return;
  // A hold is known once the probe after it ran; records wait here for at least that long.
  for (auto& r : m_records)
    if (r.sendNs >= 0)
      r.heldNs = m_holds.longestOverlapping(r.sendNs, r.endNs >= 0 ? r.endNs : m_http->nowRel());
  m_channel->send(FrameType::Records, encodeRecords(m_records));
  m_records.clear();
}

void Worker::sendStats() {
  if (!m_config) return;
  const int64_t wall = util::monotonicNs(), cpu = util::processCpuNs();
  StatsReport s;
  s.sample.workerId = m_config->workerId;
  s.sample.atNs = wall - m_config->t0Ns;
  const int64_t busy = std::max<int64_t>(0, cpu - m_lastStatsCpuNs - m_spinNs);
  s.sample.cpuFraction =
      wall > m_lastStatsWallNs ? static_cast<double>(busy) / static_cast<double>(wall - m_lastStatsWallNs) : 0.0;
  m_spinNs = 0;
  s.sample.loopDelayMaxNs = m_loopDelayMaxNs;
  const int64_t cpuWait = m_cpuWait.totalNs();
  s.sample.cpuWaitNs = cpuWait >= 0 && m_lastCpuWaitNs >= 0 ? cpuWait - m_lastCpuWaitNs : -1;
  m_lastCpuWaitNs = cpuWait;
  s.sample.inFlight = static_cast<int64_t>(m_http->inFlight());
  s.sample.inFlightCapHits = m_capHits + m_sessionRunner->takeCapHits();
  if (SessionProgress p = m_sessionRunner->takeProgress(); !p.empty())
    m_channel->send(FrameType::SessionProgress, encodeSessionProgress(p));
  s.connectionsOpen = m_http->socketsOpen();
  for (auto& [window, report] : m_sends) s.sends.push_back(std::move(report));
  // Held back (behind the in-flight cap, or a loop running late), a request planned earlier
  // keeps its window open at the coordinator until it is sent or dropped.
  s.sendsThroughNs = s.sample.atNs;
  if (!m_pending.empty())
    s.sendsThroughNs = std::min(s.sendsThroughNs, m_pending.front().plannedNs);
  s.sendsThroughNs = std::min(s.sendsThroughNs, m_sessionRunner->nextDueNs());
  s.itl = m_http->itl();
  s.sentBySlice.swap(m_sentBySlice);
  m_channel->send(FrameType::Stats, encodeStats(s));
  m_sends.clear();
  m_http->itl().clear();
  m_capHits = 0;
  m_loopDelayMaxNs = 0;
  m_lastStatsWallNs = wall;
  m_lastStatsCpuNs = cpu;
}

void Worker::stop(int64_t graceNs) {
  if (m_stopping) {  // a second stop (a second signal) cuts the grace period short
    armTimer(m_graceTimer, graceNs);  // re-adding a pending timer reschedules it
    return;
  }
  m_stopping = true;
  dropPending();
  m_sessionRunner->stop();
  evtimer_del(m_sendTimer);
  m_sendTimerAtNs = -1;
  m_sendTurnDueNs = -1;
  armTimer(m_graceTimer, graceNs);
  maybeFinish();
}

void Worker::maybeFinish() {
  if (m_doneSent || !(m_endOfSessions || m_stopping) || !m_pending.empty() || m_http->inFlight() != 0 ||
      !m_sessionRunner->idle())
    return;
  m_doneSent = true;
  if (m_replyTokens) m_replyTokens->countAll(m_records);
  flushRecords();
  sendStats();
  m_channel->send(FrameType::Done,
                  encodeDone({m_sessionsReceived, m_notSent, m_notSentCapHeld, m_notSentBehind}));
  m_channel->flushBlocking(5000);
  event_base_loopbreak(m_base);
}

void Worker::onSendTimer(int, short, void* self) {
  auto* w = static_cast<Worker*>(self);
  if (w->m_sendTimerAtNs >= 0) w->m_spinMargin.noteLateness(w->m_http->nowRel() - w->m_sendTimerAtNs);
  w->m_sendTimerAtNs = -1;
  w->sendDue();
}
void Worker::onCountTimer(int, short, void* self) { static_cast<Worker*>(self)->countReplies(); }

void Worker::scheduleCounting(int64_t delayNs) {
  if (evtimer_pending(m_countTimer, nullptr) != 0) return;
  const timeval tv = util::toTimeval(delayNs);
  evtimer_add(m_countTimer, &tv);
}

void Worker::countReplies() {
  const int64_t now = m_http->nowRel();
  int64_t nextSend = m_sessionRunner->nextDueNs();
  if (!m_pending.empty()) nextSend = std::min(nextSend, m_pending.front().plannedNs);
  // Count only where it cannot delay a send: before the next send's spin, a slice at a time.
  int64_t deadline = now + kCountSliceNs;
  if (nextSend != INT64_MAX)
    deadline = std::min(deadline, nextSend - m_spinMargin.marginNs() - kCountMarginNs);
  m_replyTokens->countUntil(deadline, kMaxCountWaitNs, [this] { return m_http->nowRel(); }, m_records);
  if (m_records.size() >= kRecordsPerFrame) flushRecords();
  if (!m_replyTokens->empty()) {
    const bool blockedBySend = deadline < now + kCountSliceNs && nextSend != INT64_MAX;
    // Blocked: resume just after that send, or in 1 ms when sends are overdue (held by the
    // in-flight cap, or behind), where only replies waiting kMaxCountWaitNs are counted.
    scheduleCounting(!blockedBySend ? 0 : nextSend > now ? nextSend - now + 50'000 : 1'000'000);
  }
  maybeFinish();
}
void Worker::onStatsTimer(int, short, void* self) { static_cast<Worker*>(self)->sendStats(); }
void Worker::onFlushTimer(int, short, void* self) { static_cast<Worker*>(self)->flushRecords(); }

void Worker::onProbeTimer(int, short, void* self) {
  auto* w = static_cast<Worker*>(self);
  const int64_t now = util::monotonicNs();
  w->m_loopDelayMaxNs = std::max(w->m_loopDelayMaxNs, now - w->m_probeDueNs);
  w->m_holds.add(w->m_probeDueNs - w->m_config->t0Ns, now - w->m_config->t0Ns);
  // Kept while a request sent during one can still be in flight.
  w->m_holds.forgetBefore(now - w->m_config->t0Ns - w->m_config->timeoutNs - kHoldKeptPastTimeoutNs);
  // Wake-ups between sends teach the spin margin too, but only a probe that came due while the
  // loop slept: one held up by a send turn (its spin) would teach the margin its own length.
  if (w->m_probeDueNs > w->m_sendTurnEndNs) w->m_spinMargin.noteLateness(now - w->m_probeDueNs);
  w->m_probeDueNs = now + kProbeIntervalNs;
  w->armTimer(w->m_probeTimer, kProbeIntervalNs);
}

void Worker::onGraceTimer(int, short, void* self) {
  auto* w = static_cast<Worker*>(self);
  w->m_http->abortAll(metrics::ErrorClass::Cancelled);
  w->maybeFinish();
}

void Worker::reportLimit(HarnessLimit limit) {
  const auto bit = static_cast<uint8_t>(1u << static_cast<unsigned>(limit));
  if ((m_limitsReported & bit) != 0) return;  // once per limit: the records count every request
  m_limitsReported |= bit;
  m_channel->send(FrameType::HarnessLimit, describeHarnessLimit(limit, m_config->workerId));
}

void Worker::reportFirstFailure(const Transfer& t) {
  const auto bit = 1u << static_cast<unsigned>(t.record.error);
  if ((m_failuresSampled & bit) != 0) return;  // the first of each class: the records count them
  m_failuresSampled |= bit;
  FailureSampleReport report;
  report.errorClass = t.record.error;
  const bool reply = metrics::isHttpStatusClass(t.record.error);
  const bool hasStatus = t.status >= metrics::kMinHttpStatus && t.status <= metrics::kMaxHttpStatus;
  report.sample.status = reply       ? static_cast<int32_t>(std::clamp<long>(
                                     t.status, metrics::kMinHttpStatus, metrics::kMaxHttpStatus))
                         : hasStatus ? static_cast<int32_t>(t.status)
                                     : 0;
  report.sample.sendNs = std::max<int64_t>(0, t.record.sendNs);
  // t.response holds the start of an error body, or of a reply that could not be read
  // (ResponseReader, the native parser); the key never leaves here. A redirect says where it
  // pointed first: that is usually the fix (https, a missing /v1).
  const std::string said = t.location.empty()
                               ? t.response
                               : "(redirect to " + t.location + ", not followed) " + t.response;
  report.sample.body = metrics::failureBodyExcerpt(said, m_config->apiKey);
  report.sample.reason =
      metrics::failureBodyExcerpt(failureReason(t, m_config->timeoutNs), m_config->apiKey);
  m_channel->send(FrameType::FailureSample, encodeFailureSample(report));
}

int runWorkerProcess(int controlFd) {
  raiseFileDescriptorLimit();  // one descriptor per connection: take all the hard limit allows
  curl_global_init(CURL_GLOBAL_DEFAULT);  // TLS libraries load now, not on the first send
  Worker worker(controlFd);
  return worker.run();
}

}  // namespace plumbline::engine
