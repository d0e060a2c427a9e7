// A worker that stops answering (SIGSTOP: it neither ends nor reads its socket) must not hang
// the run: the coordinator kills it when it has sent nothing for 5 s, or when a stop's grace
// (plus a margin) is over, or a second Ctrl-C's margin; its requests in flight become
// worker_lost, the verdict names it, and completed + failed + not sent == planned. A run whose
// every worker died is incomplete and hands nothing to "surviving" workers.
// A worker that dies as the run starts died "during start-up", never at the machine's uptime.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/child_process.h"
#include "tests/integration/db_query.h"
#include "tests/integration/process_tree.h"

using nlohmann::json;
using plumbline::test::ChildProcess;
using plumbline::test::childrenOf;
using plumbline::test::queryInt;
using plumbline::test::queryText;
using plumbline::test::TempDir;
using Clock = std::chrono::steady_clock;

namespace {

/// ~1.2 s streams (60 tokens 20 ms apart) at `rate`/s: each worker has dozens in flight, most
/// of them reported sent (a worker reports its sends every 250 ms), so that a worker stopped at
/// any instant leaves requests the coordinator knows were sent (worker_lost), whatever the
/// instant. With 300 ms streams, a stop just after a report left none now and then.
std::string writeStallWorkload(const TempDir& dir, double rate, double durationS,
                               int outputTokens = 60, int timeoutS = 60, bool stream = true) {
  const json w{{"plumbline", 1},
               {"name", "worker stall"},
               {"verdict", {{"send_lag_tolerance_ms", 50.0}}},
               {"target",
                {{"url", "embedded"},
                 {"stream", stream},
                 {"timeout_s", timeoutS},
                 {"mock", {{"ttft_ms", 5}, {"itl_ms", 20}}}}},
               {"load",
                {{"arrival", "constant"},
                 {"seed", 5},
                 {"stages", json::array({{{"rate", rate}, {"duration_s", durationS}}})}}},
               {"requests",
                {{"input_tokens", {{"dist", "fixed"}, {"value", 32}}},
                 {"output_tokens", {{"dist", "fixed"}, {"value", outputTokens}}}}}};
  const std::string path = dir.file("w.json");
  std::ofstream(path) << w.dump();
  return path;
}

/// A run of two workers; `act` is called with the run and their pids 1 s after both are up.
struct StallRun {
  TempDir dir;
  json summary;
  int exitCode = -1;
  std::string output;
  std::vector<pid_t> workers;

  template <typename Act>
  StallRun(double durationS, std::vector<std::string> extra, Act act, int outputTokens = 60,
           int timeoutS = 60, bool quiet = true, bool stream = true) {
    std::vector<std::string> args{
        PLUMBLINE_BIN,
        "run",
        writeStallWorkload(dir, 100, durationS, outputTokens, timeoutS, stream),
        "--db",
        db(),
        "--workers",
        "2",
        "--summary-json",
        dir.file("s.json")};
    if (quiet) args.emplace_back("--quiet");
    args.insert(args.end(), extra.begin(), extra.end());
    ChildProcess run(args, dir.file("out.txt"));
    for (int i = 0; i < 200 && workers.size() < 2; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      workers = childrenOf(run.pid(), " worker ");
    }
    if (workers.size() != 2) return;
    // Past the workers' first reports (every 250 ms from t0): a worker silent before its first
    // report is given longer (it may still be loading its materials).
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    act(run, workers);
    exitCode = run.wait(20'000);
    output = run.output();
    // Without the fix a stopped worker outlives its killed coordinator: end it (ours, by pid).
    for (const pid_t w : workers)
      if (plumbline::test::readProcFile("/proc/" + std::to_string(w) + "/cmdline").find("worker") !=
          std::string::npos)
        kill(w, SIGKILL);
    std::ifstream in(dir.file("s.json"));
    if (in) summary = json::parse(in, nullptr, false);
  }
  std::string db() const { return dir.file("runs.db"); }
  bool reasonSays(const std::string& text) const {
    for (const auto& r : summary.at("verdict_reasons"))
      if (r.get<std::string>().find(text) != std::string::npos) return true;
    return false;
  }
  bool notes(const std::string& text) const {
    return summary.at("notes").dump().find(text) != std::string::npos;
  }
  uint64_t errors(const std::string& cls) const {
    return summary.at("errors").contains(cls) ? summary.at("errors").at(cls).get<uint64_t>() : 0;
  }
};

void expectEveryPlannedRequestAccountedFor(const StallRun& r) {
  const json& s = r.summary;
  uint64_t failed = 0;
  for (const auto& [k, v] : s.at("errors").items()) failed += v.get<uint64_t>();
  const uint64_t completed = s.at("completed").get<uint64_t>();
  EXPECT_EQ(completed + failed + s.at("not_sent").get<uint64_t>(), s.at("planned").get<uint64_t>())
      << s.dump(2);
  EXPECT_EQ(completed + failed, s.at("sent").get<uint64_t>()) << s.dump(2);
  EXPECT_EQ(queryInt(r.db(), "SELECT count(*) FROM requests"),
            static_cast<int64_t>(completed + failed));
  EXPECT_EQ(queryInt(r.db(), "SELECT count(*) FROM requests WHERE error_class = 9"),
            static_cast<int64_t>(r.errors("worker_lost")));
}

double secondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

TEST(WorkerStall, AWorkerThatStopsAnsweringIsKilledNamedAndItsRequestsLost) {
  StallRun r(3, {},
             [](ChildProcess&, const std::vector<pid_t>& workers) { kill(workers[0], SIGSTOP); });
  ASSERT_EQ(r.exitCode, 3) << r.output;
  ASSERT_TRUE(r.summary.is_object()) << r.output;
  EXPECT_TRUE(r.reasonSays("stopped answering at ")) << r.summary.dump(2);
  EXPECT_TRUE(r.reasonSays("(no report for 5.0 s); killed at ")) << r.summary.dump(2);
  // Its requests in flight were the harness's loss, not the server's timeouts.
  EXPECT_GT(r.errors("worker_lost"), 0u) << r.summary.dump(2);
  EXPECT_EQ(r.errors("timeout"), 0u) << r.summary.dump(2);
  expectEveryPlannedRequestAccountedFor(r);
}

namespace {
/// Stopped for 2 s (under the 5 s that gets it killed) with a 1 s timeout: the replies that came
/// meanwhile are read when it resumes, before any timeout is judged. The server finished them
/// in time; the harness's stall is named in the verdict, not counted as the server's timeouts.
void expectRepliesThatCameWhileAWorkerWasStoppedAreNotTimeouts(bool stream) {
  StallRun r(
      4, {},
      [](ChildProcess&, const std::vector<pid_t>& workers) {
        kill(workers[0], SIGSTOP);
        std::this_thread::sleep_for(std::chrono::milliseconds(2000));
        kill(workers[0], SIGCONT);
      },
      /*outputTokens=*/10, /*timeoutS=*/1, /*quiet=*/false, stream);
  ASSERT_TRUE(r.summary.is_object()) << r.output;
  // No request the server got is a timeout. The stop may catch a request between its connect
  // and its write: the server answered the connect, but the request's 1 s timeout passed before
  // the worker ran again to write it. That one is the harness's failure (harness_limit, named in
  // the verdict), never sent late, nor counted as offered to the server.
  const std::string timeouts =
      queryText(r.db(),
                "SELECT group_concat(send_ns || '/' || upload_end_ns || '/' || end_ns || "
                "'/' || held_ns, ' ') FROM requests WHERE error_class = 2");
  EXPECT_EQ(r.errors("timeout"), 0u)
      << "timeouts (send/upload end/end/held ns): " << timeouts << "\n"
      << r.summary.dump(2);
  const int64_t unwritten = queryInt(
      r.db(), "SELECT count(*) FROM requests WHERE error_class = 10 AND upload_end_ns < 0");
  EXPECT_EQ(static_cast<int64_t>(r.errors("harness_limit")), unwritten) << r.summary.dump(2);
  if (unwritten > 0) {
    EXPECT_TRUE(r.reasonSays("requests not written before their timeout in worker 0"))
        << r.summary.dump(2);
  }
  // Said while the run went, as soon as the worker reported again, not only in the summary.
  EXPECT_NE(r.output.find(" (stopped, or without a CPU): replies that came meanwhile are dated "
                          "when it ran again, so the timings of requests in flight across it may "
                          "be late by up to that (counted in the summary's timing_held)"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.summary.at("completed").get<int64_t>() + unwritten,
            r.summary.at("sent").get<int64_t>())
      << r.summary.dump(2);
  EXPECT_EQ(r.summary.at("verdict"), "harness_limited") << r.summary.dump(2);
  EXPECT_TRUE(r.reasonSays("event loop was held up")) << r.summary.dump(2);
  // The requests in flight across the stop are counted, and their timings said to be in doubt
  // (QA 24 D1: one read after a hold takes every segment that came, stamped with the last's).
  const json& held = r.summary.at("timing_held");
  EXPECT_GT(held.at("requests").get<uint64_t>(), r.summary.at("completed").get<uint64_t>() / 100)
      << r.summary.dump(2);
  EXPECT_GE(held.at("max_ms").get<double>(), 1500) << r.summary.dump(2);
  // Held the workload's send-lag tolerance (50 ms) or more: the delay it allows the harness.
  EXPECT_TRUE(r.reasonSays("were in flight while a worker's event loop was held 50 ms or more"))
      << r.summary.dump(2);
  // Each is found by its row: held_ns, the hold it was in flight across (runs export carries it).
  const auto toleranceNs = static_cast<int64_t>(held.at("tolerance_ms").get<double>() * 1e6 + 0.5);
  EXPECT_EQ(queryInt(r.db(), "SELECT count(*) FROM requests WHERE error_class = 0 AND held_ns >= " +
                                 std::to_string(toleranceNs)),
            held.at("requests").get<int64_t>());
  EXPECT_GE(queryInt(r.db(), "SELECT max(held_ns) FROM requests"), 1'500'000'000);
  EXPECT_EQ(queryInt(r.db(), "SELECT count(*) FROM requests WHERE held_ns IS NULL"), 0);
  // A stream is dated by its arrival stamps: every reply ended within its timeout of its send
  // (it ended by ~0.2 s). A non-streaming reply is dated when read: some ended after the stop.
  if (stream)
    EXPECT_EQ(queryInt(r.db(),
                       "SELECT count(*) FROM requests WHERE end_ns - send_ns > 1000000000 "
                       "AND upload_end_ns >= 0"),
              0);
  else
    EXPECT_GT(queryInt(r.db(),
                       "SELECT count(*) FROM requests WHERE end_ns - send_ns > 1000000000 "
                       "AND error_class = 0"),
              0);
  expectEveryPlannedRequestAccountedFor(r);
}
}  // namespace

TEST(WorkerStall, RepliesThatCameWhileAWorkerWasStoppedAreNotTimeouts) {
  expectRepliesThatCameWhileAWorkerWasStoppedAreNotTimeouts(true);
}

// The same through libcurl's client (an https target's), not streaming: libcurl judged its own
// timeout before it read what came, so replies that came during the stop were timeouts. (The
// native client's twin, a non-streaming reply read undated by its timer, is checked by
// Http1Driver.RepliesThatCameDuringAHoldAcrossTheirDeadlineAreNotTimeouts.)
TEST(WorkerStall, RepliesThatCameWhileAWorkerWasStoppedAreNotTimeoutsThroughLibcurlToo) {
  setenv("PLUMBLINE_HTTP_CLIENT", "curl", 1);
  expectRepliesThatCameWhileAWorkerWasStoppedAreNotTimeouts(false);
  unsetenv("PLUMBLINE_HTTP_CLIENT");
}

// The coordinator stopped for 2.5 s (Ctrl-Z, then fg): it hands sessions out a second ahead, so
// the last 1.5 s of them reached the workers late. The verdict names the coordinator, not "the
// machine", and nothing is lost.
TEST(WorkerStall, ACoordinatorHeldUpIsNamedForTheLateSends) {
  StallRun r(
      5, {},
      [](ChildProcess& run, const std::vector<pid_t>&) {
        run.signal(SIGSTOP);
        std::this_thread::sleep_for(std::chrono::milliseconds(2500));
        run.signal(SIGCONT);
      },
      60, 60, /*quiet=*/false);
  ASSERT_TRUE(r.summary.is_object()) << r.output;
  EXPECT_EQ(r.summary.at("verdict"), "harness_limited") << r.summary.dump(2);
  EXPECT_TRUE(r.reasonSays("the coordinator that hands them out was held up")) << r.summary.dump(2);
  EXPECT_FALSE(r.reasonSays("the machine held them up")) << r.summary.dump(2);
  expectEveryPlannedRequestAccountedFor(r);
  // Stored with the windows it judged (handed out a second ahead, a 2.5 s stop leaves sessions
  // up to ~1.5 s late), and said on the terminal as it happened.
  EXPECT_GT(queryInt(r.db(), "SELECT CAST(max(handed_late_max_ms) AS INTEGER) FROM windows"), 500);
  EXPECT_EQ(queryInt(r.db(), "SELECT count(*) FROM windows WHERE handed_late_max_ms IS NULL"), 0);
  EXPECT_NE(r.output.find("sessions reached their workers up to "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the coordinator that hands them out was held up (stopped, or without a "
                          "CPU), so their sends are late"),
            std::string::npos)
      << r.output;
}

// Quiet for a second, a stopped worker is handed no more sessions while the other answers:
// only those it held then (a second ahead, plus that second) go unsent, not its whole share
// until it is killed 5 s in (~250 of them at 50/s).
TEST(WorkerStall, AQuietWorkerIsHandedNoMoreSessions) {
  StallRun r(8, {},
             [](ChildProcess&, const std::vector<pid_t>& workers) { kill(workers[0], SIGSTOP); });
  ASSERT_TRUE(r.summary.is_object()) << r.output;
  EXPECT_TRUE(r.reasonSays("stopped answering at ")) << r.summary.dump(2);
  EXPECT_LT(r.summary.at("not_sent").get<uint64_t>(), 175u) << r.summary.dump(2);
  expectEveryPlannedRequestAccountedFor(r);
}

TEST(WorkerStall, AfterASignalAStoppedWorkerIsKilledWhenTheGraceIsOver) {
  Clock::time_point signalledAt;
  StallRun r(20, {"--grace", "0.5"}, [&](ChildProcess& run, const std::vector<pid_t>& workers) {
    kill(workers[0], SIGSTOP);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    signalledAt = Clock::now();
    run.signal(SIGINT);
  });
  ASSERT_EQ(r.exitCode, 128 + SIGINT) << r.output;
  // The grace (0.5 s) and the 2 s margin, well before the 5 s of silence would have done it.
  EXPECT_LT(secondsSince(signalledAt), 4.5);
  ASSERT_TRUE(r.summary.is_object()) << r.output;
  EXPECT_TRUE(r.reasonSays("had not ended 2.5 s after the stop at ")) << r.summary.dump(2);
  EXPECT_GT(r.errors("worker_lost"), 0u) << r.summary.dump(2);
  EXPECT_EQ(queryInt(r.db(), "SELECT count(*) FROM runs WHERE status = 'incomplete'"), 1);
  expectEveryPlannedRequestAccountedFor(r);
}

TEST(WorkerStall, ASecondSigintEndsTheRunPromptlyWhateverTheGrace) {
  Clock::time_point secondAt;
  StallRun r(20, {"--grace", "30"}, [&](ChildProcess& run, const std::vector<pid_t>& workers) {
    kill(workers[1], SIGSTOP);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    run.signal(SIGINT);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    secondAt = Clock::now();
    run.signal(SIGINT);
  });
  ASSERT_EQ(r.exitCode, 128 + SIGINT) << r.output;
  EXPECT_LT(secondsSince(secondAt), 4.0);
  ASSERT_TRUE(r.summary.is_object()) << r.output;
  EXPECT_TRUE(r.reasonSays("worker 1 had not ended")) << r.summary.dump(2);
  expectEveryPlannedRequestAccountedFor(r);
}

TEST(WorkerStall, WhenEveryWorkerDiesTheRunIsIncompleteAndNothingIsHandedOver) {
  StallRun r(4, {}, [](ChildProcess&, const std::vector<pid_t>& workers) {
    kill(workers[1], SIGKILL);
    kill(workers[0], SIGKILL);
  });
  ASSERT_EQ(r.exitCode, 3) << r.output;
  ASSERT_TRUE(r.summary.is_object()) << r.output;
  EXPECT_FALSE(r.summary.at("complete").get<bool>()) << r.summary.dump(2);
  EXPECT_EQ(queryInt(r.db(), "SELECT count(*) FROM runs WHERE status = 'incomplete'"), 1);
  EXPECT_TRUE(r.notes("every worker was lost")) << r.summary.dump(2);
  EXPECT_FALSE(r.notes("surviving")) << r.summary.dump(2);
  expectEveryPlannedRequestAccountedFor(r);
}

TEST(WorkerStall, AWorkerKilledAsItStartsDiesAtAPossibleTime) {
  TempDir dir;
  ChildProcess run(
      {PLUMBLINE_BIN, "run", writeStallWorkload(dir, 50, 2), "--db", dir.file("runs.db"),
       "--workers", "2", "--summary-json", dir.file("s.json"), "--quiet"},
      dir.file("out.txt"));
  std::vector<pid_t> workers;
  for (int i = 0; i < 2000 && workers.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    workers = childrenOf(run.pid(), " worker ");
  }
  ASSERT_FALSE(workers.empty());
  kill(workers[0], SIGKILL);
  ASSERT_EQ(run.wait(20'000), 3) << run.output();
  std::ifstream in(dir.file("s.json"));
  const json s = json::parse(in);
  bool named = false;
  for (const auto& reason : s.at("verdict_reasons")) {
    const std::string text = reason.get<std::string>();
    // Which of the two it was depends on the order /proc lists them in.
    const size_t at = text.find(" died ");
    if (text.rfind("worker ", 0) != 0 || at == std::string::npos) continue;
    named = true;
    // "during start-up", or a time within the run: never the machine's uptime, never -0.0 s.
    if (text.compare(at, 9, " died at ") == 0) {
      const double seconds = std::stod(text.substr(at + 9));
      EXPECT_GE(seconds, 0.0) << text;
      EXPECT_LT(seconds, 5.0) << text;
      EXPECT_EQ(text.find("died at -"), std::string::npos) << text;
    }
  }
  EXPECT_TRUE(named) << s.dump(2);
}
