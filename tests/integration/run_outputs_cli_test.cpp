// QA: `plumbline run q.json --db same.db --summary-json same.db` wrote the summary over the
// database, its earlier runs included. Every output path of a run that names the database, one
// of its SQLite files or another SQLite database is refused (exit 2) before the run starts.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>

#include "core/store/database.h"
#include "tests/integration/child_process.h"
#include "tests/integration/cli_process.h"

using plumbline::test::runCli;
using plumbline::test::TempDir;

namespace {

std::string bytesOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST(RunOutputsCli, AnOutputNamingTheDatabaseOrAnotherSqliteFileIsRefusedBeforeTheRun) {
  TempDir dir;
  const std::string db = dir.file("runs.db");
  const std::string other = dir.file("other.db");
  {
    auto d = plumbline::store::Database::open(db, plumbline::store::Database::Mode::ReadWrite);
    d.exec("INSERT INTO runs (created_at, status) VALUES ('earlier', 'complete')");
    d.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    plumbline::store::Database::open(other, plumbline::store::Database::Mode::ReadWrite);
  }
  std::filesystem::create_symlink(db, dir.file("link.json"));
  const std::string before = bytesOf(db), otherBefore = bytesOf(other);
  const std::string w = std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/quickstart.json";
  const std::pair<std::string, std::string> cases[] = {
      {"--summary-json " + db, "--summary-json " + db + ": is the database " + db},
      {"--summary-json " + db + "-wal", ": is the database's wal file " + db + "-wal"},
      {"--summary-json " + db + "-shm", ": is the database's shm file"},
      {"--summary-json " + db + "-journal", ": is the database's journal file"},
      {"--summary-json " + dir.file("link.json"), ": is the database " + db},
      {"--summary-json " + other,
       "--summary-json " + other + ": is an SQLite database; not overwriting it"},
      {"--live " + db + "-wal", "--live " + db + "-wal: is the database's wal file"},
  };
  for (const auto& [flags, message] : cases) {
    const auto r = runCli("run " + w + " --rate 1 --duration 1 --quiet --db " + db + " " + flags);
    EXPECT_EQ(r.exitCode, 2) << flags << ": " << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << flags << ": " << r.output;
  }
  EXPECT_EQ(bytesOf(db), before);
  EXPECT_EQ(bytesOf(other), otherBefore);
  EXPECT_FALSE(std::filesystem::exists(db + "-journal"));
  auto d = plumbline::store::Database::open(db, plumbline::store::Database::Mode::ReadOnly);
  auto s = d.prepare("SELECT count(*) FROM runs");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.columnInt(0), 1);  // no run was started
}

// What `plumbline plan` and the Designer warn of, `plumbline run` says before it runs (QA: a
// run from the terminal gave no sign that its results would not compare); --quiet keeps quiet.
TEST(RunOutputsCli, TheWorkloadsWarningsAreSaidBeforeTheRun) {
  TempDir dir;
  const std::string w = dir.file("w.json");
  std::ofstream(w) << R"({"plumbline": 1, "name": "unset temperature",
    "target": {"url": "embedded", "stream": true, "mock": {"ttft_ms": 1, "itl_ms": 1}},
    "load": {"arrival": "constant", "stages": [{"rate": 5, "duration_s": 1}]},
    "requests": {"input_tokens": {"dist": "fixed", "value": 8},
                 "output_tokens": {"dist": "fixed", "value": 2}}})";
  const std::string warning =
      "plumbline run: warning: requests.sampling.temperature: no temperature";
  const auto said = runCli("run " + w + " --db " + dir.file("runs.db"));
  EXPECT_EQ(said.exitCode == 0 || said.exitCode == 3, true) << said.output;
  EXPECT_NE(said.output.find(warning), std::string::npos) << said.output;
  const auto quiet = runCli("run " + w + " --quiet --db " + dir.file("runs.db"));
  EXPECT_EQ(quiet.output.find(warning), std::string::npos) << quiet.output;
}

// A name given with whitespace around it (pasted with its newline) is taken as `runs rename`
// takes it, trimmed (QA: `run --name` refused what `runs rename` accepted).
TEST(RunOutputsCli, ANameIsTrimmedAsRenameTrimsIt) {
  TempDir dir;
  const std::string db = dir.file("runs.db");
  const std::string w = std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/quickstart.json";
  const auto run =
      runCli("run " + w + " --rate 2 --duration 1 --quiet --db " + db + " --name '  nightly\n'");
  ASSERT_TRUE(run.exitCode == 0 || run.exitCode == 3) << run.output;
  const auto show = runCli("runs --db " + db + " show 1");
  EXPECT_NE(show.output.find("run 1: nightly  workload"), std::string::npos) << show.output;
}

// QA: `--summary-json -` to a full disk (/dev/full) or a closed stdout gave exit 0 and no word,
// and so did the report. Now each is an error on stderr and exit 1 (a failure of the tool), and
// the run is stored whole all the same.
TEST(RunOutputsCli, AStdoutThatCannotBeWrittenIsAnErrorAndTheRunIsStoredAllTheSame) {
  TempDir dir;
  const std::string db = dir.file("runs.db"), err = dir.file("err.txt");
  const std::string w = std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/quickstart.json";
  const std::pair<std::string, std::string> cases[] = {
      {"--quiet --summary-json - >/dev/full",
       "--summary-json -: cannot write: No space left on device"},
      {"--quiet --summary-json - >&-", "--summary-json -: cannot write: standard output is closed"},
      {">/dev/full", "the report could not be written to standard output: No space left on device"},
  };
  for (const auto& [flags, message] : cases) {
    // stderr alone goes to the file: runCli's own 2>&1 is commented out.
    const auto r = runCli("run " + w + " --rate 2 --duration 1 --db " + db + " " + flags + " 2>" +
                          err + "; s=$?; cat " + err + "; exit $s #");
    EXPECT_EQ(r.exitCode, 1) << flags << ": " << r.output;
    EXPECT_NE(r.output.find("plumbline run: " + message), std::string::npos)
        << flags << ": " << r.output;
    EXPECT_NE(r.output.find(" is stored in " + db), std::string::npos) << flags << ": " << r.output;
  }
  auto d = plumbline::store::Database::open(db, plumbline::store::Database::Mode::ReadOnly);
  auto s = d.prepare("SELECT count(*) FROM runs WHERE status = 'complete'");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.columnInt(0), 3);
}
