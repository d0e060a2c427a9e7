#pragma once
// A request driver of either client (native Http1Driver, libcurl's HttpDriver) on its own
// event loop, recording what each request ended as: for the client tests that check both keep
// the same contracts.
#include <event2/event.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "core/engine/failure_reason.h"
#include "core/engine/http1_driver.h"
#include "core/engine/http_driver.h"
#include "core/engine/request_driver.h"
#include "core/util/clock.h"
#include "tests/integration/scripted_http_server.h"

namespace plumbline::test::driver_client {

using engine::Http1Driver;
using engine::HttpDriver;
using engine::RequestDriver;
using engine::Transfer;
using engine::WorkerConfig;
using metrics::RequestRecord;
using nlohmann::json;

inline std::string driverChatBody(bool stream, int tokens = 8) {
  json j{{"model", "mock"},
         {"stream", stream},
         {"max_tokens", tokens},
         {"ignore_eos", true},
         {"messages", json::array({{{"role", "user"}, {"content", "hello there"}}})}};
  if (stream) j["stream_options"] = {{"include_usage", true}};
  return j.dump();
}

struct Finished {
  RequestRecord record;
  std::string reply;
  std::string response;
  std::string reason;  ///< failureReason: what the run's failure sample would say
};

/// Which client a Client drives: the native one, or libcurl's (HttpDriver) for the contracts
/// both must keep.
enum class Kind { Native, Curl };

/// A driver on its own event loop, and everything it reported.
class Client {
 public:
  Client(const std::string& url, bool stream, int64_t timeoutMs = 10'000,
         const std::string& apiKey = "", Kind kind = Kind::Native) {
    m_base = event_base_new();
    m_config.endpointUrl = url;
    m_config.stream = stream;
    m_config.timeoutNs = timeoutMs * 1'000'000;
    m_config.maxInFlight = 64;
    m_config.apiKey = apiKey;
    m_config.t0Ns = plumbline::util::monotonicNs();
    auto onDone = [this, timeoutMs](Transfer& t) {
      done.push_back({t.record, t.reply, t.response,
                      plumbline::engine::failureReason(t, timeoutMs * 1'000'000)});
    };
    if (kind == Kind::Curl)
      driver = std::make_unique<HttpDriver>(m_base, m_config, onDone);
    else
      driver = std::make_unique<Http1Driver>(m_base, m_config, onDone);
    driver->keepAllReplies(true);
  }
  ~Client() {
    driver.reset();
    event_base_free(m_base);
  }

  void send(const std::string& body, int count = 1) {
    for (int i = 0; i < count; ++i) {
      Transfer* t = driver->acquire();
      t->body = body;
      t->record.sessionId = static_cast<uint64_t>(m_sent++);
      driver->start(t);
      EXPECT_TRUE(done.size() <= static_cast<size_t>(m_sent)) << "OnDone ran inside start()";
    }
    driver->drainFinished();
  }
  /// Sends from inside a loop turn that had run `heldMs` before it, as a worker's send callback
  /// held up (stopped, or without a CPU) then sends what fell due meanwhile: libevent's time,
  /// cached when the turn began, is that old.
  void sendInATurnHeldFor(int heldMs, const std::string& body, int count = 1) {
    struct Turn {
      Client* client;
      int heldMs;
      const std::string* body;
      int count;
    } turn{this, heldMs, &body, count};
    event* e = evtimer_new(
        m_base,
        [](int, short, void* p) {
          const auto* t = static_cast<Turn*>(p);
          std::this_thread::sleep_for(std::chrono::milliseconds(t->heldMs));
          t->client->send(*t->body, t->count);
        },
        &turn);
    const timeval now{0, 0};
    evtimer_add(e, &now);
    event_base_loop(m_base, EVLOOP_ONCE);
    event_free(e);
  }
  /// Runs the loop until `n` requests have finished in all (bounded: 20 s).
  bool runUntil(size_t n) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (done.size() < n && std::chrono::steady_clock::now() < deadline)
      event_base_loop(m_base, EVLOOP_ONCE);
    return done.size() >= n;
  }
  void runFor(int ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < deadline) event_base_loop(m_base, EVLOOP_NONBLOCK);
  }

  /// The native client (a Client made with Kind::Native).
  Http1Driver& native() { return static_cast<Http1Driver&>(*driver); }

  std::unique_ptr<RequestDriver> driver;
  std::vector<Finished> done;

 private:
  event_base* m_base = nullptr;
  WorkerConfig m_config;
  int m_sent = 0;
};

inline std::string okJson() {
  return R"({"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}})";
}

inline ScriptedHttpServer::Reply okReply() {
  const std::string body = okJson();
  return {"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
              std::to_string(body.size()) + "\r\n\r\n" + body,
          false};
}

}  // namespace plumbline::test::driver_client
