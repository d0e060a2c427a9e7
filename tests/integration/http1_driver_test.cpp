// The native HTTP/1.1 client (Http1Driver) on its own event loop: against the real mock for
// streaming and non-streaming requests, and against scripted servers for every fault it must
// classify as the libcurl client does (refused, reset, timeout, garbage, HTML, a dead
// keep-alive connection that must not be sent to twice). The contracts the worker needs of
// both clients (the after-read hook) are checked on libcurl's HttpDriver too.
#include <arpa/inet.h>
#include <event2/event.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <ctime>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/engine/failure_reason.h"
#include "core/engine/http1_driver.h"
#include "core/engine/http_driver.h"
#include "core/engine/request_driver.h"
#include "core/util/clock.h"
#include "tests/integration/child_process.h"
#include "tests/integration/driver_client.h"
#include "tests/integration/mock_http.h"
#include "tests/integration/scripted_http_server.h"

using nlohmann::json;
using plumbline::engine::Http1Driver;
using plumbline::engine::HttpDriver;
using plumbline::engine::RequestDriver;
using plumbline::engine::Transfer;
using plumbline::engine::WorkerConfig;
using plumbline::metrics::ErrorClass;
using plumbline::metrics::RequestRecord;
using plumbline::test::ChildProcess;
using plumbline::test::ScriptedHttpServer;
using plumbline::test::TempDir;
using Reply = ScriptedHttpServer::Reply;
// The client harness both clients' tests share (Client, Kind, driverChatBody, okReply).
using namespace plumbline::test::driver_client;  // NOLINT(google-build-using-namespace)

namespace {

struct Mock {
  TempDir dir;
  std::unique_ptr<ChildProcess> process;
  std::string url;
  explicit Mock(const json& config) {
    const std::string path = dir.file("mock.json");
    std::ofstream(path) << config.dump();
    process = std::make_unique<ChildProcess>(
        std::vector<std::string>{PLUMBLINE_BIN, "mock", "--listen", "127.0.0.1:0", "--config", path},
        dir.file("mock.txt"));
    url = plumbline::test::firstLineOf(*process) + "/v1/chat/completions";
  }
};

}  // namespace

TEST(Http1Driver, StreamsFromTheMockWithEveryTimestampAndReusesConnections) {
  Mock mock(json{{"ttft_ms", 5}, {"itl_ms", 2}, {"threads", 1}});
  ASSERT_NE(mock.url, "/v1/chat/completions");
  Client c(mock.url, true);
  c.send(driverChatBody(true, 8), 4);
  ASSERT_TRUE(c.runUntil(4));
  for (const Finished& f : c.done) {
    const RequestRecord& r = f.record;
    EXPECT_EQ(r.error, ErrorClass::None) << f.response;
    EXPECT_EQ(r.httpStatus, 200);
    EXPECT_GE(r.uploadEndNs, r.sendNs);
    EXPECT_GE(r.firstByteNs, r.uploadEndNs);
    EXPECT_GE(r.firstTokenNs, r.firstByteNs);
    EXPECT_GE(r.lastTokenNs, r.firstTokenNs);
    EXPECT_GE(r.endNs, r.lastTokenNs);
    EXPECT_EQ(r.outputTokensClient, 8);
    EXPECT_EQ(r.outputTokensServer, 8);
    EXPECT_GT(r.inputTokensServer, 0);
    EXPECT_EQ(r.chunks, 8 + 2);  // content chunks, the usage chunk, [DONE]
    EXPECT_FALSE(f.reply.empty());
  }
  EXPECT_EQ(c.driver->inFlight(), 0u);
  EXPECT_EQ(c.driver->socketsOpen(), 4u);  // kept alive, idle
  EXPECT_GT(c.driver->itl().count(), 0u);
  // Sequential requests after that reuse the idle connections: no new socket.
  for (int i = 0; i < 3; ++i) {
    c.send(driverChatBody(true, 2));
    ASSERT_TRUE(c.runUntil(5 + static_cast<size_t>(i)));
  }
  EXPECT_EQ(c.driver->socketsOpen(), 4u);
  EXPECT_EQ(c.done.back().record.error, ErrorClass::None);
}

// The worker sends from the after-read hook what came due during a read (Worker::sendIfDue):
// the hook runs after every read callback, once that read's completions were reported, and a
// request started from it may take the very connection whose read just ended it. Both clients.
void afterReadRunsAfterCompletions(Kind kind) {
  Mock mock(json{{"ttft_ms", 1}, {"itl_ms", 1}, {"threads", 1}});
  Client c(mock.url, true, 10'000, "", kind);
  std::vector<size_t> doneAtCall;
  bool sentFromHook = false;
  c.driver->setAfterRead([&] {
    doneAtCall.push_back(c.done.size());
    if (c.done.size() == 1 && !sentFromHook) {
      sentFromHook = true;
      c.send(driverChatBody(true, 3));  // the finished request's connection is idle: reused
    }
  });
  c.send(driverChatBody(true, 4));
  ASSERT_TRUE(c.runUntil(2));
  ASSERT_TRUE(sentFromHook);
  // One call per read, at least the two reads that completed the requests. (The chunks usually
  // come in several reads, but a loaded machine can hold the client until a whole reply is
  // there: under ASan beside other tests the first call already saw the first completion.)
  EXPECT_GE(doneAtCall.size(), 2u);
  // The call that saw the first completion came after the read that completed it.
  EXPECT_NE(std::find(doneAtCall.begin(), doneAtCall.end(), 1u), doneAtCall.end());
  for (const Finished& f : c.done) {
    EXPECT_EQ(f.record.error, ErrorClass::None) << f.response;
    EXPECT_EQ(f.record.outputTokensServer, f.record.outputTokensClient);
  }
  EXPECT_EQ(c.done[1].record.outputTokensServer, 3);
  EXPECT_EQ(c.driver->socketsOpen(), 1u);  // the hook's request reused the connection
}

TEST(Http1Driver, AfterReadRunsAfterTheReadsCompletionsAndMaySendOnTheSameConnection) {
  afterReadRunsAfterCompletions(Kind::Native);
}

TEST(HttpDriver, AfterReadRunsAfterTheReadsCompletionsAndMaySendOnTheSameConnection) {
  afterReadRunsAfterCompletions(Kind::Curl);
}

TEST(Http1Driver, NonStreamingBodyIsDecoded) {
  Mock mock(json{{"ttft_ms", 0}, {"itl_ms", 0}, {"threads", 1}});
  Client c(mock.url, false);
  c.send(driverChatBody(false, 5), 3);
  ASSERT_TRUE(c.runUntil(3));
  for (const Finished& f : c.done) {
    EXPECT_EQ(f.record.error, ErrorClass::None) << f.response;
    EXPECT_EQ(f.record.outputTokensServer, 5);
    EXPECT_EQ(f.record.chunks, 1);
    EXPECT_GE(f.record.uploadEndNs, f.record.sendNs);
    EXPECT_GE(f.record.endNs, f.record.firstByteNs);
    EXPECT_FALSE(f.reply.empty());
  }
}

TEST(Http1Driver, LargeBodyIsWrittenWhenTheSocketDrainsAndUploadEndIsRecorded) {
  Mock mock(json{{"ttft_ms", 0}, {"itl_ms", 0}, {"threads", 1}});
  Client c(mock.url, true);
  json j = json::parse(driverChatBody(true, 2));
  j["messages"][0]["content"] = std::string(4 << 20, 'a');  // larger than any socket buffer
  c.send(j.dump());
  ASSERT_TRUE(c.runUntil(1));
  const RequestRecord& r = c.done[0].record;
  EXPECT_EQ(r.error, ErrorClass::None) << c.done[0].response;
  EXPECT_GT(r.uploadEndNs, r.sendNs);
  EXPECT_GE(r.firstByteNs, r.uploadEndNs);
}

TEST(Http1Driver, RefusedConnectionIsConnectAndReportedAfterStart) {
  // A port that was just free: nothing listens there.
  int port = 0;
  {
    ScriptedHttpServer gone([](int, int, const std::string&) { return std::optional<Reply>(); });
    port = std::stoi(gone.url().substr(17, 5));
  }
  Client c("http://127.0.0.1:" + std::to_string(port) + "/v1/chat/completions", true);
  c.send(driverChatBody(true), 2);
  ASSERT_TRUE(c.runUntil(2));
  for (const Finished& f : c.done) {
    EXPECT_EQ(f.record.error, ErrorClass::Connect);
    // Why, in words a person fixes a target by (QA: "connect 8" said nothing more).
    EXPECT_EQ(f.reason, "connect to 127.0.0.1:" + std::to_string(port) +
                            ": Connection refused (ECONNREFUSED)");
  }
  EXPECT_EQ(c.driver->socketsOpen(), 0u);
  EXPECT_EQ(c.driver->inFlight(), 0u);

  Client curl("http://127.0.0.1:" + std::to_string(port) + "/v1/chat/completions", true, 10'000, "",
              Kind::Curl);
  curl.send(driverChatBody(true));
  ASSERT_TRUE(curl.runUntil(1));
  EXPECT_EQ(curl.done[0].record.error, ErrorClass::Connect);
  EXPECT_NE(curl.done[0].reason.find("127.0.0.1 port " + std::to_string(port)), std::string::npos)
      << curl.done[0].reason;  // libcurl's own words: "Failed to connect to 127.0.0.1 port N ..."
}

TEST(Http1Driver, UnresolvableHostIsConnect) {
  Client c("http://plumbline-no-such-host.invalid:9/v1/chat/completions", true);
  c.send(driverChatBody(true));
  ASSERT_TRUE(c.runUntil(1));
  EXPECT_EQ(c.done[0].record.error, ErrorClass::Connect);
  EXPECT_EQ(c.done[0].reason.rfind("cannot resolve host \"plumbline-no-such-host.invalid\": ", 0),
            0u)
      << c.done[0].reason;
}

TEST(Http1Driver, StallBeyondTheTimeoutIsTimeout) {
  Mock mock(json{{"ttft_ms", 0}, {"itl_ms", 0}, {"threads", 1}, {"faults", {{"stall_first_byte", 1.0}}},
                 {"stall_ms", 3000}});
  Client c(mock.url, true, 300);
  c.send(driverChatBody(true));
  ASSERT_TRUE(c.runUntil(1));
  const RequestRecord& r = c.done[0].record;
  EXPECT_EQ(r.error, ErrorClass::Timeout);
  EXPECT_EQ(c.done[0].reason, "no reply within the 300 ms timeout");
  EXPECT_GE(r.endNs - r.sendNs, 250'000'000);
  EXPECT_EQ(c.driver->socketsOpen(), 0u);  // a timed-out connection is never reused
}

// A worker held up (stopped, or waiting for a CPU) wakes to every expired timer but to at most 32
// ready sockets per turn of its loop: connects that completed during the hold were reported as
// "connect to ...: no answer" (a WorkerStall run once had 28 at a 3.4 s hold). Sixty connects
// complete while this loop is not run, past their connect timer.
TEST(Http1Driver, AConnectThatCompletedWhileTheLoopWasHeldIsNotNoAnswer) {
  Mock mock(json{{"ttft_ms", 0}, {"itl_ms", 0}, {"threads", 1}});
  constexpr int kRequests = 60;
  Client c(mock.url, false, 10'000);
  c.native().setConnectTimeout(100'000'000);
  c.send(driverChatBody(false), kRequests);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_TRUE(c.runUntil(kRequests));
  for (const Finished& f : c.done) EXPECT_EQ(f.record.error, ErrorClass::None) << f.reason;

  // Held past the requests' own timeout: none is sent late, and each is the harness's failure,
  // not the server's.
  Client late(mock.url, false, 100);
  late.send(driverChatBody(false), kRequests);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_TRUE(late.runUntil(kRequests));
  const std::string hostPort = mock.url.substr(7, mock.url.find('/', 7) - 7);
  for (const Finished& f : late.done) {
    EXPECT_EQ(f.record.error, ErrorClass::HarnessLimit);
    EXPECT_EQ(f.reason.rfind("connect to " + hostPort +
                                 " completed, but the 100 ms timeout passed before this worker "
                                 "could write the request (its loop was held, ",
                             0),
              0u)
        << f.reason;
    EXPECT_EQ(f.record.uploadEndNs, -1);  // never written
  }
  EXPECT_EQ(late.driver->takeHarnessLimit(), plumbline::engine::HarnessLimit::LoopHeld);
  EXPECT_EQ(late.driver->socketsOpen(), 0u);
}

namespace {
/// A worker held up (stopped, or waiting for a CPU) past its requests' deadline wakes to their
/// timers and to the replies that came meanwhile at once, in no set order. Here the server
/// answers 150 ms after each request came, within the 300 ms timeout, and the loop is not run
/// for 600 ms after the last request went out. Each client reads what came before it judges:
/// none is a timeout. (libcurl judged its own timeout before reading, so every one was. The
/// native client, which reads a non-streaming reply without arrival stamps, called late each
/// one it came to by its timer: libevent hands a loop turn at most as many ready sockets as
/// it ever saw at once, so the sixty requests go out one by one, and 28 come to it by timer.)
/// A server that has not answered by then still times out, in the usual words.
void expectRepliesThatCameDuringAHoldAreNotTimeouts(Kind kind) {
  constexpr int kRequests = 60;
  ScriptedHttpServer server([](int, int, const std::string&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    return std::optional<Reply>(okReply());
  });
  Client c(server.url(), false, 300, "", kind);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (int i = 1; i <= kRequests; ++i) {
    c.send(driverChatBody(false));
    while (server.requests() < i && std::chrono::steady_clock::now() < until) c.runFor(1);
  }
  ASSERT_EQ(server.requests(), kRequests);
  std::this_thread::sleep_for(std::chrono::milliseconds(600));  // the hold
  ASSERT_TRUE(c.runUntil(kRequests));
  int readAfterTheDeadline = 0;
  for (const Finished& f : c.done) {
    EXPECT_EQ(f.record.error, ErrorClass::None) << f.reason;
    if (f.record.endNs - f.record.sendNs > 300'000'000) ++readAfterTheDeadline;
  }
  EXPECT_GE(readAfterTheDeadline, kRequests / 2);  // the hold was across their deadlines

  Mock stalled(json{{"ttft_ms", 0},
                    {"itl_ms", 0},
                    {"threads", 1},
                    {"faults", {{"stall_first_byte", 1.0}}},
                    {"stall_ms", 3000}});
  Client s(stalled.url, false, 300, "", kind);
  s.send(driverChatBody(false));
  s.runFor(50);
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  ASSERT_TRUE(s.runUntil(1));
  EXPECT_EQ(s.done[0].record.error, ErrorClass::Timeout);
  EXPECT_EQ(s.done[0].reason, "no reply within the 300 ms timeout");
  EXPECT_EQ(s.driver->socketsOpen(), 0u);
}
}  // namespace

TEST(Http1Driver, RepliesThatCameDuringAHoldAcrossTheirDeadlineAreNotTimeouts) {
  expectRepliesThatCameDuringAHoldAreNotTimeouts(Kind::Native);
}
TEST(HttpDriver, RepliesThatCameDuringAHoldAcrossTheirDeadlineAreNotTimeouts) {
  expectRepliesThatCameDuringAHoldAreNotTimeouts(Kind::Curl);
}

namespace {
/// A request sent from a loop turn that was held before it (a worker's send callback stopped, or
/// without a CPU, then sending what fell due meanwhile) is timed from its send. libevent adds a
/// timer's delay to the time it cached when the turn began: the timeout fired as soon as the loop
/// ran again, with the reply still to come (a WorkerStall run had three streams, sent as their
/// worker resumed from a 2 s stop, time out 33 ms after their send with a 1 s timeout). One
/// request here reuses a kept-alive connection, the other opens its own.
void expectARequestSentLateInAHeldTurnIsTimedFromItsSend(Kind kind) {
  ScriptedHttpServer server([](int, int, const std::string&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    return std::optional<Reply>(okReply());
  });
  Client c(server.url(), false, 500, "", kind);
  c.send(driverChatBody(false));  // a connection for the first of the two to reuse
  ASSERT_TRUE(c.runUntil(1));
  ASSERT_EQ(c.done[0].record.error, ErrorClass::None) << c.done[0].reason;
  c.sendInATurnHeldFor(700, driverChatBody(false), 2);
  ASSERT_TRUE(c.runUntil(3));
  for (size_t i = 1; i < c.done.size(); ++i) {
    const RequestRecord& r = c.done[i].record;
    EXPECT_EQ(r.error, ErrorClass::None) << c.done[i].reason;
    EXPECT_GE(r.endNs - r.sendNs, 200'000'000);
  }
  EXPECT_EQ(server.requests(), 3);
}
}  // namespace

TEST(Http1Driver, ARequestSentLateInAHeldTurnIsTimedFromItsSend) {
  expectARequestSentLateInAHeldTurnIsTimedFromItsSend(Kind::Native);
}
TEST(HttpDriver, ARequestSentLateInAHeldTurnIsTimedFromItsSend) {
  expectARequestSentLateInAHeldTurnIsTimedFromItsSend(Kind::Curl);
}

namespace {
/// A worker held past a request's deadline after its connect began comes back to a connection
/// that is ready: the request is not written late, and it is the harness's failure
/// (harness_limit, the limit LoopHeld for the verdict), not a timeout of the server, which
/// never got it. A server that speaks first (`greets`, as a TLS server answers a hello) has
/// bytes waiting, which the clients read before judging a deadline they were held across:
/// libcurl, handed them, would go on to write the request (its prerequest callback refuses).
void expectReadyOnlyAfterAHoldIsNotWrittenLate(Kind kind, bool greets) {
  SCOPED_TRACE(greets ? "a server that speaks first" : "a silent server");
  constexpr int kRequests = 8;
  ScriptedHttpServer server(
      [](int, int, const std::string&) { return std::optional<Reply>(okReply()); },
      {greets ? "HTTP/1.1 200 OK\r\n" : ""});
  Client c(server.url(), false, 100, "", kind);
  c.send(driverChatBody(false), kRequests);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the hold
  ASSERT_TRUE(c.runUntil(kRequests));
  const std::string said =
      kind == Kind::Curl
          ? "connected"
          : "connect to " + server.url().substr(7, server.url().find('/', 7) - 7) + " completed";
  for (const Finished& f : c.done) {
    EXPECT_EQ(f.record.error, ErrorClass::HarnessLimit) << f.reason;
    EXPECT_EQ(f.reason.rfind(said + ", but the 100 ms timeout passed before this worker could "
                                    "write the request (its loop was held, ",
                             0),
              0u)
        << f.reason;
    EXPECT_EQ(f.record.uploadEndNs, -1);  // never written
  }
  EXPECT_EQ(c.driver->takeHarnessLimit(), plumbline::engine::HarnessLimit::LoopHeld);
  c.runFor(100);
  EXPECT_EQ(server.requests(), 0);
  if (greets) return;
  // What either client kept open is clean (libcurl keeps the connections it never wrote on): a
  // request sent now is answered, and it is the only one the server got.
  c.send(driverChatBody(false));
  ASSERT_TRUE(c.runUntil(kRequests + 1));
  EXPECT_EQ(c.done.back().record.error, ErrorClass::None) << c.done.back().reason;
  EXPECT_EQ(server.requests(), 1);
}
}  // namespace

TEST(Http1Driver, ARequestReadyOnlyAfterAHoldIsNotWrittenLate) {
  expectReadyOnlyAfterAHoldIsNotWrittenLate(Kind::Native, false);
  expectReadyOnlyAfterAHoldIsNotWrittenLate(Kind::Native, true);
}
TEST(HttpDriver, ARequestReadyOnlyAfterAHoldIsNotWrittenLate) {
  expectReadyOnlyAfterAHoldIsNotWrittenLate(Kind::Curl, false);
  expectReadyOnlyAfterAHoldIsNotWrittenLate(Kind::Curl, true);
}

namespace {
/// A loopback listener that never accepts: the kernel completes connects into its backlog and
/// buffers what comes until its buffers are full; nothing is ever read.
class NonReadingListener {
 public:
  NonReadingListener() {
    m_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (m_fd < 0 || bind(m_fd, reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
        listen(m_fd, 8) != 0)
      throw std::runtime_error("cannot listen on 127.0.0.1");
    getsockname(m_fd, reinterpret_cast<sockaddr*>(&addr), &len);
    m_port = ntohs(addr.sin_port);
  }
  ~NonReadingListener() { close(m_fd); }
  std::string url() const {
    return "http://127.0.0.1:" + std::to_string(m_port) + "/v1/chat/completions";
  }

 private:
  int m_fd = -1;
  uint16_t m_port = 0;
};

/// A request part written when its worker was held across its deadline stays a timeout (a server
/// not reading stops it the same way: here one never reads), and its reason names the hold.
void expectPartWrittenAcrossAHoldIsATimeoutThatSaysSo(Kind kind) {
  NonReadingListener server;
  Client c(server.url(), false, 100, "", kind);
  c.send(std::string(64u << 20, 'x'));  // more than the socket buffers on both sides hold
  c.runFor(40);                         // connected, and writing until the buffers are full
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the hold
  ASSERT_TRUE(c.runUntil(1));
  const Finished& f = c.done[0];
  EXPECT_EQ(f.record.error, ErrorClass::Timeout) << f.reason;
  EXPECT_EQ(f.reason.rfind("the 100 ms timeout passed while this worker was writing the request "
                           "(its loop was held, ",
                           0),
            0u)
      << f.reason;
  EXPECT_EQ(f.record.uploadEndNs, -1);  // never all written
  EXPECT_EQ(c.driver->takeHarnessLimit(), plumbline::engine::HarnessLimit::None);
}
}  // namespace

TEST(Http1Driver, ARequestPartWrittenAcrossAHoldIsATimeoutThatSaysSo) {
  expectPartWrittenAcrossAHoldIsATimeoutThatSaysSo(Kind::Native);
}
TEST(HttpDriver, ARequestPartWrittenAcrossAHoldIsATimeoutThatSaysSo) {
  expectPartWrittenAcrossAHoldIsATimeoutThatSaysSo(Kind::Curl);
}

namespace {
/// A connection the server accepted and closed when the request arrived is no_reply (the server
/// was there: not a connect failure); one cut after the reply began is stream_cut.
void expectResetBeforeAnyByteIsNoReplyAndMidStreamIsStreamCut(Kind kind) {
  Mock refuse(json{{"ttft_ms", 0}, {"itl_ms", 0}, {"threads", 1}, {"faults", {{"refuse", 1.0}}}});
  Client a(refuse.url, true, 10'000, "", kind);
  a.send(driverChatBody(true));
  ASSERT_TRUE(a.runUntil(1));
  EXPECT_EQ(a.done[0].record.error, ErrorClass::NoReply);
  EXPECT_EQ(a.done[0].record.firstByteNs, -1);
  // The mock resets the connection: each client says so in its words.
  const std::string said = kind == Kind::Native
                               ? "Connection reset by peer (ECONNRESET) before any reply byte"
                               : "Recv failure: Connection reset by peer";
  EXPECT_EQ(a.done[0].reason.rfind(said, 0), 0u) << a.done[0].reason;

  Mock cut(json{{"ttft_ms", 0}, {"itl_ms", 1}, {"threads", 1}, {"faults", {{"stream_cut", 1.0}}}});
  Client b(cut.url, true, 10'000, "", kind);
  b.send(driverChatBody(true, 16));
  ASSERT_TRUE(b.runUntil(1));
  EXPECT_EQ(b.done[0].record.error, ErrorClass::StreamCut);
  EXPECT_EQ(b.done[0].record.httpStatus, 200);
  EXPECT_FALSE(b.done[0].reason.empty());
}
}  // namespace

TEST(Http1Driver, ResetBeforeAnyByteIsNoReplyAndMidStreamIsStreamCut) {
  expectResetBeforeAnyByteIsNoReplyAndMidStreamIsStreamCut(Kind::Native);
}
TEST(HttpDriver, ResetBeforeAnyByteIsNoReplyAndMidStreamIsStreamCut) {
  expectResetBeforeAnyByteIsNoReplyAndMidStreamIsStreamCut(Kind::Curl);
}

TEST(Http1Driver, GarbageAndHtmlAreMalformed) {
  ScriptedHttpServer garbage([](int, int, const std::string&) {
    return std::optional<Reply>(Reply{"SSH-2.0-OpenSSH_9.2\r\n\r\n", true});
  });
  Client a(garbage.url(), true);
  a.send(driverChatBody(true));
  ASSERT_TRUE(a.runUntil(1));
  EXPECT_EQ(a.done[0].record.error, ErrorClass::MalformedStream);
  // What was wrong, and what the server sent instead (the failure sample's body).
  EXPECT_EQ(a.done[0].reason, "bad status line (not an HTTP/1.x response)");
  EXPECT_EQ(a.done[0].response, "SSH-2.0-OpenSSH_9.2\r\n\r\n");

  ScriptedHttpServer html([](int, int, const std::string&) {
    return std::optional<Reply>(Reply{"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<html>hello</html>", true});
  });
  for (bool stream : {true, false}) {
    Client b(html.url(), stream);
    b.send(driverChatBody(stream));
    ASSERT_TRUE(b.runUntil(1));
    EXPECT_EQ(b.done[0].record.error, ErrorClass::MalformedStream) << "stream " << stream;
    EXPECT_EQ(b.done[0].reason, stream ? "no server-sent event in the 18-byte reply"
                                       : "a body that is not a completion (not valid JSON)");
    EXPECT_EQ(b.done[0].response, "<html>hello</html>");
    EXPECT_EQ(b.driver->socketsOpen(), 0u);
  }

  ScriptedHttpServer badChunks([](int, int, const std::string&) {
    return std::optional<Reply>(Reply{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", false});
  });
  Client d(badChunks.url(), true);
  d.send(driverChatBody(true));
  ASSERT_TRUE(d.runUntil(1));
  EXPECT_EQ(d.done[0].record.error, ErrorClass::MalformedStream);
  EXPECT_EQ(d.done[0].reason, "bad chunk size line");
}

namespace {
/// Every status lands in its class, the same in both clients: a redirect is neither a client
/// nor a server error (http_other; it is not followed), nor is a status past 599.
void expectHttpStatusClassesAndErrorBodiesKept(Kind kind) {
  static const char* statuses[] = {"429 Too Many Requests",
                                   "503 Unavailable",
                                   "404 Not Found",
                                   "301 Moved Permanently\r\nLocation: https://example.com/v1",
                                   "307 Temporary Redirect\r\nLocation: /v2",
                                   "600 Whatever",
                                   "599 Network Connect Timeout"};
  constexpr int kStatuses = sizeof statuses / sizeof statuses[0];
  ScriptedHttpServer server([](int, int overall, const std::string&) {
    const std::string body = "{\"error\":{\"message\":\"no\"}}";
    return std::optional<Reply>(Reply{std::string("HTTP/1.1 ") + statuses[overall % kStatuses] +
                                          "\r\nContent-Length: " + std::to_string(body.size()) +
                                          "\r\n\r\n" + body,
                                      false});
  });
  Client c(server.url(), true, 10'000, "", kind);
  for (int i = 0; i < kStatuses; ++i) {
    c.send(driverChatBody(true));
    ASSERT_TRUE(c.runUntil(static_cast<size_t>(i) + 1));
  }
  EXPECT_EQ(c.done[0].record.error, ErrorClass::RateLimited);
  EXPECT_EQ(c.done[1].record.error, ErrorClass::Http5xx);
  EXPECT_EQ(c.done[2].record.error, ErrorClass::Http4xx);
  EXPECT_EQ(c.done[2].record.httpStatus, 404);
  EXPECT_NE(c.done[2].response.find("no"), std::string::npos);
  EXPECT_EQ(c.done[3].record.error, ErrorClass::HttpOther);
  EXPECT_EQ(c.done[3].record.httpStatus, 301);
  EXPECT_EQ(c.done[4].record.error, ErrorClass::HttpOther);
  EXPECT_EQ(c.done[4].record.httpStatus, 307);
  EXPECT_EQ(c.done[5].record.error, ErrorClass::HttpOther);
  EXPECT_EQ(c.done[5].record.httpStatus, 600);
  EXPECT_EQ(c.done[6].record.error, ErrorClass::Http5xx);
  EXPECT_EQ(server.connections(), 1);  // error answers keep the connection alive too
}
}  // namespace

namespace {
/// A chunked SSE reply of two tokens and "[DONE]", its body not ended: the server closes the
/// connection there, or holds it open past the client's timeout. Either way the client had the
/// whole reply (an OpenAI client library stops reading at "[DONE]"), so the request completed,
/// and it ended at "[DONE]", not when the server let go.
void expectAStreamThatSaidDoneIsWholeWhateverTheServerDidAfter(Kind kind) {
  auto chunk = [](const std::string& event) {
    const std::string data = "data: " + event + "\n\n";
    char size[16];
    std::snprintf(size, sizeof size, "%zx\r\n", data.size());
    return size + data + "\r\n";
  };
  const std::string reply =
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n" +
      chunk(R"({"choices":[{"delta":{"content":"a"}}]})") +
      chunk(R"({"choices":[{"delta":{"content":"b"}}]})") + chunk("[DONE]");  // and no "0\r\n\r\n"
  for (const bool closeAfter : {true, false}) {
    SCOPED_TRACE(closeAfter ? "closed after [DONE]" : "held open past the timeout");
    ScriptedHttpServer server([&](int, int, const std::string&) {
      return std::optional<Reply>(Reply{reply, closeAfter});
    });
    Client c(server.url(), true, 600, "", kind);
    c.send(driverChatBody(true));
    ASSERT_TRUE(c.runUntil(1));
    const RequestRecord& r = c.done[0].record;
    EXPECT_EQ(r.error, ErrorClass::None) << c.done[0].reason;
    EXPECT_EQ(c.done[0].reply, "ab");
    EXPECT_EQ(r.outputTokensClient, 2);
    EXPECT_LT(r.endNs - r.sendNs, 400'000'000);  // at "[DONE]", not at the 600 ms timeout
    EXPECT_GE(r.endNs, r.lastTokenNs);
    EXPECT_EQ(c.driver->socketsOpen(), 0u);  // a body never ended is not reused
  }
}

/// An error a server sends inside a 200 reply is the server's error in the class its code
/// gives, with where it was said, streaming or not: never a completion, never "malformed".
void expectAnErrorInA200ReplyIsClassedByItsCode(Kind kind) {
  const std::string sse =
      "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n"
      "data: {\"error\":{\"message\":\"bad\",\"type\":\"BadRequestError\",\"code\":400}}\n\ndata: "
      "[DONE]\n\n";
  const std::string plain = R"({"object":"error","message":"The model is overloaded","code":503})";
  auto reply = [](const std::string& type, const std::string& body) {
    return "HTTP/1.1 200 OK\r\nContent-Type: " + type +
           "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  };
  ScriptedHttpServer server([&](int, int overall, const std::string&) {
    return std::optional<Reply>(Reply{
        overall == 0 ? reply("text/event-stream", sse) : reply("application/json", plain), false});
  });
  Client streaming(server.url(), true, 10'000, "", kind);
  streaming.send(driverChatBody(true));
  ASSERT_TRUE(streaming.runUntil(1));
  EXPECT_EQ(streaming.done[0].record.error, ErrorClass::Http4xx);
  EXPECT_EQ(streaming.done[0].record.httpStatus, 200);
  EXPECT_EQ(streaming.done[0].reason, "an error event in the stream");
  EXPECT_NE(streaming.done[0].response.find("BadRequestError"), std::string::npos);
  streaming.send(driverChatBody(true));  // the plain JSON error in place of a stream
  ASSERT_TRUE(streaming.runUntil(2));
  EXPECT_EQ(streaming.done[1].record.error, ErrorClass::Http5xx);
  EXPECT_EQ(streaming.done[1].reason, "an error in place of the stream");

  Client whole(server.url(), false, 10'000, "", kind);
  whole.send(driverChatBody(false));
  ASSERT_TRUE(whole.runUntil(1));
  EXPECT_EQ(whole.done[0].record.error, ErrorClass::Http5xx);
  EXPECT_EQ(whole.done[0].reason, "an error in place of the completion");
  EXPECT_EQ(whole.done[0].response, plain);
}
}  // namespace

TEST(Http1Driver, AStreamThatSaidDoneIsWholeWhateverTheServerDidAfter) {
  expectAStreamThatSaidDoneIsWholeWhateverTheServerDidAfter(Kind::Native);
}
TEST(HttpDriver, AStreamThatSaidDoneIsWholeWhateverTheServerDidAfter) {
  expectAStreamThatSaidDoneIsWholeWhateverTheServerDidAfter(Kind::Curl);
}
TEST(Http1Driver, AnErrorInA200ReplyIsClassedByItsCode) {
  expectAnErrorInA200ReplyIsClassedByItsCode(Kind::Native);
}
TEST(HttpDriver, AnErrorInA200ReplyIsClassedByItsCode) {
  expectAnErrorInA200ReplyIsClassedByItsCode(Kind::Curl);
}

TEST(Http1Driver, HttpStatusClassesAndErrorBodiesAreKept) {
  expectHttpStatusClassesAndErrorBodiesKept(Kind::Native);
}
TEST(HttpDriver, HttpStatusClassesAndErrorBodiesAreKept) {
  expectHttpStatusClassesAndErrorBodiesKept(Kind::Curl);
}

namespace {
/// "Sun, 06 Nov 1994 08:49:37 GMT" for `secondsFromNow` ahead of the wall clock.
std::string imfFixdateIn(int secondsFromNow) {
  const std::time_t at = std::time(nullptr) + secondsFromNow;
  std::tm utc{};
  gmtime_r(&at, &utc);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &utc);
  return buf;
}

/// Both clients record what each reply's Retry-After asked for: seconds, a date (from now),
/// none for a value neither form (its failure reason saying so), and none for a header on an
/// interim 1xx reply only.
void expectRetryAfterRecorded(Kind kind) {
  const std::string date = imfFixdateIn(120);
  ScriptedHttpServer server([date](int, int overall, const std::string&) {
    const std::string body = "{\"error\":{\"message\":\"slow down\"}}";
    const std::string tail = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    switch (overall) {
      case 0:
        return std::optional<Reply>(
            Reply{"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 30\r\n" + tail, false});
      case 1:
        return std::optional<Reply>(
            Reply{"HTTP/1.1 503 Unavailable\r\nretry-after: " + date + "\r\n" + tail, false});
      case 2:
        return std::optional<Reply>(
            Reply{"HTTP/1.1 429 Too Many Requests\r\nRetry-After: soon\r\n" + tail, false});
      case 3:
        return std::optional<Reply>(Reply{
            "HTTP/1.1 100 Continue\r\nRetry-After: 9\r\n\r\nHTTP/1.1 429 Too Many Requests\r\n" +
                tail,
            false});
      default:
        return std::optional<Reply>(okReply());
    }
  });
  Client c(server.url(), false, 10'000, "", kind);
  for (int i = 0; i < 5; ++i) {
    c.send(driverChatBody(false));
    ASSERT_TRUE(c.runUntil(static_cast<size_t>(i) + 1));
  }
  EXPECT_EQ(c.done[0].record.error, ErrorClass::RateLimited);
  EXPECT_EQ(c.done[0].record.retryAfterMs, 30'000);
  EXPECT_EQ(c.done[1].record.httpStatus, 503);
  EXPECT_NEAR(static_cast<double>(c.done[1].record.retryAfterMs), 120'000.0, 3'000.0) << date;
  EXPECT_EQ(c.done[2].record.retryAfterMs, -1);
  // Unreadable is said, not passed over as no Retry-After at all; a readable one needs no word.
  EXPECT_EQ(c.done[2].reason,
            "Retry-After: soon could not be read (whole seconds or an HTTP date)");
  EXPECT_EQ(c.done[0].reason, "");
  EXPECT_EQ(c.done[3].record.httpStatus, 429);
  EXPECT_EQ(c.done[3].record.retryAfterMs, -1);
  EXPECT_TRUE(c.done[4].record.ok());
  EXPECT_EQ(c.done[4].record.retryAfterMs, -1);
}
}  // namespace

TEST(Http1Driver, RetryAfterOfEachReplyIsRecorded) { expectRetryAfterRecorded(Kind::Native); }
TEST(HttpDriver, RetryAfterOfEachReplyIsRecorded) { expectRetryAfterRecorded(Kind::Curl); }

TEST(Http1Driver, DeadKeepAliveConnectionFailsTheRequestAndNeverResendsIt) {
  // The first request is answered on a kept-alive connection; the second request on that
  // connection is read and then dropped without an answer. libcurl would resend it on a
  // fresh connection (the server would see it twice); the harness must not.
  ScriptedHttpServer server([](int onConnection, int, const std::string&) {
    if (onConnection == 0) return std::optional<Reply>(okReply());
    return std::optional<Reply>();
  });
  Client c(server.url(), false);
  c.send(driverChatBody(false));
  ASSERT_TRUE(c.runUntil(1));
  EXPECT_EQ(c.done[0].record.error, ErrorClass::None);
  c.send(driverChatBody(false));
  ASSERT_TRUE(c.runUntil(2));
  EXPECT_EQ(c.done[1].record.error, ErrorClass::NoReply);  // it reached the server: not connect
  c.runFor(200);
  EXPECT_EQ(server.requests(), 2);  // exactly what was sent
  EXPECT_EQ(server.connections(), 1);
}

TEST(Http1Driver, IdleConnectionClosedByTheServerIsNotUsedAgain) {
  ScriptedHttpServer server([](int, int, const std::string&) {
    Reply r = okReply();
    r.close = true;  // closes after answering, without saying "Connection: close"
    return std::optional<Reply>(r);
  });
  Client c(server.url(), false);
  c.send(driverChatBody(false));
  ASSERT_TRUE(c.runUntil(1));
  c.runFor(300);  // the close arrives while the connection is idle
  EXPECT_EQ(c.driver->socketsOpen(), 0u);
  c.send(driverChatBody(false));
  ASSERT_TRUE(c.runUntil(2));
  EXPECT_EQ(c.done[1].record.error, ErrorClass::None);
  EXPECT_EQ(server.requests(), 2);
  EXPECT_EQ(server.connections(), 2);
}

TEST(Http1Driver, PreconnectedConnectionsWaitIdleAndCarryTheFirstRequests) {
  ScriptedHttpServer server([](int, int, const std::string&) { return std::optional<Reply>(okReply()); });
  Client c(server.url(), false);
  EXPECT_EQ(c.driver->preconnect(3, INT64_MAX), 3u);
  EXPECT_EQ(c.driver->inFlight(), 0u);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (c.native().idleConnections() < 3 && std::chrono::steady_clock::now() < deadline)
    c.runFor(10);
  EXPECT_EQ(c.native().idleConnections(), 3u);
  EXPECT_EQ(c.driver->socketsOpen(), 3u);
  EXPECT_TRUE(c.done.empty());  // opening connections is not a request: nothing is reported
  c.send(driverChatBody(false), 3);  // three at once: each takes a connection opened ahead
  ASSERT_TRUE(c.runUntil(3));
  for (const Finished& f : c.done) EXPECT_EQ(f.record.error, ErrorClass::None) << f.response;
  EXPECT_EQ(server.requests(), 3);
  EXPECT_EQ(server.connections(), 3);
  EXPECT_EQ(c.driver->socketsOpen(), 3u);
}

TEST(Http1Driver, PreconnectStopsAtItsDeadlineAndLeavesNothingBehindWhenRefused) {
  ScriptedHttpServer server([](int, int, const std::string&) { return std::optional<Reply>(okReply()); });
  Client late(server.url(), false);
  EXPECT_EQ(late.driver->preconnect(4, late.driver->nowRel() - 1), 0u);  // too late for any
  EXPECT_EQ(late.driver->socketsOpen(), 0u);

  int port = 0;  // a port that was just free: nothing listens there
  {
    ScriptedHttpServer gone([](int, int, const std::string&) { return std::optional<Reply>(); });
    port = std::stoi(gone.url().substr(17, 5));
  }
  Client c("http://127.0.0.1:" + std::to_string(port) + "/v1/chat/completions", false);
  c.driver->preconnect(2, INT64_MAX);
  c.runFor(200);  // the refusals arrive
  EXPECT_EQ(c.driver->socketsOpen(), 0u);
  EXPECT_EQ(c.native().idleConnections(), 0u);
  EXPECT_TRUE(c.done.empty());
  c.send(driverChatBody(false));  // the request that needed one says why it could not be sent
  ASSERT_TRUE(c.runUntil(1));
  EXPECT_EQ(c.done[0].record.error, ErrorClass::Connect);
}

TEST(Http1Driver, ApiKeyTravelsOnlyInTheAuthorizationHeader) {
  const std::string key = "sk-plumbline-secret-1234";
  ScriptedHttpServer server([](int, int, const std::string&) { return std::optional<Reply>(okReply()); });
  Client c(server.url(), false, 10'000, key);
  c.send(driverChatBody(false));
  ASSERT_TRUE(c.runUntil(1));
  const std::vector<std::string> heads = server.heads();
  ASSERT_EQ(heads.size(), 1u);
  EXPECT_NE(heads[0].find("\r\nAuthorization: Bearer " + key + "\r\n"), std::string::npos) << heads[0];
  EXPECT_EQ(heads[0].find(key), heads[0].find("Bearer ") + 7);  // nowhere else in the head
  EXPECT_EQ(heads[0].rfind("POST /v1/chat/completions HTTP/1.1\r\n", 0), 0u) << heads[0];
  EXPECT_NE(heads[0].find("\r\nHost: 127.0.0.1:"), std::string::npos);
}

TEST(Http1Driver, AbortAllEndsEveryRequestInFlightAndClosesTheirConnections) {
  Mock mock(json{{"ttft_ms", 0}, {"itl_ms", 0}, {"threads", 1}, {"faults", {{"stall_first_byte", 1.0}}},
                 {"stall_ms", 5000}});
  Client c(mock.url, true);
  c.send(driverChatBody(true), 5);
  c.runFor(200);
  EXPECT_EQ(c.driver->inFlight(), 5u);
  EXPECT_EQ(c.driver->socketsOpen(), 5u);
  c.driver->abortAll(ErrorClass::Cancelled);
  ASSERT_EQ(c.done.size(), 5u);
  for (const Finished& f : c.done) EXPECT_EQ(f.record.error, ErrorClass::Cancelled);
  EXPECT_EQ(c.driver->inFlight(), 0u);
  EXPECT_EQ(c.driver->socketsOpen(), 0u);
}

TEST(Http1Driver, ClientChoiceFollowsSchemeProxyAndOverride) {
  using plumbline::engine::chooseHttpClient;
  using plumbline::engine::HttpClientKind;
  unsetenv("PLUMBLINE_HTTP_CLIENT");
  for (const char* v : {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"}) unsetenv(v);
  EXPECT_EQ(chooseHttpClient("http://127.0.0.1:8000/v1/chat/completions"), HttpClientKind::Native);
  EXPECT_EQ(chooseHttpClient("https://api.example.com/v1/chat/completions"), HttpClientKind::Curl);
  EXPECT_EQ(chooseHttpClient("http://user:pw@127.0.0.1:8000/v1/chat/completions"), HttpClientKind::Curl);
  setenv("http_proxy", "http://127.0.0.1:3128", 1);
  EXPECT_EQ(chooseHttpClient("http://127.0.0.1:8000/v1/chat/completions"), HttpClientKind::Curl);
  unsetenv("http_proxy");
  setenv("PLUMBLINE_HTTP_CLIENT", "curl", 1);
  EXPECT_EQ(chooseHttpClient("http://127.0.0.1:8000/v1/chat/completions"), HttpClientKind::Curl);
  setenv("PLUMBLINE_HTTP_CLIENT", "native", 1);
  EXPECT_EQ(chooseHttpClient("http://127.0.0.1:8000/v1/chat/completions"), HttpClientKind::Native);
  unsetenv("PLUMBLINE_HTTP_CLIENT");
}

TEST(Http1Driver, AnHttpClientChoiceThatCannotBeHonouredIsNamed) {
  using plumbline::engine::httpClientChoiceError;
  for (const char* v : {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"}) unsetenv(v);
  const std::string plain = "http://127.0.0.1:8000/v1/chat/completions";
  for (const char* ok : {"", "auto", "curl", "native"}) EXPECT_EQ(httpClientChoiceError(ok, plain), "") << ok;
  EXPECT_EQ(httpClientChoiceError(nullptr, plain), "");
  EXPECT_EQ(httpClientChoiceError("curl", "https://api.example.com/v1/chat/completions"), "");
  EXPECT_NE(httpClientChoiceError("Curl", plain).find("PLUMBLINE_HTTP_CLIENT=Curl: unknown HTTP client"), std::string::npos);
  EXPECT_NE(httpClientChoiceError("native", "https://api.example.com/v1/chat/completions").find("needs libcurl"),
            std::string::npos);
  setenv("http_proxy", "http://127.0.0.1:3128", 1);
  EXPECT_NE(httpClientChoiceError("native", plain).find("proxy"), std::string::npos);
  unsetenv("http_proxy");
}
