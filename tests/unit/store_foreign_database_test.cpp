// QA: every writer (a run, runs rename/notes/tag/delete) added Plumbline's tables to any SQLite
// file it was pointed at and switched it to WAL; `runs delete 1` said "no run with id 1" after
// migrating it. Another application's database is refused before anything in it changes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sqlite3.h>

#include "core/store/database.h"
#include "core/store/run_reader.h"
#include "core/store/run_writer.h"
#include "core/store/runs_edit_command.h"
#include "core/store/store_error.h"
#include "store_test_support.h"

namespace plumbline::store {
namespace {

using testing::TempDir;

/// SQL run on the file with plain SQLite: another application's database.
void sqliteExec(const std::string& path, const std::string& sql) {
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK)
      << sqlite3_errmsg(raw);
  sqlite3_close(raw);
}

/// "table names|journal mode" as plain SQLite sees the file.
std::string tablesAndJournal(const std::string& path) {
  sqlite3* raw = nullptr;
  std::string out;
  if (sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(raw,
                       "SELECT (SELECT group_concat(name, ',') FROM sqlite_schema), "
                       "(SELECT journal_mode FROM pragma_journal_mode)",
                       -1, &st, nullptr);
    if (sqlite3_step(st) == SQLITE_ROW)
      out = std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 0))) + "|" +
            reinterpret_cast<const char*>(sqlite3_column_text(st, 1));
    sqlite3_finalize(st);
  }
  sqlite3_close(raw);
  return out;
}

TEST(StoreForeignDatabase, WritersRefuseAnotherApplicationsDatabaseAndChangeNothing) {
  TempDir dir;
  const std::string path = dir.file("other.db");
  sqliteExec(path, "CREATE TABLE foo(x); INSERT INTO foo VALUES (1);");
  ASSERT_EQ(tablesAndJournal(path), "foo|delete");
  try {
    Database::open(path, Database::Mode::ReadWrite);
    FAIL() << "a writer opened another application's database";
  } catch (const StoreError& e) {
    EXPECT_EQ(e.kind(), StoreErrorKind::NotADatabase);
    EXPECT_EQ(exitCodeOf(e.kind()), 2);
    EXPECT_EQ(std::string(e.what()).rfind(path + " is not a Plumbline database: ", 0), 0u)
        << e.what();
  }
  EXPECT_THROW(RunWriter(path, testing::sampleRunInfo()), StoreError);
  std::ostringstream out, err;
  EXPECT_EQ(runsDelete(path, 1, out, err), 2);
  EXPECT_NE(err.str().find(path + " is not a Plumbline database"), std::string::npos) << err.str();
  EXPECT_EQ(err.str().find("no run with id"), std::string::npos) << err.str();
  std::ostringstream err2;
  EXPECT_EQ(runsRename(path, 1, "x", out, err2), 2) << err2.str();
  EXPECT_EQ(tablesAndJournal(path), "foo|delete");  // no table added, no WAL
  EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
}

TEST(StoreForeignDatabase, AnEmptyFileOrAnEmptySqliteDatabaseIsStillSetUp) {
  TempDir dir;
  const std::string zeroBytes = dir.file("zero.db");
  std::ofstream(zeroBytes).close();
  const std::string emptySqlite = dir.file("empty.db");
  sqliteExec(emptySqlite, "PRAGMA page_size=4096; VACUUM;");  // a header, no table
  for (const std::string& path : {zeroBytes, emptySqlite}) {
    RunWriter writer(path, testing::sampleRunInfo());
    EXPECT_EQ(writer.runId(), 1) << path;
    EXPECT_EQ(Database::open(path, Database::Mode::ReadOnly).userVersion(),
              Database::kSchemaVersion);
  }
}

}  // namespace
}  // namespace plumbline::store
