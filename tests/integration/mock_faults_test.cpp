// Issue 4, "every fault class is injected, seen by the harness with the right error class,
// and the counts on both sides agree": `plumbline run` against a mock injecting one fault
// class into every request, then the run's summary "errors" against the mock's "faults".
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include <chrono>
#include <thread>

#include "tests/integration/child_process.h"
#include "tests/integration/mock_http.h"

using nlohmann::json;
using plumbline::test::ChildProcess;
using plumbline::test::TempDir;

namespace {

constexpr int kRequests = 20;

json workload(double timeoutS) {
  return json{{"plumbline", 1},
              {"verdict", {{"send_lag_tolerance_ms", 30.0}}},  // VM pauses: see run_honesty_test
              {"name", "faults"},
              {"target", {{"url", "embedded"}, {"api", "chat"}, {"model", "mock"}, {"stream", true},
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
  std::string output;
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

/// A mock configured by `mockConfig`, and one run of `workload(timeoutS)` at `rate` for `durationS`.
Outcome runAgainstMock(const json& mockConfig, double timeoutS, double rate = kRequests, double durationS = 1) {
  TempDir dir;
  const std::string config = dir.file("mock.json");
  std::ofstream(config) << mockConfig.dump();
  ChildProcess mockProcess({PLUMBLINE_BIN, "mock", "--listen", "127.0.0.1:0", "--config", config},
                           dir.file("mock.txt"));
  const std::string baseUrl = firstLine(mockProcess);
  const std::string wl = dir.file("w.json");
  std::ofstream(wl) << workload(timeoutS).dump();
  ChildProcess run({PLUMBLINE_BIN, "run", wl, "--target", baseUrl, "--db", dir.file("runs.db"),
                    "--rate", std::to_string(rate), "--duration", std::to_string(durationS), "--workers", "1", "--summary-json", dir.file("summary.json"), "--quiet"},
                   dir.file("out.txt"));
  const int code = run.wait(60'000);
  Outcome out;
  out.output = "exit " + std::to_string(code) + ": " + run.output();
  std::ifstream in(dir.file("summary.json"));
  if (in) out.summary = json::parse(in);
  out.stats = json::parse(plumbline::test::httpGet(baseUrl + "/mock/stats").body);
  mockProcess.signal(SIGTERM);
  mockProcess.wait(5'000);
  return out;
}

/// A mock (fixed 5 ms TTFT, 1 ms ITL) injecting `cls` into every request it can, and one run.
Outcome runAgainstFault(const std::string& cls, double timeoutS) {
  return runAgainstMock(json{{"ttft_ms", 5}, {"itl_ms", 1}, {"threads", 1}, {"faults", {{cls, 1.0}}},
                             {"stall_ms", 2500}, {"trickle_itl_ms", 20}},
                        timeoutS);
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
void expectAgreement(const std::string& fault, const std::string& harnessClass, double timeoutS = 10.0) {
  const Outcome o = runAgainstFault(fault, timeoutS);
  ASSERT_TRUE(o.summary.is_object()) << o.output;
  SCOPED_TRACE(o.summary.dump() + "\n" + o.stats.dump());
  EXPECT_EQ(o.summary.at("sent"), kRequests);
  EXPECT_EQ(o.stats.at("faults").at(fault), kRequests);
  EXPECT_EQ(errorsOf(o.summary, harnessClass), o.stats.at("faults").at(fault).get<int64_t>());
  EXPECT_EQ(totalErrors(o.summary), kRequests);
}

}  // namespace

TEST(MockFaults, Http500IsHttp5xx) { expectAgreement("http_500", "http_5xx"); }
TEST(MockFaults, Http503IsHttp5xx) { expectAgreement("http_503", "http_5xx"); }
TEST(MockFaults, Http429IsRateLimited) { expectAgreement("http_429", "rate_limited"); }
TEST(MockFaults, RefusedConnectionIsConnect) { expectAgreement("refuse", "connect"); }
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

// All classes at once, on the simulated engine (gpu-8b), at 4 % each: every class the
// harness can see must add up with the mock's counts.
TEST(MockFaults, MixedFaultsOnTheEngineAgreeClassByClass) {
  json rates = json::object();
  for (const char* cls : {"http_500", "http_503", "http_429", "refuse", "stall_first_byte", "stall_mid_stream",
                          "stream_cut", "malformed_chunk", "slow_trickle"}) {
    rates[cls] = 0.04;
  }
  const Outcome o = runAgainstMock(json{{"preset", "gpu-8b"}, {"threads", 1}, {"faults", rates},
                                        {"stall_ms", 2500}, {"trickle_itl_ms", 20}},
                                   1.0, 40, 5);
  ASSERT_TRUE(o.summary.is_object()) << o.output;
  SCOPED_TRACE(o.summary.dump() + "\n" + o.stats.dump());
  const json& f = o.stats.at("faults");
  auto n = [&](const char* cls) { return f.at(cls).get<int64_t>(); };
  EXPECT_GT(n("http_500") + n("stream_cut") + n("stall_mid_stream"), 0);
  EXPECT_EQ(errorsOf(o.summary, "http_5xx"), n("http_500") + n("http_503"));
  EXPECT_EQ(errorsOf(o.summary, "rate_limited"), n("http_429"));
  // A refusal on a connection that served a request before would be resent by libcurl on a
  // fresh connection; the harness refuses that resend, so the mock saw exactly what was sent
  // and every refusal is a connect error.
  EXPECT_EQ(o.stats.at("requests_received").get<int64_t>(), o.summary.at("sent").get<int64_t>());
  EXPECT_EQ(errorsOf(o.summary, "connect"), n("refuse"));
  EXPECT_EQ(errorsOf(o.summary, "timeout"), n("stall_first_byte") + n("stall_mid_stream"));
  EXPECT_EQ(errorsOf(o.summary, "stream_cut"), n("stream_cut"));
  EXPECT_EQ(errorsOf(o.summary, "malformed_stream"), n("malformed_chunk"));
}
