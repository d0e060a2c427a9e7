// QA: `run --db same.db --summary-json same.db` wrote the summary over the database, earlier
// runs included. An output path that is the database, one of its SQLite files or any other
// SQLite database is named before the run starts.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/store/database.h"
#include "core/store/database_files.h"
#include "store_test_support.h"

namespace plumbline::store {
namespace {

using testing::TempDir;

TEST(StoreDatabaseFiles, TheDatabaseAndItsSqliteFilesAreRefusedByPath) {
  TempDir dir;
  const std::string db = dir.file("runs.db");  // not created yet: compared by path
  EXPECT_EQ(databaseClobberedBy(db, db), "is the database " + db);
  EXPECT_EQ(databaseClobberedBy(db + "-wal", db), "is the database's wal file " + db + "-wal");
  EXPECT_EQ(databaseClobberedBy(db + "-shm", db), "is the database's shm file " + db + "-shm");
  EXPECT_EQ(databaseClobberedBy(db + "-journal", db),
            "is the database's journal file " + db + "-journal");
  EXPECT_EQ(databaseClobberedBy(dir.file("./sub/../runs.db"), db), "is the database " + db);
  EXPECT_EQ(databaseClobberedBy(dir.file("s.json"), db), "");
  EXPECT_EQ(databaseClobberedBy(dir.file("runs.db-walrus"), db), "");
}

TEST(StoreDatabaseFiles, ARelativePathNamesTheSameFile) {
  TempDir dir;
  const auto before = std::filesystem::current_path();
  std::filesystem::current_path(dir.file(""));
  EXPECT_EQ(databaseClobberedBy("runs.db", dir.file("runs.db")),
            "is the database " + dir.file("runs.db"));
  EXPECT_EQ(databaseClobberedBy(dir.file("runs.db-wal"), "runs.db"),
            "is the database's wal file runs.db-wal");
  std::filesystem::current_path(before);
}

TEST(StoreDatabaseFiles, ASymlinkOrAHardLinkToTheDatabaseIsRefused) {
  TempDir dir;
  const std::string db = dir.file("runs.db");
  Database::open(db, Database::Mode::ReadWrite);
  std::filesystem::create_symlink(db, dir.file("link.json"));
  std::filesystem::create_hard_link(db, dir.file("hard.json"));
  EXPECT_EQ(databaseClobberedBy(dir.file("link.json"), db), "is the database " + db);
  EXPECT_EQ(databaseClobberedBy(dir.file("hard.json"), db), "is the database " + db);
  // The database given through a symlink: SQLite keeps -wal beside the target.
  std::filesystem::create_symlink(db, dir.file("alias.db"));
  EXPECT_EQ(databaseClobberedBy(db + "-wal", dir.file("alias.db")),
            "is the database's wal file " + dir.file("alias.db") + "-wal");
}

TEST(StoreDatabaseFiles, AnyOtherSqliteDatabaseIsNotOverwritten) {
  TempDir dir;
  Database::open(dir.file("other.db"), Database::Mode::ReadWrite);
  EXPECT_EQ(databaseClobberedBy(dir.file("other.db"), dir.file("runs.db")),
            "is an SQLite database; not overwriting it");
  std::ofstream(dir.file("old.json")) << "{\"run_id\": 1}\n";
  EXPECT_EQ(databaseClobberedBy(dir.file("old.json"), dir.file("runs.db")), "");
  std::ofstream(dir.file("short")) << "SQLite";
  EXPECT_EQ(databaseClobberedBy(dir.file("short"), dir.file("runs.db")), "");
}

}  // namespace
}  // namespace plumbline::store
