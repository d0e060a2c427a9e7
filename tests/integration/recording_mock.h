#pragma once
// Session runs checked from the mock's side of the wire: `plumbline mock --record-requests`
// writes every request body it received; a test runs a workload against it and reads them.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/child_process.h"

namespace plumbline::test {

using nlohmann::json;

inline constexpr int64_t kTtftMs = 20;  ///< the mock's time to first token: a reply takes at least this

struct Received {
  int64_t arrivalNs;
  json body;
};

inline std::string replyText(int64_t tokens) {
  std::string s;
  for (int64_t i = 0; i < tokens; ++i) s += "tok ";
  return s;
}

/// A `plumbline mock` child recording what it receives.
class RecordingMock {
 public:
  explicit RecordingMock(const TempDir& dir)
      : m_recordPath(dir.file("received.jsonl")),
        m_proc({PLUMBLINE_BIN, "mock", "--listen", "127.0.0.1:0", "--threads", "2", "--ttft-ms",
                std::to_string(kTtftMs), "--itl-ms", "1", "--record-requests", m_recordPath},
               dir.file("mock.txt")) {
    for (int i = 0; i < 6000 && m_url.empty(); ++i) {  // up to 60 s: a loaded machine starts slowly
      const std::string out = m_proc.output();
      if (const auto nl = out.find('\n'); nl != std::string::npos) m_url = out.substr(0, nl);
      else std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  const std::string& url() const { return m_url; }
  /// Stops the mock and returns what it received, in arrival order.
  std::vector<Received> stopAndRead() {
    m_proc.signal(SIGTERM);
    EXPECT_EQ(m_proc.wait(60'000), 0) << "the mock did not stop cleanly: its record may be incomplete";
    std::vector<Received> out;
    std::ifstream in(m_recordPath);
    for (std::string line; std::getline(in, line);) {
      const json j = json::parse(line);
      out.push_back({j.at("arrival_ns").get<int64_t>(), j.at("body")});
    }
    std::sort(out.begin(), out.end(), [](const Received& a, const Received& b) { return a.arrivalNs < b.arrivalNs; });
    return out;
  }

 private:
  std::string m_recordPath;
  ChildProcess m_proc;
  std::string m_url;
};

struct Run {
  json summary;
  json plan;
  std::vector<Received> received;
  std::string output;
};

/// Writes `w` (as w.json, next to any files a test put in `dir`), plans it, runs it against a
/// recording mock and returns the plan, the summary and what the mock received.
inline Run runAgainstRecordingMock(const json& w, const TempDir& dir) {
  const std::string path = dir.file("w.json");
  std::ofstream(path) << w.dump(2);
  Run run;
  {
    ChildProcess plan({PLUMBLINE_BIN, "plan", path, "--json"}, dir.file("plan.txt"));
    EXPECT_EQ(plan.wait(120'000), 0) << plan.output();
    run.plan = json::parse(plan.output());
  }
  RecordingMock mock(dir);
  EXPECT_FALSE(mock.url().empty());
  ChildProcess p({PLUMBLINE_BIN, "run", path, "--target", mock.url(), "--db", dir.file("runs.db"), "--summary-json",
                  dir.file("summary.json"), "--quiet"},
                 dir.file("out.txt"));
  // 0, or 3 when a loaded machine delayed sends past the verdict's tolerance: the verdict is
  // not what these tests check (they check what arrived, from the mock's side).
  const int rc = p.wait(300'000);
  EXPECT_TRUE(rc == 0 || rc == 3) << "exit " << rc << "\n" << p.output();
  run.output = p.output();
  std::ifstream in(dir.file("summary.json"));
  if (in) run.summary = json::parse(in);
  run.received = mock.stopAndRead();
  return run;
}

/// Exactly the planned requests: planned, sent, completed and received all agree.
inline void expectCountsAgree(const Run& run, uint64_t expectedRequests) {
  EXPECT_EQ(run.plan.at("requests").get<uint64_t>(), expectedRequests);
  EXPECT_EQ(run.summary.at("planned").get<uint64_t>(), expectedRequests) << run.output;
  EXPECT_EQ(run.summary.at("sent").get<uint64_t>(), expectedRequests);
  EXPECT_EQ(run.summary.at("completed").get<uint64_t>(), expectedRequests);
  EXPECT_EQ(run.received.size(), expectedRequests);
}

inline Run runAgainstRecordingMock(const json& w) {
  TempDir dir;
  return runAgainstRecordingMock(w, dir);
}

inline const json& messages(const Received& r) { return r.body.at("messages"); }
inline int64_t maxTokens(const Received& r) { return r.body.at("max_tokens").get<int64_t>(); }

/// Whitespace-separated words, as the mock (and the approximation) count tokens.
inline size_t countWords(const std::string& s) {
  size_t n = 0;
  bool in = false;
  for (char ch : s) {
    const bool space = ch == ' ' || ch == '\n';
    if (!space && !in) ++n;
    in = !space;
  }
  return n;
}

}  // namespace plumbline::test
