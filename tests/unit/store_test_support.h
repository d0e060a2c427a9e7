#pragma once
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/metrics/request_record.h"
#include "core/store/run_info.h"
#include "core/util/clock.h"

namespace plumbline::store::testing {

/// A fresh directory under $TMPDIR, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "plumbline-store-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    m_path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
  }
  std::string file(const std::string& name) const { return (m_path / name).string(); }

 private:
  std::filesystem::path m_path;
};

inline RunInfo sampleRunInfo() {
  RunInfo info;
  info.name = "nightly";
  info.workloadName = "chat-short";
  info.spec = {{"version", 1}, {"name", "chat-short"}, {"load", {{"rate", 10}}}};
  info.targetUrl = "http://127.0.0.1:8000/v1";
  info.api = "chat";
  info.model = "tiny";
  info.toolVersion = "0.1.0";
  info.cores = 2;
  info.workers = 1;
  // Now: a run being written by this process (a t0 before the process started would make its
  // pid read as given again, and the run as incomplete).
  info.t0WallNs = util::wallClockNs();
  return info;
}

/// Deterministic, varied records: every error class, unknown (-1) fields, a session id above
/// INT64_MAX.
inline std::vector<metrics::RequestRecord> sampleRequests(size_t n, size_t offset = 0) {
  std::vector<metrics::RequestRecord> out(n);
  for (size_t k = 0; k < n; ++k) {
    size_t i = k + offset;
    auto& r = out[k];
    r.sessionId = i % 97 == 0 ? ~uint64_t{0} - i : i;
    r.turn = static_cast<uint32_t>(i % 5);
    r.workerId = static_cast<uint32_t>(i % 3);
    r.plannedNs = static_cast<int64_t>(i) * 1000;
    r.sendNs = r.plannedNs + 17;
    r.firstByteNs = i % 11 == 0 ? -1 : r.sendNs + 500;
    r.firstTokenNs = r.firstByteNs < 0 ? -1 : r.firstByteNs + 10;
    r.lastTokenNs = r.firstTokenNs < 0 ? -1 : r.firstTokenNs + 9000;
    // Some answer at once, some think first, some never answer.
    r.firstAnswerNs =
        r.firstTokenNs < 0 || i % 5 == 4 ? -1 : r.firstTokenNs + (i % 2 == 0 ? 0 : 3000);
    r.endNs = r.sendNs + 10'000;
    r.uploadEndNs = i % 7 == 0 ? -1 : r.sendNs + 40;
    r.inputTokensServer = i % 4 == 0 ? -1 : static_cast<int32_t>(i % 300);
    r.outputTokensServer = static_cast<int32_t>(i % 200);
    r.inputTokensClient = static_cast<int32_t>(i % 301);
    r.outputTokensClient = i % 6 == 0 ? -1 : static_cast<int32_t>(i % 199);
    r.chunks = static_cast<uint32_t>(i % 50);
    r.httpStatus = i % 13 == 0 ? 503 : 200;
    r.error = static_cast<metrics::ErrorClass>(i % metrics::kErrorClassCount);
    r.retryAfterMs = r.httpStatus == 503 ? static_cast<int64_t>(i % 4) * 1000 : -1;  // 0 s too
    r.heldNs = i % 3 == 0 ? static_cast<int64_t>(1 + i % 60) * 1'000'000 + 7 : 0;    // some held
  }
  return out;
}

inline void expectSameRequest(const metrics::RequestRecord& a, const metrics::RequestRecord& b) {
  EXPECT_EQ(a.sessionId, b.sessionId);
  EXPECT_EQ(a.turn, b.turn);
  EXPECT_EQ(a.workerId, b.workerId);
  EXPECT_EQ(a.uploadEndNs, b.uploadEndNs);
  EXPECT_EQ(a.plannedNs, b.plannedNs);
  EXPECT_EQ(a.sendNs, b.sendNs);
  EXPECT_EQ(a.firstByteNs, b.firstByteNs);
  EXPECT_EQ(a.firstTokenNs, b.firstTokenNs);
  EXPECT_EQ(a.lastTokenNs, b.lastTokenNs);
  EXPECT_EQ(a.endNs, b.endNs);
  EXPECT_EQ(a.inputTokensServer, b.inputTokensServer);
  EXPECT_EQ(a.outputTokensServer, b.outputTokensServer);
  EXPECT_EQ(a.inputTokensClient, b.inputTokensClient);
  EXPECT_EQ(a.outputTokensClient, b.outputTokensClient);
  EXPECT_EQ(a.chunks, b.chunks);
  EXPECT_EQ(a.httpStatus, b.httpStatus);
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.retryAfterMs, b.retryAfterMs);
  EXPECT_EQ(a.firstAnswerNs, b.firstAnswerNs);
  EXPECT_EQ(a.heldNs, b.heldNs);
}

/// A pid that certainly belonged to a process that is gone (forked, exited, reaped).
inline pid_t deadPid() {
  pid_t pid = fork();
  if (pid == 0) _exit(0);
  waitpid(pid, nullptr, 0);
  return pid;
}

}  // namespace plumbline::store::testing
