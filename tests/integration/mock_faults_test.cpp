// Issue 4, "every fault class is injected, seen by the harness with the right error class,
// and the counts on both sides agree": `plumbline run` against a mock injecting one fault
// class into every request, then the run's summary "errors" against the mock's "faults".
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <memory>
#include <thread>
#include <vector>

#include "tests/integration/child_process.h"
#include "tests/integration/live_client.h"
#include "tests/integration/mock_http.h"

using nlohmann::json;
using plumbline::test::ChildProcess;
using plumbline::test::TempDir;

namespace {

constexpr int kRequests = 20;

json workload(double timeoutS, bool stream = true) {
  return json{{"plumbline", 1},
              {"verdict", {{"send_lag_tolerance_ms", 30.0}}},  // VM pauses: see run_honesty_test
              {"name", "faults"},
              {"target", {{"url", "embedded"}, {"api", "chat"}, {"model", "mock"}, {"stream", stream},
                          {"timeout_s", timeoutS}}},
              {"load", {{"arrival", "constant"}, {"seed", 5},
                        {"stages", json::array({{{"rate", kRequests}, {"duration_s", 1}}})}}},
              {"requests", {{"input_tokens", {{"dist", "fixed"}, {"value", 32}}},
                            {"output_tokens", {{"dist", "fixed"}, {"value", 16}}},
                            {"sampling", {{"temperature", 0.0}, {"ignore_eos", true}}}}}};
}

struct Outcome {
  json summary;
  json stats;
  json finalStats;  ///< the last line `plumbline mock` printed when it was stopped
  std::string output;
  std::vector<plumbline::live::LiveNotice> notices;  ///< on the live stream, when watched
  bool watchedToTheEnd = false;  ///< a live client read the stream through its End
};

/// The base URL a mock prints first (it writes to a file here), waited for up to 5 s.
std::string firstLine(const ChildProcess& mock) {
  for (int i = 0; i < 500; ++i) {
    const std::string out = mock.output();
    const auto eol = out.find('\n');
    if (eol != std::string::npos) return out.substr(0, eol);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return "";
}

/// A mock configured by `mockConfig`, and one run of `workload(timeoutS)` at `rate` for
/// `durationS`. With `live`, the run streams to a socket and a client collects its notices.
Outcome runAgainstMock(const json& mockConfig, double timeoutS, double rate = kRequests,
                       double durationS = 1, bool stream = true, bool live = false) {
  TempDir dir;
  const std::string config = dir.file("mock.json");
  std::ofstream(config) << mockConfig.dump();
  ChildProcess mockProcess({PLUMBLINE_BIN, "mock", "--listen", "127.0.0.1:0", "--config", config},
                           dir.file("mock.txt"));
  const std::string baseUrl = firstLine(mockProcess);
  const std::string wl = dir.file("w.json");
  std::ofstream(wl) << workload(timeoutS, stream).dump();
  // clang-format off
  std::vector<std::string> args{PLUMBLINE_BIN, "run", wl, "--target", baseUrl, "--db", dir.file("runs.db"),
                                "--rate", std::to_string(rate), "--duration", std::to_string(durationS),
                                "--workers", "1", "--summary-json", dir.file("summary.json"), "--quiet"};
  // clang-format on
  if (live) args.insert(args.end(), {"--live", dir.file("live.sock")});
  ChildProcess run(args, dir.file("out.txt"));
  std::unique_ptr<plumbline::test::LiveClient> client;
  if (live) client = std::make_unique<plumbline::test::LiveClient>(dir.file("live.sock"));
  const int code = run.wait(60'000);
  Outcome out;
  if (client) {
    client->join();
    out.notices = client->all<plumbline::live::LiveNotice>();
    out.watchedToTheEnd = client->connected() && !client->all<plumbline::live::LiveEnd>().empty();
  }
  out.output = "exit " + std::to_string(code) + ": " + run.output();
  std::ifstream in(dir.file("summary.json"));
  if (in) out.summary = json::parse(in);
  out.stats = json::parse(plumbline::test::httpGet(baseUrl + "/mock/stats").body);
  mockProcess.signal(SIGTERM);
  mockProcess.wait(5'000);
  std::string printed = mockProcess.output();
  while (!printed.empty() && printed.back() == '\n') printed.pop_back();
  const auto lastEol = printed.rfind('\n');
  if (lastEol != std::string::npos) out.finalStats = json::parse(printed.substr(lastEol + 1), nullptr, false);
  return out;
}

/// A mock (fixed 5 ms TTFT, 1 ms ITL) injecting `cls` into every request, and one run.
Outcome runAgainstFault(const std::string& cls, double timeoutS, bool stream = true,
                        bool live = false) {
  const json config{{"ttft_ms", 5},           {"itl_ms", 1},      {"threads", 1},
                    {"faults", {{cls, 1.0}}}, {"stall_ms", 2500}, {"trickle_itl_ms", 20}};
  return runAgainstMock(config, timeoutS, kRequests, 1, stream, live);
}

int64_t errorsOf(const json& summary, const std::string& cls) {
  const json& e = summary.at("errors");
  return e.contains(cls) ? e.at(cls).get<int64_t>() : 0;
}

int64_t totalErrors(const json& summary) {
  int64_t n = 0;
  for (const auto& [k, v] : summary.at("errors").items()) n += v.get<int64_t>();
  return n;
}

/// Every request got the fault, and the harness put every one of them in `harnessClass`.
void expectAgreement(const std::string& fault, const std::string& harnessClass, double timeoutS = 10.0,
                     bool stream = true) {
  const Outcome o = runAgainstFault(fault, timeoutS, stream);
  ASSERT_TRUE(o.summary.is_object()) << o.output;
  SCOPED_TRACE(o.summary.dump() + "\n" + o.stats.dump());
  EXPECT_EQ(o.summary.at("sent"), kRequests);
  EXPECT_EQ(o.stats.at("faults").at(fault), kRequests);
  EXPECT_EQ(errorsOf(o.summary, harnessClass), o.stats.at("faults").at(fault).get<int64_t>());
  EXPECT_EQ(totalErrors(o.summary), kRequests);
  // The first failure of the class is kept: a reply's class its reply, the others a reason.
  ASSERT_TRUE(o.summary.at("failure_samples").contains(harnessClass));
  const json& sample = o.summary.at("failure_samples").at(harnessClass);
  if (harnessClass.rfind("http_", 0) == 0 || harnessClass == "rate_limited")
    EXPECT_FALSE(sample.contains("reason"));
  else
    EXPECT_FALSE(sample.at("reason").get<std::string>().empty());
}

/// A completion request for `plumbline mock`'s API.
std::string chatBody(bool stream) {
  return json{{"model", "mock"}, {"stream", stream}, {"max_tokens", 16}, {"ignore_eos", true},
              {"messages", json::array({{{"role", "user"}, {"content", "hello there"}}})}}
      .dump();
}

/// A mock process with `config`, its base URL, and what it printed when it was stopped.
struct MockProcess {
  TempDir dir;
  std::unique_ptr<ChildProcess> process;
  std::string baseUrl;

  explicit MockProcess(const json& config) {
    const std::string path = dir.file("mock.json");
    std::ofstream(path) << config.dump();
    process = std::make_unique<ChildProcess>(
        std::vector<std::string>{PLUMBLINE_BIN, "mock", "--listen", "127.0.0.1:0", "--config", path},
        dir.file("mock.txt"));
    baseUrl = firstLine(*process);
  }
};

}  // namespace

TEST(MockFaults, Http500IsHttp5xx) { expectAgreement("http_500", "http_5xx"); }
TEST(MockFaults, Http503IsHttp5xx) { expectAgreement("http_503", "http_5xx"); }
TEST(MockFaults, Http429IsRateLimited) { expectAgreement("http_429", "rate_limited"); }

// Every 429 carries the mock's Retry-After (1 s by default): the summary counts the replies
// that asked to wait and how long they asked for.
TEST(MockFaults, Http429RetryAfterIsRecordedInTheSummaryAndNoticedLiveOnce) {
  const Outcome o = runAgainstFault("http_429", 10.0, true, true);
  ASSERT_TRUE(o.summary.is_object()) << o.output;
  EXPECT_EQ(o.summary.at("retry_after"),
            (json{{"responses", kRequests}, {"min_ms", 1000}, {"max_ms", 1000}}))
      << o.summary.dump();
  // Someone watching learns it while the run goes, once (not once per reply).
  std::vector<std::string> asked;
  for (const auto& n : o.notices) {
    if (n.text.find("retry after") != std::string::npos) asked.push_back(n.level + ": " + n.text);
  }
  ASSERT_TRUE(o.watchedToTheEnd) << o.output;
  ASSERT_EQ(asked.size(), 1u) << o.output;
  EXPECT_EQ(asked[0].rfind("warning: a reply (HTTP 429) asked to retry after 1 s; not obeyed", 0),
            0u)
      << asked[0];
}

TEST(MockFaults, RepliesWithoutRetryAfterRaiseNoSuchNotice) {
  const Outcome o = runAgainstFault("http_500", 10.0, true, true);
  ASSERT_TRUE(o.summary.is_object()) << o.output;
  ASSERT_TRUE(o.watchedToTheEnd) << o.output;
  for (const auto& n : o.notices)
    EXPECT_EQ(n.text.find("retry after"), std::string::npos) << n.text;
}
TEST(MockFaults, RefusedRequestIsNoReply) { expectAgreement("refuse", "no_reply"); }
TEST(MockFaults, StallBeforeFirstByteBeyondTheTimeoutIsTimeout) {
  expectAgreement("stall_first_byte", "timeout", 1.0);
}
TEST(MockFaults, StallMidStreamBeyondTheTimeoutIsTimeout) { expectAgreement("stall_mid_stream", "timeout", 1.0); }
TEST(MockFaults, StreamCutWithoutDoneIsStreamCut) { expectAgreement("stream_cut", "stream_cut"); }
TEST(MockFaults, MalformedChunkIsMalformedStream) { expectAgreement("malformed_chunk", "malformed_stream"); }

TEST(MockFaults, SlowTrickleIsNoErrorButShowsInTheInterTokenGaps) {
  const Outcome o = runAgainstFault("slow_trickle", 10.0);
  ASSERT_TRUE(o.summary.is_object()) << o.output;
  SCOPED_TRACE(o.summary.dump() + "\n" + o.stats.dump());
  EXPECT_EQ(o.stats.at("faults").at("slow_trickle"), kRequests);
  EXPECT_EQ(totalErrors(o.summary), 0);
  EXPECT_EQ(o.summary.at("completed"), kRequests);
  EXPECT_NEAR(o.summary.at("itl_ms").at("p50").get<double>(), 20.0, 2.0);
}

namespace {

// All classes at once, on the simulated engine (gpu-8b), at 4 % each: every class the
// harness can see must add up with the mock's counts.
void expectMixedAgreement(bool stream) {
  json rates = json::object();
  for (const char* cls : {"http_500", "http_503", "http_429", "refuse", "stall_first_byte", "stall_mid_stream",
                          "stream_cut", "malformed_chunk", "slow_trickle"}) {
    rates[cls] = 0.04;
  }
  const Outcome o = runAgainstMock(json{{"preset", "gpu-8b"}, {"threads", 1}, {"faults", rates},
                                        {"stall_ms", 2500}, {"trickle_itl_ms", 20}},
                                   1.0, 40, 5, stream);
  ASSERT_TRUE(o.summary.is_object()) << o.output;
  SCOPED_TRACE(o.summary.dump() + "\n" + o.stats.dump());
  const json& f = o.stats.at("faults");
  auto n = [&](const char* cls) { return f.at(cls).get<int64_t>(); };
  EXPECT_GT(n("http_500") + n("stream_cut") + n("stall_mid_stream"), 0);
  EXPECT_EQ(errorsOf(o.summary, "http_5xx"), n("http_500") + n("http_503"));
  EXPECT_EQ(errorsOf(o.summary, "rate_limited"), n("http_429"));
  EXPECT_EQ(o.summary.at("retry_after").at("responses").get<int64_t>(),
            n("http_429"));  // 503s carry none
  // A refusal on a connection that served a request before would be resent by libcurl on a
  // fresh connection; the harness refuses that resend, so the mock saw exactly what was sent
  // and every refusal is a no_reply failure.
  EXPECT_EQ(o.stats.at("requests_received").get<int64_t>(), o.summary.at("sent").get<int64_t>());
  EXPECT_EQ(errorsOf(o.summary, "no_reply"), n("refuse"));
  EXPECT_EQ(errorsOf(o.summary, "timeout"), n("stall_first_byte") + n("stall_mid_stream"));
  EXPECT_EQ(errorsOf(o.summary, "stream_cut"), n("stream_cut"));
  EXPECT_EQ(errorsOf(o.summary, "malformed_stream"), n("malformed_chunk"));
  EXPECT_EQ(o.finalStats, o.stats);  // the run had ended: nothing changed after it
}

}  // namespace

TEST(MockFaults, MixedFaultsOnTheEngineAgreeClassByClass) { expectMixedAgreement(true); }
TEST(MockFaults, MixedFaultsOnNonStreamingRequestsAgreeClassByClass) { expectMixedAgreement(false); }

// The same faults on non-streaming requests: the body stalls, is cut short of its
// Content-Length, is broken JSON, or trickles; each lands in the class of its stream analogue.
TEST(MockFaults, NonStreamingHttp503IsHttp5xx) { expectAgreement("http_503", "http_5xx", 10.0, false); }
TEST(MockFaults, NonStreamingRefusalIsNoReply) {
  expectAgreement("refuse", "no_reply", 10.0, false);
}
TEST(MockFaults, NonStreamingStallBeforeFirstByteIsTimeout) {
  expectAgreement("stall_first_byte", "timeout", 1.0, false);
}
TEST(MockFaults, NonStreamingStallHalfwayThroughTheBodyIsTimeout) {
  expectAgreement("stall_mid_stream", "timeout", 1.0, false);
}
TEST(MockFaults, NonStreamingBodyCutShortIsStreamCut) { expectAgreement("stream_cut", "stream_cut", 10.0, false); }
TEST(MockFaults, NonStreamingBrokenJsonBodyIsMalformedStream) {
  expectAgreement("malformed_chunk", "malformed_stream", 10.0, false);
}

TEST(MockFaults, NonStreamingTrickleCompletesSlowly) {
  const Outcome o = runAgainstFault("slow_trickle", 10.0, false);
  ASSERT_TRUE(o.summary.is_object()) << o.output;
  SCOPED_TRACE(o.summary.dump() + "\n" + o.stats.dump());
  EXPECT_EQ(o.stats.at("faults").at("slow_trickle"), kRequests);
  EXPECT_EQ(totalErrors(o.summary), 0);
  EXPECT_EQ(o.summary.at("completed"), kRequests);
  // 16 pieces, 20 ms apart: at least 15 gaps.
  EXPECT_GE(o.summary.at("e2e_ms").at("p50").get<double>(), 15 * 20.0);
}

// A refusal is a TCP reset, not an orderly close: the client reads ECONNRESET (curl's
// "receive error"), not an empty reply after a FIN ("got nothing").
TEST(MockFaults, RefusalResetsTheConnection) {
  MockProcess mock(json{{"ttft_ms", 0}, {"itl_ms", 0}, {"threads", 1}, {"faults", {{"refuse", 1.0}}}});
  ASSERT_FALSE(mock.baseUrl.empty());
  for (bool stream : {true, false}) {
    const auto r = plumbline::test::httpPost(mock.baseUrl + "/v1/chat/completions", chatBody(stream));
    EXPECT_EQ(r.code, CURLE_RECV_ERROR) << curl_easy_strerror(r.code);
    EXPECT_TRUE(r.body.empty());
  }
  const json stats = json::parse(plumbline::test::httpGet(mock.baseUrl + "/mock/stats").body);
  EXPECT_EQ(stats.at("faults").at("refuse"), 2);
  EXPECT_EQ(stats.at("requests_completed"), 0);
}

TEST(MockFaults, RateLimitedRepliesCarryRetryAfter) {
  MockProcess mock(json{{"threads", 1}, {"faults", {{"http_429", 1.0}}}, {"retry_after_s", 7}});
  ASSERT_FALSE(mock.baseUrl.empty());
  CURL* curl = curl_easy_init();
  std::string headers;
  const std::string body = chatBody(false);
  const std::string url = mock.baseUrl + "/v1/chat/completions";
  curl_slist* list = curl_slist_append(nullptr, "Content-Type: application/json");
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 5000L);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, +[](char* p, size_t size, size_t n, void* out) {
    static_cast<std::string*>(out)->append(p, size * n);
    return size * n;
  });
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &headers);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, +[](char*, size_t size, size_t n, void*) { return size * n; });
  EXPECT_EQ(curl_easy_perform(curl), CURLE_OK);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_slist_free_all(list);
  curl_easy_cleanup(curl);
  EXPECT_EQ(status, 429);
  EXPECT_NE(headers.find("Retry-After: 7"), std::string::npos) << headers;
}

// `plumbline mock` prints its final counts as its last line when stopped (SIGINT or SIGTERM).
TEST(MockFaults, StoppedMockPrintsItsFinalStats) {
  for (int sig : {SIGINT, SIGTERM}) {
    MockProcess mock(json{{"ttft_ms", 0}, {"itl_ms", 0}, {"threads", 2}, {"faults", {{"http_500", 0.5}}}});
    ASSERT_FALSE(mock.baseUrl.empty());
    for (int i = 0; i < 10; ++i) plumbline::test::httpPost(mock.baseUrl + "/v1/chat/completions", chatBody(i % 2 == 0));
    const std::string live = plumbline::test::httpGet(mock.baseUrl + "/mock/stats").body;
    mock.process->signal(sig);
    EXPECT_EQ(mock.process->wait(5000), 0);
    std::string printed = mock.process->output();
    while (!printed.empty() && printed.back() == '\n') printed.pop_back();
    const std::string last = printed.substr(printed.rfind('\n') + 1);
    const json final = json::parse(last, nullptr, false);
    ASSERT_TRUE(final.is_object()) << printed;
    EXPECT_EQ(final, json::parse(live));
    EXPECT_EQ(final.at("requests_received"), 10);
    EXPECT_EQ(final.at("requests_completed"), 10);
  }
}

// "http_5xx 20" says requests failed; the first reply of the class says why, as the server sent
// it: in the summary (so in the database and `runs show`), and live the moment it arrives (the
// report's line: RunReport in unit tests).
TEST(MockFaults, TheFirstReplyOfAFailingClassIsShownAsTheServerSentIt) {
  const Outcome o = runAgainstFault("http_500", 10.0, true, true);
  ASSERT_TRUE(o.summary.is_object()) << o.output;
  const json& samples = o.summary.at("failure_samples");
  ASSERT_EQ(samples.size(), 1u) << samples.dump();
  const json& first = samples.at("http_5xx");
  EXPECT_EQ(first.at("status"), 500);
  EXPECT_EQ(first.at("body"),
            R"({"error":{"message":"injected fault: internal error","type":"server_error",)"
            R"("param":null,"code":500}})");
  // The earliest sent: the run's first request, planned at 0.
  EXPECT_LT(first.at("sent_at_s").get<double>(), 0.04) << first.dump();
  ASSERT_TRUE(o.watchedToTheEnd) << o.output;
  std::vector<std::string> said;
  for (const auto& n : o.notices)
    if (n.text.find("first http_5xx reply") != std::string::npos)
      said.push_back(n.level + ": " + n.text);
  ASSERT_EQ(said.size(), 1u) << o.output;  // once, not once per reply
  EXPECT_EQ(said[0].rfind("warning: first http_5xx reply: HTTP 500: {\"error\"", 0), 0u) << said[0];
}

TEST(MockFaults, RunsWithoutFailuresKeepNoSample) {
  const Outcome o = runAgainstFault("slow_trickle", 10.0);  // slow, but every request completes
  ASSERT_TRUE(o.summary.is_object()) << o.output;
  EXPECT_EQ(totalErrors(o.summary), 0) << o.summary.dump();
  EXPECT_EQ(o.summary.at("failure_samples"), json::object());
}
