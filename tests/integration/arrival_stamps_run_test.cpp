// A streaming run times its tokens by the kernel's arrival stamps (native client): every
// request's instants stay in order (send ≤ first byte ≤ first token ≤ last token ≤ end), and
// no first token is earlier than the mock's TTFT after the send. The same holds with the
// stamps switched off (PLUMBLINE_ARRIVAL_STAMPS=0), and a bad value of the switch is named.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/metrics/run_summary.h"
#include "tests/integration/child_process.h"
#include "tests/integration/db_query.h"
#include "tests/integration/embedded_workload.h"

using nlohmann::json;
using plumbline::test::ChildProcess;
using plumbline::test::TempDir;
using plumbline::test::queryInt;

namespace {

json streamingWorkload() {
  return plumbline::test::embeddedStreamWorkload(
      {.name = "arrival stamps", .ttftMs = 30, .itlMs = 2, .seed = 3, .rate = 20, .durationS = 1, .inputTokens = 16, .outputTokens = 4});
}

/// Runs the workload with PLUMBLINE_ARRIVAL_STAMPS set to `stamps` (nullptr: unset), and
/// PLUMBLINE_HTTP_CLIENT to `client` (nullptr: unset).
int runWith(const TempDir& dir, const char* stamps, std::string& output,
            const char* client = nullptr) {
  std::ofstream(dir.file("w.json")) << streamingWorkload().dump();
  if (stamps != nullptr) setenv("PLUMBLINE_ARRIVAL_STAMPS", stamps, 1);
  if (client != nullptr) setenv("PLUMBLINE_HTTP_CLIENT", client, 1);
  ChildProcess run({PLUMBLINE_BIN, "run", dir.file("w.json"), "--db", dir.file("runs.db"),
                    "--workers", "1", "--summary-json", dir.file("s.json")},
                   dir.file("out.txt"));
  unsetenv("PLUMBLINE_ARRIVAL_STAMPS");
  unsetenv("PLUMBLINE_HTTP_CLIENT");
  const int code = run.wait(60'000);
  output = run.output();
  return code;
}

/// A run with the switches at `stamps` and `client` completes and stores its instants in
/// order, and records which client timed it as `timedBy` (QA 24 D6: nothing said which), in
/// the summary, the stored summary and `runs show`.
void expectOrderedRun(const char* stamps, const std::string& timedBy,
                      const char* client = nullptr) {
  TempDir dir;
  std::string out;
  const int code = runWith(dir, stamps, out, client);
  ASSERT_TRUE(code == 0 || code == 3) << out;
  std::ifstream summaryFile(dir.file("s.json"));
  ASSERT_TRUE(summaryFile) << out;
  EXPECT_EQ(json::parse(summaryFile)["http_client"], timedBy);
  ChildProcess show({PLUMBLINE_BIN, "runs", "--db", dir.file("runs.db"), "show", "1"},
                    dir.file("show.txt"));
  ASSERT_EQ(show.wait(30'000), 0) << show.output();
  EXPECT_NE(show.output().find("timed by: " + plumbline::metrics::httpClientText(timedBy)),
            std::string::npos)
      << show.output();
  const std::string db = dir.file("runs.db");
  EXPECT_EQ(queryInt(db, "SELECT count(*) FROM requests WHERE error_class = 0"), 20);
  EXPECT_EQ(queryInt(db, "SELECT count(*) FROM requests WHERE send_ns <= first_byte_ns AND first_byte_ns <= "
                         "first_token_ns AND first_token_ns <= last_token_ns AND last_token_ns <= end_ns"),
            20);
  EXPECT_EQ(queryInt(db, "SELECT count(*) FROM requests WHERE first_token_ns - send_ns >= 30000000"), 20);
}

}  // namespace

TEST(ArrivalStampsRun, StampedInstantsStayInOrder) {
  expectOrderedRun(nullptr, "native_arrival_stamps");
}

TEST(ArrivalStampsRun, ReadInstantsWhenSwitchedOff) { expectOrderedRun("0", "native_read_times"); }

TEST(ArrivalStampsRun, ALibcurlRunIsRecordedAsTimedByLibcurl) {
  expectOrderedRun(nullptr, "curl", "curl");
}

TEST(ArrivalStampsRun, ABadSwitchValueIsNamed) {
  TempDir dir;
  std::string out;
  const int code = runWith(dir, "yes", out);
  EXPECT_NE(code, 0);
  EXPECT_NE(out.find("PLUMBLINE_ARRIVAL_STAMPS"), std::string::npos) << out;
}
