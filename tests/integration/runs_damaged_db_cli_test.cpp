// QA: a Plumbline database with a damaged page was "not a Plumbline database: database disk
// image is malformed" to `runs list`, and "the database is damaged" to `run`. Every command now
// says that the database is damaged, in the same words, and what may still be read.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <random>
#include <string>

#include "tests/integration/child_process.h"
#include "tests/integration/cli_process.h"

using plumbline::test::runCli;
using plumbline::test::TempDir;

namespace {

constexpr long kDamagedPageSize = 4096;  // SQLite's default, which Plumbline keeps

/// The QA's recipe: the last 3 pages of a database holding 2 runs overwritten with noise.
void overwriteLastPages(const std::string& path) {
  const auto size = static_cast<long>(std::filesystem::file_size(path));
  ASSERT_GE(size, 6 * kDamagedPageSize);
  FILE* f = std::fopen(path.c_str(), "r+b");
  ASSERT_NE(f, nullptr);
  std::fseek(f, size - 3 * kDamagedPageSize, SEEK_SET);
  std::mt19937 noise(22);
  for (long i = 0; i < 3 * kDamagedPageSize; ++i) std::fputc(static_cast<int>(noise() & 0xff), f);
  std::fclose(f);
}

/// What a command said last: its error, after what it printed of the run before failing.
std::string lastLineOf(const std::string& output) {
  const size_t start = output.rfind('\n', output.size() < 2 ? 0 : output.size() - 2);
  return start == std::string::npos ? output : output.substr(start + 1);
}

}  // namespace

TEST(RunsDamagedDbCli, EveryCommandSaysTheDatabaseIsDamaged) {
  TempDir dir;
  const std::string db = dir.file("runs.db");
  const std::string run = "run " + std::string(PLUMBLINE_SOURCE_DIR) +
                          "/workloads/quickstart.json --rate 5 --duration 1 --quiet --db " + db;
  for (int i = 0; i < 2; ++i) {
    const auto r = runCli(run);
    ASSERT_TRUE(r.exitCode == 0 || r.exitCode == 3) << r.output;
  }
  overwriteLastPages(db);
  const std::string damaged = "the database " + db + " is damaged (";
  const std::string stillReadable =
      "runs stored before the damage may still be readable with runs show ID\n";
  for (const std::string& command :
       {std::string("runs list"), std::string("runs show 1"), std::string("runs compare 1 2"),
        std::string("runs export 2 --format csv")}) {
    const auto r = runCli(command + " --db " + db);
    const std::string said = lastLineOf(r.output);
    EXPECT_EQ(r.exitCode, 2) << command << ": " << r.output;
    EXPECT_EQ(said.rfind(damaged, 0), 0u) << command << ": " << r.output;
    EXPECT_NE(said.find(stillReadable), std::string::npos) << command << ": " << r.output;
  }
  const auto r = runCli(run);
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_EQ(r.output.rfind("plumbline run: " + damaged, 0), 0u) << r.output;
  EXPECT_NE(r.output.find("; nothing was run; use another --db, or recover this one (sqlite3 " +
                          db + " .recover)\n"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << r.output;  // one line
}
