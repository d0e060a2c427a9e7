// QA: a read-only database gave "running 'INSERT INTO runs (id, name, created_at, ...': attempt
// to write a readonly database": SQL in a message a person reads. Every SQLite failure now says
// what is wrong with the file, in words naming it, and never quotes the statement.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <sqlite3.h>

#include "core/store/database.h"
#include "core/store/sqlite_failure.h"
#include "core/store/statement.h"
#include "core/store/store_error.h"
#include "store_test_support.h"

namespace plumbline::store {
namespace {

TEST(StoreSqliteFailure, EachResultCodeIsSaidInWordsNamingTheFile) {
  const std::string path = "/x/runs.db";
  const struct {
    int rc;
    std::string message;
    StoreErrorKind kind;
  } cases[] = {
      {SQLITE_READONLY, "the database file /x/runs.db is read-only", StoreErrorKind::Failure},
      {SQLITE_READONLY_DIRECTORY,
       "the database file /x/runs.db cannot be written: its directory or its -shm file is "
       "read-only",
       StoreErrorKind::Failure},
      {SQLITE_CANTOPEN, "the database file /x/runs.db cannot be opened", StoreErrorKind::Failure},
      {SQLITE_PERM, "the database file /x/runs.db may not be accessed", StoreErrorKind::Failure},
      {SQLITE_FULL, "the disk holding the database file /x/runs.db is full",
       StoreErrorKind::Failure},
      {SQLITE_IOERR_WRITE,
       "the database file /x/runs.db could not be written: an I/O error (disk I/O error)",
       StoreErrorKind::Failure},
      {SQLITE_BUSY, "the database file /x/runs.db is locked by another process",
       StoreErrorKind::Busy},
      {SQLITE_LOCKED, "the database file /x/runs.db is locked by another process",
       StoreErrorKind::Busy},
      {SQLITE_CORRUPT,
       "the database /x/runs.db is damaged (database disk image is malformed); runs stored "
       "before the damage may still be readable with runs show ID",
       StoreErrorKind::Damaged},
      {SQLITE_NOTADB, "/x/runs.db is not a Plumbline database: file is not a database",
       StoreErrorKind::NotADatabase},
  };
  for (const auto& c : cases) {
    const StoreError e = sqliteFailure(path, nullptr, c.rc);
    EXPECT_EQ(std::string(e.what()), c.message) << c.rc;
    EXPECT_EQ(e.kind(), c.kind) << c.rc;
    EXPECT_EQ(e.path(), path) << c.rc;
  }
  // The caller's kind, where the code does not decide it (a file that cannot be used as given).
  EXPECT_EQ(sqliteFailure(path, nullptr, SQLITE_READONLY, StoreErrorKind::InvalidInput).kind(),
            StoreErrorKind::InvalidInput);
  EXPECT_EQ(sqliteFailure(path, nullptr, SQLITE_BUSY, StoreErrorKind::InvalidInput).kind(),
            StoreErrorKind::Busy);
}

TEST(StoreSqliteFailure, AWriteToAReadOnlyConnectionIsSaidWithoutItsStatement) {
  testing::TempDir dir;
  const std::string path = dir.file("runs.db");
  Database::open(path, Database::Mode::ReadWrite);
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_extended_result_codes(raw, 1);
  try {
    Statement insert(raw, "INSERT INTO runs (created_at, status) VALUES ('x', 'complete')", path);
    insert.run();
    ADD_FAILURE() << "a read-only connection wrote";
  } catch (const StoreError& e) {
    EXPECT_EQ(std::string(e.what()), "the database file " + path + " is read-only");
  }
  sqlite3_close(raw);
}

TEST(StoreSqliteFailure, AStatementSqliteRefusesIsNotQuoted) {
  testing::TempDir dir;
  const std::string path = dir.file("runs.db");
  Database db = Database::open(path, Database::Mode::ReadWrite);
  try {
    db.exec("INSERT INTO runs (created_at, status) VALUES ('x', 'bogus')");
    ADD_FAILURE() << "a bogus status was stored";
  } catch (const StoreError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("SQLite failed on the database file " + path + ": ", 0), 0u) << what;
    EXPECT_EQ(what.find("INSERT"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace plumbline::store
