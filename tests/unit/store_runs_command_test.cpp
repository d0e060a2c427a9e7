#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/store/run_writer.h"
#include "core/store/runs_command.h"
#include "core/store/runs_edit_command.h"
#include "store_test_support.h"

namespace plumbline::store {
namespace {

using testing::TempDir;

int64_t recordRun(const std::string& path, size_t requests, bool finish) {
  RunWriter writer(path, testing::sampleRunInfo());
  writer.addRequests(testing::sampleRequests(requests));
  WindowRow w;
  w.idx = 0;
  w.errorsJson = R"({"timeout":1})";
  writer.addWindow(w, {{"ttft", "blob"}});
  if (finish)
    writer.finish({{"verdict", "harness_limited"},
                   {"verdict_reasons", {"worker 0 CPU saturated at 4 s", "send lag p99 3 ms"}},
                   {"planned", 10},
                   {"sent", 10},
                   {"completed", 9},
                   {"not_sent", 0},
                   {"errors", {{"timeout", 1}}},
                   {"failure_samples",
                    {{"http_4xx",
                      {{"status", 404},
                       {"sent_at_s", 0.25},
                       {"body", R"({"error":{"message":"The model 'x' does not exist"}})"}}}}},
                   {"retry_after", {{"responses", 3}, {"min_ms", 1000}, {"max_ms", 30'000}}},
                   {"requested_rps", 5.0},
                   {"achieved_rps", 5.0},
                   {"send_lag_ms", {{"p50", 0.1}, {"p90", 0.2}, {"p99", 0.3}, {"max", 0.4}}},
                   {"ttft_ms", {{"p50", 1.0}, {"p90", 2.0}, {"p99", 3.0}, {"max", 4.0}}},
                   {"token_count_source", "server"}},
                  {}, true);
  return writer.runId();
}

TEST(StoreRunsCommand, ListOfMissingDefaultDatabaseSaysNoRuns) {
  TempDir dir;
  std::ostringstream out, err;
  EXPECT_EQ(runsList(dir.file("none.db"), /*named=*/false, out, err), 0);
  EXPECT_EQ(out.str(), "no runs yet (" + dir.file("none.db") + ")\n");
}

// QA: `runs --db zzz/typo.db list` said "no runs yet", exit 0, where show said "no such file".
TEST(StoreRunsCommand, ListOfMissingNamedDatabaseIsExit2LikeShow) {
  TempDir dir;
  const std::string path = dir.file("zzz/typo.db");
  std::ostringstream out, err;
  EXPECT_EQ(runsList(path, /*named=*/true, out, err), 2);
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(err.str(), path + ": opening: no such file\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("zzz")));
}

TEST(StoreRunsCommand, ListShowsRuns) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  recordRun(path, 10, true);
  recordRun(path, 5, false);
  std::ostringstream out, err;
  EXPECT_EQ(runsList(path, true, out, err), 0) << err.str();
  std::string text = out.str();
  EXPECT_NE(text.find("harness_limited"), std::string::npos) << text;
  EXPECT_NE(text.find("complete"), std::string::npos) << text;
  EXPECT_NE(text.find("running"), std::string::npos) << text;  // this process is alive
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);
  // Oldest first: the newest run is the last line, next to the prompt (as `runs list --help` says).
  EXPECT_LT(text.find("\n1 "), text.find("\n2 ")) << text;
}

TEST(StoreRunsCommand, GarbageDatabaseIsExit2NamingFile) {
  TempDir dir;
  std::string path = dir.file("junk.db");
  std::ofstream(path) << std::string(4096, 'x');
  std::ostringstream out, err;
  EXPECT_EQ(runsList(path, true, out, err), 2);
  std::string message = err.str();
  EXPECT_NE(message.find(path + " is not a Plumbline database"), std::string::npos) << message;
  EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 1);
}

TEST(StoreRunsCommand, ShowPutsVerdictFirst) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  int64_t id = recordRun(path, 10, true);
  std::ostringstream out, err;
  ASSERT_EQ(runsShow(path, id, out, err), 0) << err.str();
  std::string text = out.str();
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "verdict: harness_limited \u2014 worker 0 CPU saturated at 4 s; send lag p99 3 ms");
  EXPECT_NE(text.find("status: complete\n"), std::string::npos) << text;
  EXPECT_NE(text.find("failed 1 (timeout 1)  not sent 0\n  first http_4xx reply: HTTP 404: "
                      "{\"error\":{\"message\":\"The model 'x' does not exist\"}}\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\nretry-after: 3 replies asked to wait 1\u201330 s (not obeyed)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("send lag"), std::string::npos) << text;
  EXPECT_NE(text.find("token counts: server"), std::string::npos) << text;
  EXPECT_NE(text.find("windows: 1\n"), std::string::npos) << text;
}

TEST(StoreRunsCommand, ShowSaysWhereTheHeldRequestsAre) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  std::vector<metrics::RequestRecord> requests(4);
  requests[0].heldNs = 55'000'000;
  requests[1].heldNs = 12'000'000;
  requests[2].heldNs = 5'000'000;  // under the tolerance
  int64_t id = 0;
  {
    RunWriter writer(path, testing::sampleRunInfo());
    id = writer.runId();
    writer.addRequests(requests);
    writer.finish({{"verdict", "harness_limited"},
                   {"planned", 4},
                   {"sent", 4},
                   {"completed", 4},
                   {"timing_held", {{"requests", 2}, {"max_ms", 55.0}, {"tolerance_ms", 10.0}}}},
                  {}, true);
  }
  std::ostringstream out, err;
  ASSERT_EQ(runsShow(path, id, out, err), 0) << err.str();
  EXPECT_NE(
      out.str().find("\nheld requests: 2 rows with held_ns >= 10000000; `plumbline runs export " +
                     std::to_string(id) + "` lists them\n"),
      std::string::npos)
      << out.str();
  std::ostringstream none;
  ASSERT_EQ(runsShow(path, recordRun(path, 10, true), none, err), 0) << err.str();
  EXPECT_EQ(none.str().find("held requests"), std::string::npos) << none.str();  // none held
}

TEST(StoreRunsCommand, ShowUnfinishedRun) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  int64_t id = recordRun(path, 7, false);
  std::ostringstream out, err;
  ASSERT_EQ(runsShow(path, id, out, err), 0) << err.str();
  EXPECT_EQ(out.str().rfind("verdict: none", 0), 0u) << out.str();
  EXPECT_NE(out.str().find("requests recorded: 7"), std::string::npos) << out.str();
}

TEST(StoreRunsCommand, UnknownIdAndMissingFileAreExit2) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  recordRun(path, 1, true);
  std::ostringstream out, err;
  EXPECT_EQ(runsShow(path, 99, out, err), 2);
  EXPECT_NE(err.str().find("no run with id 99"), std::string::npos) << err.str();
  EXPECT_EQ(runsExport(path, 99, "json", out, err), 2);
  std::ostringstream err2;
  EXPECT_EQ(runsShow(dir.file("missing.db"), 1, out, err2), 2);
  EXPECT_NE(err2.str().find(dir.file("missing.db")), std::string::npos) << err2.str();
  std::ostringstream err3;
  EXPECT_EQ(runsExport(path, 1, "xml", out, err3), 2);
  EXPECT_NE(err3.str().find("unknown format 'xml'"), std::string::npos) << err3.str();
}

TEST(StoreRunsCommand, ExportJson) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  int64_t id = recordRun(path, 25, true);
  std::ostringstream out, err;
  ASSERT_EQ(runsExport(path, id, "json", out, err), 0) << err.str();
  nlohmann::json j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["run"]["id"], id);
  EXPECT_EQ(j["run"]["status"], "complete");
  EXPECT_EQ(j["run"]["verdict"], "harness_limited");
  EXPECT_EQ(j["run"]["summary"]["planned"], 10);
  EXPECT_EQ(j["run"]["spec"], testing::sampleRunInfo().spec);
  EXPECT_EQ(j["run"]["errors"], 1);
  ASSERT_EQ(j["windows"].size(), 1u);
  EXPECT_EQ(j["windows"][0]["errors_by_class"]["timeout"], 1);
  ASSERT_EQ(j["requests"].size(), 25u);
  auto expected = testing::sampleRequests(25);
  EXPECT_EQ(j["requests"][2]["error_class"], "timeout");
  EXPECT_EQ(j["requests"][24]["planned_ns"], expected[24].plannedNs);
  EXPECT_EQ(j["requests"][0]["session_id"].get<uint64_t>(), expected[0].sessionId);
  EXPECT_EQ(j["requests"][0].size(), 21u);
  EXPECT_EQ(j["requests"][0]["retry_after_ms"], 0);   // a 503 that asked to retry at once
  EXPECT_EQ(j["requests"][1]["retry_after_ms"], -1);  // none asked
  EXPECT_EQ(j["requests"][1]["first_answer_ns"], expected[1].firstAnswerNs);  // thought first
  EXPECT_EQ(j["requests"][4]["first_answer_ns"], -1);                         // never answered
  EXPECT_EQ(j["requests"][3]["held_ns"], expected[3].heldNs);  // in flight across a hold
  EXPECT_EQ(j["requests"][4]["held_ns"], 0);                   // across none
  EXPECT_EQ(j["run"]["tags"], nlohmann::json::array());
}

// QA: the exported run had its notes but not its tags.
TEST(StoreRunsCommand, ExportJsonHasTheRunsTags) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  int64_t id = recordRun(path, 3, true);
  std::ostringstream out, err;
  ASSERT_EQ(runsTag(path, id, {"nightly", "h100"}, false, out, err), 0) << err.str();
  std::ostringstream exported;
  ASSERT_EQ(runsExport(path, id, "json", exported, err), 0) << err.str();
  const auto j = nlohmann::json::parse(exported.str());
  EXPECT_EQ(j["run"]["tags"], (nlohmann::json{"h100", "nightly"}));
}

TEST(StoreRunsCommand, ExportCsv) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  int64_t id = recordRun(path, 12, true);
  std::ostringstream out, err;
  ASSERT_EQ(runsExport(path, id, "csv", out, err), 0) << err.str();
  std::istringstream in(out.str());
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 13u);
  EXPECT_EQ(lines[0],
            "run_id,session_id,turn,worker_id,planned_ns,send_ns,first_byte_ns,first_token_ns,"
            "last_token_ns,end_ns,input_tokens_server,output_tokens_server,input_tokens_client,"
            "output_tokens_client,chunks,http_status,error_class,upload_end_ns,retry_after_ms,"
            "first_answer_ns,held_ns");
  auto r = testing::sampleRequests(12)[3];
  std::ostringstream want;
  want << id << ',' << r.sessionId << ',' << r.turn << ',' << r.workerId << ',' << r.plannedNs
       << ',' << r.sendNs << ',' << r.firstByteNs << ',' << r.firstTokenNs << ',' << r.lastTokenNs
       << ',' << r.endNs << ',' << r.inputTokensServer << ',' << r.outputTokensServer << ','
       << r.inputTokensClient << ',' << r.outputTokensClient << ',' << r.chunks << ','
       << r.httpStatus << ",http_4xx," << r.uploadEndNs << ",-1," << r.firstAnswerNs << ','
       << r.heldNs;
  EXPECT_EQ(lines[4], want.str());
  EXPECT_NE(lines[1].find(",none,"), std::string::npos) << lines[1];
  EXPECT_EQ(lines[1].substr(lines[1].rfind(",0,")), ",0,-1,1000007")
      << lines[1];  // request 0: a 503, retry at once; no answer token; held 1 ms
}

}  // namespace
}  // namespace plumbline::store
