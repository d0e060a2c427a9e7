// QA: `run --db` of a path that cannot be used was refused with exit 1 or 2 depending on why,
// in SQLite's words ("opening: unable to open database file", "running 'INSERT INTO runs ...':
// attempt to write a readonly database"). Every such path is now refused with exit 2 before the
// run, in one line naming it and saying what is wrong.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/store/database.h"
#include "tests/integration/child_process.h"
#include "tests/integration/cli_process.h"

using plumbline::test::runCli;
using plumbline::test::TempDir;

namespace {

/// Makes a file or directory refuse writes, as its mode does to a person: for root, whom modes do
/// not stop, with the immutable attribute too. Undone when destroyed. holds() is false where
/// neither works on this machine.
class BadDbPathUnwritable {
 public:
  explicit BadDbPathUnwritable(std::string path) : m_path(std::move(path)) {
    chmod(m_path.c_str(), std::filesystem::is_directory(m_path) ? 0555 : 0444);
    if (access(m_path.c_str(), W_OK) == 0)
      std::system(("chattr +i '" + m_path + "' 2>/dev/null").c_str());
  }
  ~BadDbPathUnwritable() {
    std::system(("chattr -i '" + m_path + "' 2>/dev/null").c_str());
    chmod(m_path.c_str(), 0755);
  }
  BadDbPathUnwritable(const BadDbPathUnwritable&) = delete;
  BadDbPathUnwritable& operator=(const BadDbPathUnwritable&) = delete;
  bool holds() const { return access(m_path.c_str(), W_OK) != 0; }

 private:
  std::string m_path;
};

std::string badDbPathRun(const std::string& db, const std::string& summary) {
  return "run " + std::string(PLUMBLINE_SOURCE_DIR) +
         "/workloads/quickstart.json --rate 2 --duration 1 --quiet --db " + db +
         " --summary-json " + summary;
}

/// Refused with exit 2 before the run, in one line saying `reason`, in words.
void expectRefusedBeforeTheRun(const std::string& db, const std::string& reason,
                               const std::string& summary) {
  const auto r = runCli(badDbPathRun(db, summary));
  EXPECT_EQ(r.exitCode, 2) << db << ": " << r.output;
  EXPECT_EQ(r.output, "plumbline run: " + reason + "\n") << db;
  EXPECT_FALSE(std::filesystem::exists(summary)) << db << ": the run ran";
}

}  // namespace

TEST(BadDbPathCli, APathThatCannotBeADatabaseIsRefusedWithExit2) {
  TempDir dir;
  const std::string summary = dir.file("s.json");
  std::filesystem::create_directory(dir.file("sub"));
  expectRefusedBeforeTheRun(
      dir.file("sub"), dir.file("sub") + ": opening: is a directory, not a database file", summary);
  std::ofstream(dir.file("plain")) << "a file, not a directory\n";
  expectRefusedBeforeTheRun(dir.file("plain/runs.db"),
                            "the directory " + dir.file("plain") + " of the database file " +
                                dir.file("plain/runs.db") + " cannot be made (Not a directory)",
                            summary);
  std::ofstream(dir.file("noise.db")) << std::string(8192, '\x5a');
  expectRefusedBeforeTheRun(
      dir.file("noise.db"),
      dir.file("noise.db") + " is not a Plumbline database: file is not a database", summary);
}

TEST(BadDbPathCli, AReadOnlyDatabaseOrDirectoryIsRefusedWithExit2InWords) {
  TempDir dir;
  const std::string summary = dir.file("s.json");
  const std::string db = dir.file("ro/runs.db");
  plumbline::store::Database::open(db, plumbline::store::Database::Mode::ReadWrite);
  std::filesystem::create_directory(dir.file("closed"));
  std::filesystem::create_directory(dir.file("closedWithDb"));
  std::filesystem::copy_file(db, dir.file("closedWithDb/runs.db"));
  const BadDbPathUnwritable file(db), closed(dir.file("closed")),
      closedWithDb(dir.file("closedWithDb"));
  if (!file.holds() || !closed.holds() || !closedWithDb.holds())
    GTEST_SKIP() << "no way to make a file read-only here (root without chattr)";
  expectRefusedBeforeTheRun(db, "the database file " + db + " is read-only", summary);
  for (const std::string& in : {dir.file("closed/runs.db"), dir.file("closedWithDb/runs.db")}) {
    const auto r = runCli(badDbPathRun(in, summary));
    EXPECT_EQ(r.exitCode, 2) << in << ": " << r.output;
    const std::string parent = std::filesystem::path(in).parent_path().string();
    EXPECT_EQ(r.output.rfind("plumbline run: the directory " + parent + " of the database file " +
                                 in + " takes no new files (",
                             0),
              0u)
        << r.output;
    EXPECT_NE(r.output.find("SQLite keeps its -wal and -shm files there\n"), std::string::npos)
        << r.output;
  }
  EXPECT_FALSE(std::filesystem::exists(summary));
  // Reading a database in WAL mode needs its -shm file beside it too.
  const std::string closedDb = dir.file("closedWithDb/runs.db");
  const auto r = runCli("runs list --db " + closedDb);
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_EQ(r.output.rfind("the directory " + dir.file("closedWithDb") + " of the database file " +
                               closedDb + " takes no new files (",
                           0),
            0u)
      << r.output;
}
