#include "core/engine/live_server.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "core/engine/live_socket.h"
#include "core/live/live_stream.h"
#include "core/util/background_thread.h"

namespace plumbline::engine {

namespace {

/// What the publishing thread hands to the server thread.
struct Command {
  enum class Kind { Message, Stop } kind;
  live::LiveMessage message;
};


}  // namespace

struct LiveServer::State {
  struct Client {
    State* server = nullptr;
    uint64_t id = 0;
    bufferevent* bev = nullptr;
    size_t cap = 0;
    uint64_t ticksDropped = 0;
    bool ended = false;  ///< End queued: close once everything is read
  };

  static size_t unread(const Client& c) { return evbuffer_get_length(bufferevent_get_output(c.bev)); }

  LiveServerOptions opt;
  event_base* base = nullptr;
  evconnlistener* listener = nullptr;
  event* wake = nullptr;
  event* finishTimer = nullptr;
  int wakePipe[2] = {-1, -1};
  std::thread thread;
  std::atomic<size_t> clientCount{0};
  bool finished = false;  ///< publishing side: finish() has run

  std::mutex mutex;  // guards queue and log
  std::vector<Command> queue;
  std::vector<std::string> log;

  // Server thread only.
  std::map<uint64_t, std::unique_ptr<Client>> clients;
  uint64_t nextClientId = 1;
  std::string helloFrame;
  std::vector<std::string> replay;  ///< Window and Notice frames so far, in order
  std::optional<live::LiveTick> latestTick;
  std::string endFrame;

  void post(Command c) {
    {
      std::lock_guard lock(mutex);
      queue.push_back(std::move(c));
    }
    const char b = 1;
    [[maybe_unused]] auto n = ::write(wakePipe[1], &b, 1);  // full pipe: a wake-up is pending anyway
  }

  void addLog(std::string line) {
    std::lock_guard lock(mutex);
    log.push_back(std::move(line));
  }

  void remove(uint64_t id) {
    auto it = clients.find(id);
    if (it == clients.end()) return;
    bufferevent_free(it->second->bev);
    clients.erase(it);
    clientCount = clients.size();
    if (!endFrame.empty() && clients.empty()) event_base_loopbreak(base);
  }

  /// Queues a frame that must arrive; a client that cannot take it any more is disconnected.
  bool sendWhole(Client& c, const std::string& frame, const char* what) {
    if (unread(c) + frame.size() > c.cap) {
      addLog("live client " + std::to_string(c.id) + " disconnected: it left " + std::to_string(unread(c)) +
             " bytes unread and a " + what + " frame did not fit in its buffer");
      remove(c.id);
      return false;
    }
    bufferevent_write(c.bev, frame.data(), frame.size());
    return true;
  }

  void sendTick(Client& c, const std::string& shared) {
    std::string own;
    if (c.ticksDropped != 0) {
      live::LiveTick t = *latestTick;
      t.ticksDropped = c.ticksDropped;
      own = live::encodeLiveFrame(t);
    }
    const std::string& frame = own.empty() ? shared : own;
    if (unread(c) + frame.size() > c.cap / 2) {  // the other half is kept for frames that must arrive
      ++c.ticksDropped;  // the database has it all; this client just sees fewer ticks
      return;
    }
    bufferevent_write(c.bev, frame.data(), frame.size());
    c.ticksDropped = 0;
  }

  void endClient(Client& c) {
    c.ended = true;
    if (sendWhole(c, endFrame, "end") && unread(c) == 0) remove(c.id);
  }

  /// Hello, the Windows and Notices so far, the latest Tick: what a late joiner missed.
  void catchUp(Client& c) {
    size_t replayBytes = helloFrame.size();
    for (const auto& f : replay) replayBytes += f.size();
    c.cap = opt.clientBufferCap + replayBytes;
    bufferevent_write(c.bev, helloFrame.data(), helloFrame.size());
    for (const auto& f : replay) bufferevent_write(c.bev, f.data(), f.size());
    if (latestTick) sendTick(c, live::encodeLiveFrame(*latestTick));
    if (!endFrame.empty()) endClient(c);
  }

  /// Calls fn for every client; fn may disconnect the one it is given.
  template <typename Fn>
  void forEachClient(Fn fn) {
    std::vector<uint64_t> ids;
    for (auto& [id, c] : clients) ids.push_back(id);
    for (uint64_t id : ids)
      if (auto it = clients.find(id); it != clients.end()) fn(*it->second);
  }

  void handle(Command& cmd) {
    if (cmd.kind == Command::Kind::Stop) {
      event_base_loopbreak(base);
      return;
    }
    live::LiveMessage& m = cmd.message;
    if (auto* hello = std::get_if<live::LiveHello>(&m)) {
      helloFrame = live::encodeLiveFrame(*hello);
      forEachClient([this](Client& c) { catchUp(c); });
    } else if (auto* tick = std::get_if<live::LiveTick>(&m)) {
      latestTick = *tick;
      const std::string frame = live::encodeLiveFrame(*tick);
      forEachClient([&](Client& c) { sendTick(c, frame); });
    } else if (auto* end = std::get_if<live::LiveEnd>(&m)) {
      endFrame = live::encodeLiveFrame(*end);
      forEachClient([this](Client& c) { endClient(c); });
      if (clients.empty()) event_base_loopbreak(base);
      const timeval tv{static_cast<time_t>(opt.finishTimeoutMs / 1000),
                       static_cast<suseconds_t>(opt.finishTimeoutMs % 1000 * 1000)};
      evtimer_add(finishTimer, &tv);
    } else {
      const bool isWindow = std::holds_alternative<store::WindowRow>(m);
      replay.push_back(live::encodeLiveFrame(m));
      const std::string& frame = replay.back();
      if (!helloFrame.empty()) forEachClient([&](Client& c) { sendWhole(c, frame, isWindow ? "window" : "notice"); });
    }
  }

  static void onWake(evutil_socket_t fd, short, void* arg) {
    auto* s = static_cast<State*>(arg);
    char buf[256];
    while (::read(fd, buf, sizeof buf) > 0) {
    }
    std::vector<Command> batch;
    {
      std::lock_guard lock(s->mutex);
      batch.swap(s->queue);
    }
    for (auto& c : batch) s->handle(c);
  }

  static void onAccept(evconnlistener*, evutil_socket_t fd, sockaddr*, int, void* arg) {
    auto* s = static_cast<State*>(arg);
    evutil_make_socket_nonblocking(fd);
    if (s->opt.clientBufferCap < (size_t{1} << 20)) {
      // A small cap (tests) also means a small kernel buffer, or nothing would ever queue here.
      const int size = 4096;
      setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    }
    auto owned = std::make_unique<Client>();
    Client& c = *owned;
    c.server = s;
    c.id = s->nextClientId++;
    c.cap = s->opt.clientBufferCap;
    c.bev = bufferevent_socket_new(s->base, fd, BEV_OPT_CLOSE_ON_FREE);
    s->clients.emplace(c.id, std::move(owned));
    s->clientCount = s->clients.size();
    bufferevent_setcb(c.bev, &State::onClientRead, &State::onClientWritten, &State::onClientEvent, &c);
    bufferevent_enable(c.bev, EV_READ | EV_WRITE);
    const std::string greeting = live::encodeLiveGreeting();
    bufferevent_write(c.bev, greeting.data(), greeting.size());
    if (!s->helloFrame.empty()) s->catchUp(c);
  }

  static void onClientRead(bufferevent* bev, void*) {  // clients send nothing; ignore it
    evbuffer_drain(bufferevent_get_input(bev), evbuffer_get_length(bufferevent_get_input(bev)));
  }

  static void onClientWritten(bufferevent*, void* arg) {
    auto* c = static_cast<Client*>(arg);
    if (c->ended && unread(*c) == 0) c->server->remove(c->id);
  }

  static void onClientEvent(bufferevent*, short what, void* arg) {
    auto* c = static_cast<Client*>(arg);
    if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) c->server->remove(c->id);
  }

  static void onFinishTimeout(evutil_socket_t, short, void* arg) {
    auto* s = static_cast<State*>(arg);
    for (auto& [id, c] : s->clients)
      s->addLog("live client " + std::to_string(id) + " had not read the end of the stream after " +
                std::to_string(s->opt.finishTimeoutMs) + " ms; closed");
    event_base_loopbreak(s->base);
  }

  void loop() {
    event_base_dispatch(base);
    for (auto& [id, c] : clients) bufferevent_free(c->bev);
    clients.clear();
    clientCount = 0;
    // libevent closes a freed bufferevent's socket from the loop: let it, or clients would
    // not see the end of the stream until the server is destroyed.
    event_base_loop(base, EVLOOP_NONBLOCK);
  }
};

LiveServer::LiveServer(LiveServerOptions options) : m_state(std::make_unique<State>()) {
  State& s = *m_state;
  s.opt = std::move(options);
  std::signal(SIGPIPE, SIG_IGN);  // a client that vanishes is an error code, not our death
  const int fd = listenOnUnixSocket(s.opt.socketPath);
  if (pipe2(s.wakePipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    close(fd);
    unlink(s.opt.socketPath.c_str());
    throw LiveServerError("--live " + s.opt.socketPath + ": cannot create a pipe");
  }
  s.base = event_base_new();
  s.listener = evconnlistener_new(s.base, &State::onAccept, &s, LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 0, fd);
  s.wake = event_new(s.base, s.wakePipe[0], EV_READ | EV_PERSIST, &State::onWake, &s);
  s.finishTimer = evtimer_new(s.base, &State::onFinishTimeout, &s);
  event_add(s.wake, nullptr);
  s.thread = std::thread([&s] {
    util::markBackgroundThread("pl-live");  // named for top and perf; never preempts a worker's spin
    s.loop();
  });
}

LiveServer::~LiveServer() {
  State& s = *m_state;
  if (s.thread.joinable()) {
    s.post({Command::Kind::Stop, {}});
    s.thread.join();
  }
  event_free(s.wake);
  event_free(s.finishTimer);
  evconnlistener_free(s.listener);
  event_base_free(s.base);
  close(s.wakePipe[0]);
  close(s.wakePipe[1]);
  unlink(s.opt.socketPath.c_str());
}

void LiveServer::hello(const live::LiveHello& hello) { m_state->post({Command::Kind::Message, hello}); }
void LiveServer::tick(const live::LiveTick& tick) { m_state->post({Command::Kind::Message, tick}); }
void LiveServer::window(const store::WindowRow& window) { m_state->post({Command::Kind::Message, window}); }
void LiveServer::notice(const live::LiveNotice& notice) { m_state->post({Command::Kind::Message, notice}); }

void LiveServer::finish(const live::LiveEnd& end) {
  State& s = *m_state;
  if (s.finished) return;
  s.finished = true;
  s.post({Command::Kind::Message, end});
  s.thread.join();
  // No one may connect to a run that is over: the path goes now, not at destruction.
  evconnlistener_disable(s.listener);
  unlink(s.opt.socketPath.c_str());
}

std::vector<std::string> LiveServer::takeLog() {
  std::lock_guard lock(m_state->mutex);
  return std::exchange(m_state->log, {});
}

size_t LiveServer::clientCount() const { return m_state->clientCount; }
const std::string& LiveServer::socketPath() const { return m_state->opt.socketPath; }

}  // namespace plumbline::engine
