#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/engine/request_driver.h"
#include "core/engine/request_body.h"
#include "core/engine/session_frames.h"
#include "core/engine/worker_config.h"
#include "core/workload/planner.h"

struct event_base;
struct event;

namespace plumbline::engine {

/// Runs shaped sessions on one worker: sends a session's root requests at its planned
/// instant, then each dependent request once its parents completed (after the planned think
/// time or tool latency), carrying the conversation so far with the replies' actual text.
/// A dependent request's planned time is the instant it became ready. Requests that cannot
/// be sent (a parent failed, the run stopped) are counted by reason, never silently dropped.
class SessionRunner {
 public:
  /// Called for every send: planned instant and send instant (the worker's send accounting).
  using OnSend = std::function<void(int64_t plannedNs, int64_t sendNs)>;

  SessionRunner(event_base* base, const WorkerConfig& config, RequestDriver& http, RequestBodyBuilder& bodies,
                OnSend onSend);
  ~SessionRunner();
  SessionRunner(const SessionRunner&) = delete;
  SessionRunner& operator=(const SessionRunner&) = delete;

  /// A session's root requests built ahead of its planned instant (Worker::prepareSoon):
  /// their conversations and bodies, so that none is built when it is due.
  struct Prepared;
  std::unique_ptr<Prepared> prepare(const workload::SessionPlan& session);
  /// Releases a prepared session that will not start.
  void discard(std::unique_ptr<Prepared> prepared);
  /// Sends the session's root requests now (its planned instant has come), built ahead when
  /// `prepared` holds them. Roots beyond the in-flight cap wait for free slots, as dependent
  /// requests do, due from the session's planned instant.
  void start(const workload::SessionPlan& session, std::unique_ptr<Prepared> prepared = nullptr);
  /// A request finished; false when it was not one of ours. Never sends inline.
  bool onDone(Transfer& t);
  /// The session will never start (run stopped or schedule over): all its requests are not sent.
  void dropUnstarted(const workload::SessionPlan& session);
  /// No more sends: every request not yet sent is counted as not sent (run ended).
  void stop();
  bool idle() const { return m_sessions.empty(); }
  /// Sends the dependent requests that came due while a socket callback ran (the worker calls
  /// this after each read), rather than when the loop next looks at its timers; nothing while
  /// the in-flight cap holds them back (onDone resumes them).
  void pumpIfDue();
  /// The planned instant of the next dependent request due, INT64_MAX when none is.
  int64_t nextDueNs() const { return m_due.empty() ? INT64_MAX : m_due.top().atNs; }
  /// Due requests and not-sent counts since the last take.
  SessionProgress takeProgress();
  /// Times a due request waited for the in-flight cap, since the last take.
  int64_t takeCapHits();

 private:
  enum class State : uint8_t { Waiting, Due, InFlight, Done, Failed, Skipped };
  struct Node {
    State state = State::Waiting;
    bool root = false;          ///< planned with its session (the coordinator counts it)
    /// Its request built ahead, until it is sent: a root with its session, a request due after
    /// a delay as soon as its parents ended.
    Transfer* built = nullptr;
    uint32_t parentsLeft = 0;
    int64_t readyNs = 0;             ///< when the last parent ended + delay
    int64_t contextTokens = 0;       ///< conversation before the prefix, as sent (client count)
    int64_t replyTokens = 0;
    nlohmann::json conversation;     ///< messages sent (+ the reply once done); kept for children
    std::string reply;
  };
  struct Active {
    workload::SessionPlan plan;
    std::vector<Node> nodes;
    std::vector<std::vector<uint32_t>> children;
    uint32_t open = 0;               ///< nodes not yet done, failed or skipped
  };

 public:
  struct Prepared {
    Active active;
  };

 private:
  struct Due {
    int64_t atNs;
    uint64_t session;
    uint32_t index;
    bool operator>(const Due& o) const { return atNs != o.atNs ? atNs > o.atNs : session > o.session; }
  };

  static void onTimer(int, short, void* self);
  void pump();
  void armTimer();
  /// Nodes and edges of a session not yet started.
  static void initActive(Active& a, const workload::SessionPlan& plan);
  /// A request's transfer with its body and record (all but the planned and send instants).
  Transfer* build(Active& a, uint32_t index);
  void send(Active& a, uint32_t index, int64_t plannedNs);
  /// Releases the requests built ahead for nodes that will not be sent.
  void discardBuilt(Active& a);
  nlohmann::json messagesFor(Active& a, uint32_t index);
  void appendSystem(const Active& a, uint32_t index, nlohmann::json& messages);
  std::string newText(const Active& a, uint32_t index);
  const std::string& prefixText(uint32_t group, uint32_t tokens);
  void finishNode(Active& a, uint32_t index, State state);
  void skipDescendants(Active& a, uint32_t index);
  void makeReady(Active& a, uint32_t child, int64_t parentEndNs);

  event_base* m_base;
  const WorkerConfig& m_config;
  RequestDriver& m_http;
  RequestBodyBuilder& m_bodies;
  OnSend m_onSend;
  event* m_timer = nullptr;
  int64_t m_timerDueNs = -1;  ///< when the sleeping timer is due (run time), else -1 (pumpIfDue)
  std::unordered_map<uint64_t, Active> m_sessions;
  std::priority_queue<Due, std::vector<Due>, std::greater<>> m_due;
  std::map<uint32_t, std::string> m_prefixes;
  SessionProgress m_progress;
  int64_t m_capHits = 0;
  bool m_stopping = false;
};

}  // namespace plumbline::engine
