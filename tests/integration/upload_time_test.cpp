// Issue 6, "long prompts": the upload of each request body (first to last byte written) is
// recorded per request, stored, and summarised apart from TTFT.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/integration/child_process.h"
#include "tests/integration/embedded_workload.h"
#include "tests/integration/db_query.h"

using nlohmann::json;
using plumbline::test::ChildProcess;
using plumbline::test::TempDir;
using plumbline::test::queryInt;

TEST(UploadTime, LongPromptsRecordTheirUploadApartFromTtft) {
  TempDir dir;
  const json w = plumbline::test::embeddedStreamWorkload({.name = "long prompts", .ttftMs = 50, .itlMs = 1, .seed = 8,
                                                          .rate = 10, .durationS = 2, .inputTokens = 32768, .outputTokens = 4});
  std::ofstream(dir.file("w.json")) << w.dump();
  const std::string db = dir.file("runs.db");
  ChildProcess run({PLUMBLINE_BIN, "run", dir.file("w.json"), "--db", db, "--workers", "1", "--summary-json",
                    dir.file("s.json")},
                   dir.file("out.txt"));
  const int code = run.wait(60'000);
  ASSERT_TRUE(code == 0 || code == 3) << run.output();
  std::ifstream in(dir.file("s.json"));
  const json s = json::parse(in);
  SCOPED_TRACE(s.dump(2));
  const auto completed = static_cast<int64_t>(s.at("completed").get<uint64_t>());
  ASSERT_EQ(completed, 20);

  // Every request's upload ended after its send and before the server's first byte, and
  // TTFT (from the send) still holds the mock's 50 ms: the upload is reported beside it.
  EXPECT_EQ(queryInt(db, "SELECT count(*) FROM requests WHERE upload_end_ns IS NOT NULL AND upload_end_ns >= send_ns "
                         "AND upload_end_ns <= first_byte_ns"),
            completed);
  const json& upload = s.at("upload_ms");
  EXPECT_GE(upload.at("p50").get<double>(), 0.0);
  EXPECT_LT(upload.at("max").get<double>(), s.at("ttft_ms").at("p50").get<double>());
  EXPECT_GE(s.at("ttft_ms").at("p50").get<double>(), 50.0);
  // A ~128 KB body does not leave in one write: its upload takes measurable time.
  EXPECT_GT(queryInt(db, "SELECT max(upload_end_ns - send_ns) FROM requests"), 0);
  // The terminal summary has its own line for it.
  EXPECT_NE(run.output().find("  upload "), std::string::npos) << run.output();
}
