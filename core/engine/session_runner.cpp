#include "core/engine/session_runner.h"

#include <event2/event.h>

#include <algorithm>

#include "core/engine/connection_reuse.h"
#include "core/engine/loop_timer.h"
#include "core/mock/mock_request.h"
#include "core/util/clock.h"


namespace plumbline::engine {

using workload::RequestText;

namespace {
constexpr uint64_t kTextStream = 5'000'000'000'000ULL;
constexpr uint64_t kPrefixStream = 7'000'000'000'000ULL;
constexpr uint64_t kMaxRequestsPerSession = 8192;  ///< above the parser's limits (4096 nodes, 1001 requests)
constexpr int kMaxSessionSendsPerTurn = 64;

nlohmann::json message(const char* role, std::string content) {
  return {{"role", role}, {"content", std::move(content)}};
}
}  // namespace

SessionRunner::SessionRunner(event_base* base, const WorkerConfig& config, RequestDriver& http,
                             RequestBodyBuilder& bodies, OnSend onSend)
    : m_base(base), m_config(config), m_http(http), m_bodies(bodies), m_onSend(std::move(onSend)) {
  m_timer = evtimer_new(m_base, &SessionRunner::onTimer, this);
}

SessionRunner::~SessionRunner() { event_free(m_timer); }

void SessionRunner::initActive(Active& a, const workload::SessionPlan& plan) {
  a.plan = plan;
  const size_t n = plan.requests.size();
  a.nodes.resize(n);
  a.children.resize(n);
  a.open = static_cast<uint32_t>(n);
  for (uint32_t i = 0; i < n; ++i) {
    a.nodes[i].parentsLeft = static_cast<uint32_t>(plan.requests[i].parents.size());
    a.nodes[i].root = plan.requests[i].parents.empty();
    for (uint32_t p : plan.requests[i].parents) a.children[p].push_back(i);
  }
}

std::unique_ptr<SessionRunner::Prepared> SessionRunner::prepare(const workload::SessionPlan& plan) {
  auto p = std::make_unique<Prepared>();
  initActive(p->active, plan);
  for (uint32_t i = 0; i < p->active.nodes.size(); ++i)
    if (p->active.nodes[i].root) p->active.nodes[i].built = build(p->active, i);
  return p;
}

void SessionRunner::discard(std::unique_ptr<Prepared> prepared) {
  if (prepared) discardBuilt(prepared->active);
}

void SessionRunner::discardBuilt(Active& a) {
  for (Node& n : a.nodes) {
    if (n.built != nullptr) m_http.discard(n.built);
    n.built = nullptr;
  }
}

void SessionRunner::start(const workload::SessionPlan& plan, std::unique_ptr<Prepared> prepared) {
  if (m_stopping) {
    discard(std::move(prepared));
    return dropUnstarted(plan);
  }
  Active& a = m_sessions[plan.id];
  if (prepared)
    a = std::move(prepared->active);
  else
    initActive(a, plan);
  bool capped = false;
  for (uint32_t i = 0; i < a.nodes.size(); ++i) {
    if (!a.nodes[i].root) continue;
    if (static_cast<int64_t>(m_http.inFlight()) < m_config.maxInFlight) {
      send(a, i, plan.plannedNs);
      continue;
    }
    // Over the cap (QA 23a: a summarize session's 8 chunks went out at once, 17 in flight under
    // a cap of 3): due from the session's instant, sent as slots free up (onDone, pump).
    a.nodes[i].state = State::Due;
    a.nodes[i].readyNs = plan.plannedNs;
    m_due.push(Due{plan.plannedNs, plan.id, i});
    capped = true;
  }
  if (capped) ++m_capHits;
  m_http.drainFinished();  // a reply already read is timestamped now
}

void SessionRunner::dropUnstarted(const workload::SessionPlan& plan) {
  m_progress.notSentRunEnded += plan.requestCount();
}

const std::string& SessionRunner::prefixText(uint32_t group, uint32_t tokens) {
  auto it = m_prefixes.find(group);
  if (it == m_prefixes.end()) {
    std::string text;
    m_bodies.appendSynthetic(kPrefixStream + group, tokens, text);
    it = m_prefixes.emplace(group, std::move(text)).first;
  }
  return it->second;
}

/// A request's new text: the dataset's human turn, the trace row's blocks (first request), or
/// synthetic text of the planned length.
std::string SessionRunner::newText(const Active& a, uint32_t index) {
  const workload::SessionRequest& r = a.plan.requests[index];
  if (r.text == RequestText::DatasetTurn) return m_bodies.datasetTurn(a.plan.id, index);
  std::string text;
  if (index == 0 && !a.plan.promptBlocks.empty()) {
    m_bodies.appendBlocks(a.plan.promptBlocks, r.newTokens, a.plan.id, text);
    return text;
  }
  m_bodies.appendSynthetic(kTextStream + a.plan.id * kMaxRequestsPerSession + index, r.newTokens, text);
  return text;
}

/// The system message a conversation starts with, if any: the group's shared prompt first (the
/// prefix every session of the group shares), then a ShareGPT conversation's own system text.
/// One message, their texts joined by a blank line: many chat templates take a single leading
/// system message only, and completions join messages that same way.
void SessionRunner::appendSystem(const Active& a, uint32_t index, nlohmann::json& messages) {
  std::string text;
  if (a.plan.prefixTokens > 0) text = prefixText(a.plan.prefixGroup, a.plan.prefixTokens);
  if (a.plan.requests[index].text == RequestText::DatasetTurn) {
    const std::string& own = m_bodies.datasetSystem(a.plan.id);
    if (!own.empty() && !text.empty()) text.append("\n\n");
    text.append(own);
  }
  if (!text.empty()) messages.push_back(message("system", std::move(text)));
}

/// The conversation a request sends: the parent's (with its reply) plus the new text; a chunk
/// on its own; a reduce over its parents' replies. Always led by the system message.
nlohmann::json SessionRunner::messagesFor(Active& a, uint32_t index) {
  const workload::SessionRequest& r = a.plan.requests[index];
  Node& node = a.nodes[index];
  nlohmann::json messages = nlohmann::json::array();
  int64_t context = r.newTokens;
  if (r.text == RequestText::Reduce) {
    std::string joined;
    for (uint32_t p : r.parents) {
      if (!joined.empty()) joined.append("\n\n");
      joined.append(a.nodes[p].reply);
      context += a.nodes[p].replyTokens;
    }
    appendSystem(a, index, messages);
    messages.push_back(message("user", std::move(joined)));
  } else if (!r.parents.empty()) {
    const Node& parent = a.nodes[r.parents.front()];
    messages = parent.conversation;  // already led by the system prompt
    context += parent.contextTokens + parent.replyTokens;
    messages.push_back(message("user", newText(a, index)));
  } else {
    appendSystem(a, index, messages);
    messages.push_back(message("user", newText(a, index)));
  }
  node.contextTokens = context;
  return messages;
}

Transfer* SessionRunner::build(Active& a, uint32_t index) {
  Node& node = a.nodes[index];
  nlohmann::json messages = messagesFor(a, index);
  Transfer* t = m_http.acquire();
  m_bodies.buildConversation(messages, a.plan.requests[index].outputTokens, t->body);
  if (!a.children[index].empty()) {
    node.conversation = std::move(messages);
    t->keepReply = true;
  }
  auto& r = t->record;
  r.sessionId = a.plan.id;
  r.turn = index;
  r.workerId = m_config.workerId;
  r.inputTokensClient = static_cast<int32_t>(std::min<int64_t>(node.contextTokens + a.plan.prefixTokens, INT32_MAX));
  return t;
}

void SessionRunner::send(Active& a, uint32_t index, int64_t plannedNs) {
  Node& node = a.nodes[index];
  // A root was built ahead; a dependent request carries replies that came only now.
  Transfer* t = node.built != nullptr ? node.built : build(a, index);
  node.built = nullptr;
  node.state = State::InFlight;
  auto& r = t->record;
  r.plannedNs = plannedNs;
  r.sendNs = m_http.nowRel();
  m_onSend(plannedNs, r.sendNs);  // before the start: once it completes, the run may finish
  ConnectionReuse::apply(*t, m_http.socketsOpen(), m_http.inFlight());
  m_http.start(t);
}

bool SessionRunner::onDone(Transfer& t) {
  const auto it = m_sessions.find(t.record.sessionId);
  const bool ours = it != m_sessions.end() && t.record.turn < it->second.nodes.size() &&
                    it->second.nodes[t.record.turn].state == State::InFlight;
  if (ours) {
    Active& a = it->second;
    const uint32_t index = t.record.turn;
    Node& node = a.nodes[index];
    if (t.record.ok()) {
      node.reply = std::move(t.reply);
      // The answer as the client counted it: its deltas in a stream, the tokenizer's count;
      // else (a whole body, no tokenizer) in words, as prompts are (QA 23a: each reply resent
      // counted 0). Thinking is not resent, so not counted (QA 24 D4).
      node.replyTokens =
          t.answerTokensClient >= 0 ? t.answerTokensClient : mock::countWords(node.reply);
      if (!a.children[index].empty()) node.conversation.push_back(message("assistant", node.reply));
      finishNode(a, index, State::Done);
      for (uint32_t child : a.children[index]) makeReady(a, child, t.record.endNs);
    } else {
      finishNode(a, index, State::Failed);
      skipDescendants(a, index);
    }
    if (a.open == 0) m_sessions.erase(it);
  }
  if (!m_due.empty()) event_active(m_timer, EV_TIMEOUT, 0);  // a send slot opened, or a child is ready
  return ours;
}

void SessionRunner::finishNode(Active& a, uint32_t index, State state) {
  a.nodes[index].state = state;  // its conversation stays until the session ends: children copy it
  --a.open;
}

void SessionRunner::makeReady(Active& a, uint32_t child, int64_t parentEndNs) {
  Node& c = a.nodes[child];
  if (c.state != State::Waiting) return;
  c.readyNs = std::max(c.readyNs, parentEndNs + a.plan.requests[child].delayNs);
  if (--c.parentsLeft != 0) return;
  if (m_stopping) {
    ++m_progress.notSentRunEnded;
    c.state = State::Skipped;
    --a.open;
    return skipDescendants(a, child);
  }
  c.state = State::Due;  // part of the plan once its instant comes (pump, stop), not before
  // Its replies are all here: a request due after a think time or tool latency is built now,
  // not at its instant (measured: turns of 1.6M-token conversations went out 70-150 ms late,
  // built when due). One due at its parent's end is built then; nothing earlier can be known.
  if (a.plan.requests[child].delayNs > 0) c.built = build(a, child);
  m_due.push(Due{c.readyNs, a.plan.id, child});
}

void SessionRunner::skipDescendants(Active& a, uint32_t index) {
  for (uint32_t child : a.children[index]) {
    Node& c = a.nodes[child];
    if (c.state != State::Waiting) continue;
    c.state = State::Skipped;
    --a.open;
    ++(m_stopping ? m_progress.notSentRunEnded : m_progress.notSentParentFailed);
    skipDescendants(a, child);
  }
}

void SessionRunner::stop() {
  m_stopping = true;
  evtimer_del(m_timer);
  m_timerDueNs = -1;
  m_due = {};
  const int64_t now = m_http.nowRel();
  for (auto it = m_sessions.begin(); it != m_sessions.end();) {
    Active& a = it->second;
    for (Node& n : a.nodes) {
      if (n.state != State::Waiting && n.state != State::Due) continue;
      // Due by now and not sent (the in-flight cap held it, or the worker was behind): it was
      // part of the plan. Due later (a think time running past the stop) it never was: a run
      // stopped mid-conversation is not behind on the turns it stopped.
      if (n.state == State::Due && n.readyNs <= now && !n.root)
        m_progress.countDue(n.readyNs, m_config.windowNs);
      n.state = State::Skipped;
      --a.open;
      ++m_progress.notSentRunEnded;
    }
    discardBuilt(a);
    it = a.open == 0 ? m_sessions.erase(it) : std::next(it);
  }
}

void SessionRunner::onTimer(int, short, void* self) { static_cast<SessionRunner*>(self)->pump(); }

void SessionRunner::pump() {
  m_timerDueNs = -1;
  if (m_stopping) return;
  for (int sent = 0; !m_due.empty(); ++sent) {
    if (sent == kMaxSessionSendsPerTurn) {
      event_active(m_timer, EV_TIMEOUT, 0);  // let the loop read streams between batches
      break;
    }
    const Due due = m_due.top();
    if (due.atNs > m_http.nowRel()) break;
    if (static_cast<int64_t>(m_http.inFlight()) >= m_config.maxInFlight) {
      ++m_capHits;
      break;  // resumed by onDone when a request finishes
    }
    m_due.pop();
    const auto it = m_sessions.find(due.session);
    if (it == m_sessions.end() || it->second.nodes[due.index].state != State::Due) continue;
    // A root is part of the plan already (the coordinator counts it with its session).
    if (!it->second.nodes[due.index].root) m_progress.countDue(due.atNs, m_config.windowNs);
    send(it->second, due.index, due.atNs);
  }
  m_http.drainFinished();
  armTimer();
}

void SessionRunner::pumpIfDue() {
  if (m_timerDueNs < 0 || m_http.nowRel() < m_timerDueNs ||
      static_cast<int64_t>(m_http.inFlight()) >= m_config.maxInFlight)
    return;
  evtimer_del(m_timer);
  pump();
}

void SessionRunner::armTimer() {
  m_timerDueNs = -1;
  if (m_due.empty() || m_stopping) return;
  const int64_t delay = m_due.top().atNs - m_http.nowRel();
  const timeval tv = util::toTimeval(delay);
  addTimerFromNow(event_get_base(m_timer), m_timer, &tv);
  if (delay > 0) m_timerDueNs = m_due.top().atNs;  // only a sleeping timer is overtaken
}

SessionProgress SessionRunner::takeProgress() {
  SessionProgress p = std::move(m_progress);
  m_progress = SessionProgress{};
  return p;
}

int64_t SessionRunner::takeCapHits() {
  const int64_t hits = m_capHits;
  m_capHits = 0;
  return hits;
}

}  // namespace plumbline::engine
