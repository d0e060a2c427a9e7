#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <sqlite3.h>

#include "core/store/database.h"
#include "core/store/default_paths.h"
#include "core/store/run_reader.h"
#include "core/store/run_writer.h"
#include "core/store/schema.h"
#include "core/store/store_error.h"
#include "store_test_support.h"

namespace plumbline::store {
namespace {

using testing::TempDir;

/// A database as an older version of the tool left it: the schema migrations up to `version`,
/// then `rows` (SQL), at that user_version.
void writeOldDatabase(const std::string& path, size_t version, const std::string& rows) {
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  std::string sql;
  for (size_t i = 0; i < version; ++i) sql += migrations()[i].sql;
  sql += rows + "PRAGMA user_version=" + std::to_string(version) + ";";
  ASSERT_EQ(sqlite3_exec(raw, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK)
      << sqlite3_errmsg(raw);
  sqlite3_close(raw);
}

/// Run 1's requests, read after a writer opened (and so migrated) the database at `path`.
std::vector<plumbline::metrics::RequestRecord> requestsAfterMigration(const std::string& path) {
  { Database::open(path, Database::Mode::ReadWrite); }
  std::vector<plumbline::metrics::RequestRecord> rows;
  plumbline::store::RunReader(path).forEachRequest(
      1, [&](const plumbline::metrics::RequestRecord& r) { rows.push_back(r); });
  return rows;
}

/// Run 1 with `rows` of requests ("(1, ...)", every column as `version` had them) written at
/// that version, then read back after a writer migrated it.
std::vector<plumbline::metrics::RequestRecord> oldRequestsMigrated(
    const std::string& path, size_t version, const std::vector<std::string>& rows) {
  std::string sql = "INSERT INTO runs (id, created_at, status) VALUES (1, 'x', 'complete');";
  for (const std::string& row : rows) sql += "INSERT INTO requests VALUES " + row + ";";
  writeOldDatabase(path, version, sql);
  if (::testing::Test::HasFatalFailure()) return {};
  return requestsAfterMigration(path);
}

TEST(StoreDatabase, WriterCreatesDirectoryAndLatestSchema) {
  TempDir dir;
  std::string path = dir.file("a/b/runs.db");
  Database db = Database::open(path, Database::Mode::ReadWrite);
  EXPECT_EQ(db.userVersion(), 12);
  EXPECT_EQ(Database::kSchemaVersion, 12);
  Statement mode = db.prepare("PRAGMA journal_mode");
  ASSERT_TRUE(mode.step());
  EXPECT_EQ(mode.columnText(0), "wal");
  Statement fk = db.prepare("PRAGMA foreign_keys");
  ASSERT_TRUE(fk.step());
  EXPECT_EQ(fk.columnInt(0), 1);
  Statement tables = db.prepare(
      "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_schema WHERE type='table' "
      "ORDER BY name)");
  ASSERT_TRUE(tables.step());
  EXPECT_EQ(tables.columnText(0), "histograms,requests,run_id_high,runs,tags,windows");
}

TEST(StoreDatabase, ReopeningDoesNotMigrateAgain) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  {
    Database db = Database::open(path, Database::Mode::ReadWrite);
    db.exec("INSERT INTO runs (created_at, status) VALUES ('x', 'complete')");
  }
  Database again = Database::open(path, Database::Mode::ReadWrite);
  EXPECT_EQ(again.userVersion(), Database::kSchemaVersion);
  Statement count = again.prepare("SELECT count(*) FROM runs");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.columnInt(0), 1);
  Database reader = Database::open(path, Database::Mode::ReadOnly);
  EXPECT_EQ(reader.userVersion(), Database::kSchemaVersion);
}

TEST(StoreDatabase, Version1DatabaseMigratesKeepingItsWindows) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  // A database as version 1 of the tool left it: schema v1 and a run with one window.
  ASSERT_NO_FATAL_FAILURE(writeOldDatabase(
      path, 1,
      "INSERT INTO runs (id, created_at, status) VALUES (1, 'x', 'complete');"
      "INSERT INTO windows VALUES (1, 0, 0, 1000000000, 20, 19, 18, 1, '{\"timeout\":1}', 900, 400,"
      " 3, 1.5, 2.5, 0.5, 0.75, 10, 20, 0.01, 0.02, 0.03, 0.4, 0.3, 1.25, 2, 0);"));
  { Database::open(path, Database::Mode::ReadWrite); }  // a writer migrates
  plumbline::store::RunReader reader(path);
  const auto windows = reader.windows(1);
  ASSERT_EQ(windows.size(), 1u);
  EXPECT_EQ(windows[0].sent, 19);
  EXPECT_EQ(windows[0].errorsJson, "{\"timeout\":1}");
  EXPECT_EQ(windows[0].inFlightCapHits, 2);
  EXPECT_EQ(windows[0].connectionsOpen, 0);  // not measured before v2
  EXPECT_EQ(windows[0].cpuWaitMaxMs, -1);    // nor the CPU wait before v4: unknown, not 0
  EXPECT_EQ(windows[0].handedLateMaxMs, std::nullopt);  // nor a late hand-out before v8
  EXPECT_EQ(windows[0].sentDuring, std::nullopt);       // nor the sends by send time
  EXPECT_EQ(windows[0].ttfaP50Ms, std::nullopt);        // nor the answer's before v11
  EXPECT_EQ(windows[0].ttfaP99Ms, std::nullopt);
}

namespace {

/// Run 1 with one window of `values` (every column as `version` had them) written at that
/// version, then read back by a reader, which upgrades the database as a writer would.
std::optional<plumbline::store::WindowRow> oldWindowRead(const std::string& path, size_t version,
                                                         const std::string& values) {
  writeOldDatabase(path, version,
                   "INSERT INTO runs (id, created_at, status) VALUES (1, 'x', 'complete');"
                   "INSERT INTO windows VALUES (" + values + ");");
  if (::testing::Test::HasFatalFailure()) return std::nullopt;
  const auto windows = plumbline::store::RunReader(path).windows(1);
  if (windows.size() != 1) return std::nullopt;
  return windows[0];
}

}  // namespace

TEST(StoreDatabase, Version10DatabaseMigratesItsWindowsWithoutTheNewPercentiles) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  // A window as version 10 left it (30 columns: no TTFA or from-planned percentiles).
  const auto w = oldWindowRead(path, 10,
                               "1, 0, 0, 1000000000, 20, 19, 18, 1, '{}', 900, 400, 3, 1.5, 2.5, "
                               "0.5, 0.75, 10, 20, 0.01, 0.02, 0.03, 0.4, 0.3, 1.25, 2, 0, 7, "
                               "12.5, 0, 19");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->ttftP50Ms, 1.5);
  EXPECT_EQ(w->cpuWaitMaxMs, 12.5);
  EXPECT_EQ(w->sentDuring, 19);
  EXPECT_EQ(w->ttfaP50Ms, std::nullopt);  // not stored before v11: its histogram has it
  EXPECT_EQ(w->ttfaP99Ms, std::nullopt);
  EXPECT_EQ(w->ttftFromPlannedP50Ms, std::nullopt);  // nor these
  EXPECT_EQ(w->e2eFromPlannedP99Ms, std::nullopt);
  EXPECT_EQ(w->tpotP50Ms, std::nullopt);  // nor the time per output token (v12)
  EXPECT_EQ(Database::open(path, Database::Mode::ReadOnly).userVersion(), Database::kSchemaVersion);
}

TEST(StoreDatabase, Version11DatabaseMigratesItsWindowsWithoutTheirTpot) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  // A window as version 11 left it (36 columns: no time per output token).
  const auto w = oldWindowRead(path, 11,
                               "1, 0, 0, 1000000000, 20, 19, 18, 1, '{}', 900, 400, 3, 1.5, 2.5, "
                               "0.5, 0.75, 10, 20, 0.01, 0.02, 0.03, 0.4, 0.3, 1.25, 2, 0, 7, "
                               "12.5, 0, 19, 30.5, 60.25, 1.75, 2.75, 10.5, 20.5");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->itlP50Ms, 0.5);
  EXPECT_EQ(w->ttfaP99Ms, 60.25);
  EXPECT_EQ(w->e2eFromPlannedP99Ms, 20.5);
  EXPECT_EQ(w->tpotP50Ms, std::nullopt);  // not stored before v12: its histogram has it
  EXPECT_EQ(w->tpotP99Ms, std::nullopt);
  EXPECT_EQ(Database::open(path, Database::Mode::ReadOnly).userVersion(), 12);
}

// QA: `runs show` and `export` of a database an older Plumbline wrote failed on "no such column"
// until some write happened to migrate it. A reader upgrades it as a writer would.
TEST(StoreDatabase, AReaderOfAnOlderDatabaseUpgradesItAndReadsIt) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  ASSERT_NO_FATAL_FAILURE(writeOldDatabase(
      path, 2,
      "INSERT INTO runs (id, created_at, status) VALUES (1, 'x', 'complete');"
      "INSERT INTO windows VALUES (1, 0, 0, 1000000000, 20, 19, 18, 1, '{}', 900, 400,"
      " 3, 1.5, 2.5, 0.5, 0.75, 10, 20, 0.01, 0.02, 0.03, 0.4, 0.3, 1.25, 2, 0, 7);"));
  plumbline::store::RunReader reader(path);
  const auto windows = reader.windows(1);
  ASSERT_EQ(windows.size(), 1u);
  EXPECT_EQ(windows[0].sent, 19);
  EXPECT_EQ(windows[0].cpuWaitMaxMs, -1);  // added in v4: unknown
  EXPECT_EQ(Database::open(path, Database::Mode::ReadOnly).userVersion(), Database::kSchemaVersion);
}

TEST(StoreDatabase, Version4DatabaseMigratesItsRequestsToNoRetryAfter) {
  TempDir dir;
  // One request row as version 4 left it (18 columns, no retry_after_ms).
  const auto rows = oldRequestsMigrated(
      dir.file("runs.db"), 4,
      {"(1, 7, 0, 0, 100, 120, -1, -1, -1, 5000, -1, -1, 16, 0, 0, 429, 5, 130)"});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].sessionId, 7u);
  EXPECT_EQ(rows[0].httpStatus, 429);
  EXPECT_EQ(rows[0].uploadEndNs, 130);
  EXPECT_EQ(rows[0].retryAfterMs, -1);  // not recorded before v5: none, not 0 s
}

TEST(StoreDatabase, Version8DatabaseMigratesItsRequestsToNoAnswerToken) {
  TempDir dir;
  // One request row as version 8 left it (19 columns, no first_answer_ns).
  const auto rows = oldRequestsMigrated(
      dir.file("runs.db"), 8,
      {"(1, 7, 0, 0, 100, 120, 300, 400, 900, 5000, 16, 8, 16, 8, 9, 200, 0, 130, NULL)"});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].firstTokenNs, 400);
  EXPECT_EQ(rows[0].firstAnswerNs, -1);  // not recorded before v9: unknown, not at t0
}

TEST(StoreDatabase, Version9DatabaseMigratesItsRequestsToNoHold) {
  TempDir dir;
  const std::string path = dir.file("runs.db");
  // Two request rows as version 9 left them (20 columns, no held_ns).
  const auto rows = oldRequestsMigrated(
      path, 9,
      {"(1, 7, 0, 0, 100, 120, 300, 400, 900, 5000, 16, 8, 16, 8, 9, 200, 0, 130, NULL, 450)",
       "(1, 8, 1, 0, 200, 220, -1, -1, -1, 6000, -1, -1, 16, 0, 0, 503, 4, 230, 1000, NULL)"});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].sessionId, 7u);
  EXPECT_EQ(rows[0].firstAnswerNs, 450);
  EXPECT_EQ(rows[1].sessionId, 8u);
  EXPECT_EQ(rows[1].retryAfterMs, 1000);
  for (const auto& r : rows) EXPECT_EQ(r.heldNs, 0);  // not recorded before v10: read as none
  EXPECT_EQ(RunReader(path).heldRequestCount(1, 1), 0);
  Database db = Database::open(path, Database::Mode::ReadOnly);
  Statement s = db.prepare("SELECT count(*) FROM requests WHERE held_ns IS NULL");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.columnInt(0), 2);  // unknown, told apart from a row stored with no hold (0)
}

// QA: a non-streaming run's TTFT was drawn as a line at 0 ms: its windows held 0 for "no
// sample". A window's histogram of a latency is stored exactly when it had samples of it.
TEST(StoreDatabase, Version6DatabaseMigratesLatenciesWithoutSamplesToNone) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  ASSERT_NO_FATAL_FAILURE(writeOldDatabase(
      path, 6,
      "INSERT INTO runs (id, created_at, status) VALUES (1, 'x', 'complete');"
      "INSERT INTO windows VALUES (1, 0, 0, 1000000000, 20, 19, 18, 1, '{}', 900, 400,"
      " 3, 0, 0, 0, 0, 10, 20, 0.01, 0.02, 0.03, 0.4, 0.3, 1.25, 2, 0, 7, NULL);"
      "INSERT INTO histograms VALUES (1, 'e2e', 0, x'00'), (1, 'send_lag', 0, x'00'),"
      " (1, 'ttft', -1, x'00');"));
  plumbline::store::RunReader reader(path);
  const auto windows = reader.windows(1);
  ASSERT_EQ(windows.size(), 1u);
  EXPECT_EQ(windows[0].ttftP50Ms, std::nullopt);  // no sample: none, not 0 ms
  EXPECT_EQ(windows[0].ttftP99Ms, std::nullopt);
  EXPECT_EQ(windows[0].itlP99Ms, std::nullopt);
  EXPECT_EQ(windows[0].e2eP50Ms, 10);
  EXPECT_EQ(windows[0].e2eP99Ms, 20);
  EXPECT_EQ(windows[0].sendLagMaxMs, 0.03);
}

TEST(StoreDatabase, StatusIsConstrained) {
  TempDir dir;
  Database db = Database::open(dir.file("runs.db"), Database::Mode::ReadWrite);
  EXPECT_THROW(db.exec("INSERT INTO runs (created_at, status) VALUES ('x', 'bogus')"), StoreError);
}

TEST(StoreDatabase, GarbageFileIsNotAPlumblineDatabase) {
  TempDir dir;
  std::string path = dir.file("notes.db");
  {
    std::ofstream f(path);
    for (int i = 0; i < 200; ++i) f << "this is not sqlite at all, line " << i << '\n';
  }
  for (auto mode : {Database::Mode::ReadOnly, Database::Mode::ReadWrite}) {
    try {
      Database::open(path, mode);
      FAIL() << "opened a garbage file";
    } catch (const StoreError& e) {
      EXPECT_EQ(e.kind(), StoreErrorKind::NotADatabase);
      EXPECT_EQ(e.path(), path);
      std::string what = e.what();
      EXPECT_NE(what.find(path), std::string::npos) << what;
      EXPECT_NE(what.find("is not a Plumbline database: "), std::string::npos) << what;
    }
  }
}

TEST(StoreDatabase, MissingFileForReaderIsNotFound) {
  TempDir dir;
  std::string path = dir.file("none.db");
  try {
    RunReader reader(path);
    FAIL();
  } catch (const StoreError& e) {
    EXPECT_EQ(e.kind(), StoreErrorKind::NotFound);
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos);
  }
  EXPECT_FALSE(std::filesystem::exists(path));  // a reader never creates it
}

TEST(StoreDatabase, NewerSchemaIsRejected) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  {
    Database db = Database::open(path, Database::Mode::ReadWrite);
    db.exec("PRAGMA user_version=" + std::to_string(Database::kSchemaVersion + 1));
  }
  for (auto mode : {Database::Mode::ReadOnly, Database::Mode::ReadWrite}) {
    try {
      Database::open(path, mode);
      FAIL() << "opened a newer schema";
    } catch (const StoreError& e) {
      EXPECT_EQ(e.kind(), StoreErrorKind::TooNew);
      std::string what = e.what();
      EXPECT_NE(what.find(path), std::string::npos) << what;
      EXPECT_NE(what.find("schema version " + std::to_string(Database::kSchemaVersion + 1)),
                std::string::npos)
          << what;
    }
  }
}

TEST(StoreDatabase, DefaultPathFollowsXdg) {
  const char* oldXdg = std::getenv("XDG_DATA_HOME");
  const char* oldHome = std::getenv("HOME");
  std::string savedXdg = oldXdg ? oldXdg : "", savedHome = oldHome ? oldHome : "";
  setenv("XDG_DATA_HOME", "/data/x", 1);
  EXPECT_EQ(defaultDatabasePath(), "/data/x/plumbline/runs.db");
  unsetenv("XDG_DATA_HOME");
  setenv("HOME", "/home/u", 1);
  EXPECT_EQ(defaultDatabasePath(), "/home/u/.local/share/plumbline/runs.db");
  if (oldXdg) setenv("XDG_DATA_HOME", savedXdg.c_str(), 1);
  if (oldHome) setenv("HOME", savedHome.c_str(), 1);
  else unsetenv("HOME");
}

}  // namespace
}  // namespace plumbline::store

TEST(StoreDatabase, ADirectoryIsNamedAsOneNotAsAnIoError) {
  plumbline::store::testing::TempDir dir;
  std::filesystem::create_directory(dir.file("sub"));
  for (auto mode :
       {plumbline::store::Database::Mode::ReadWrite, plumbline::store::Database::Mode::ReadOnly}) {
    try {
      plumbline::store::Database::open(dir.file("sub"), mode);
      ADD_FAILURE() << "a directory opened as a database";
    } catch (const plumbline::store::StoreError& e) {
      EXPECT_EQ(std::string(e.what()),
                dir.file("sub") + ": opening: is a directory, not a database file");
      EXPECT_EQ(plumbline::store::exitCodeOf(e.kind()), 2);
    }
  }
}

// `plumbline run W --db runs.db` (a file in the current directory, no parent to create) was
// refused as "runs.db: creating directory : No such file or directory" (session 15 regression:
// the directory check's error code leaked into the create step).
TEST(StoreDatabase, ARelativePathWithoutADirectoryOpensInTheCurrentOne) {
  plumbline::store::testing::TempDir dir;
  const auto before = std::filesystem::current_path();
  std::filesystem::current_path(dir.file(""));
  EXPECT_NO_THROW(
      plumbline::store::Database::open("runs.db", plumbline::store::Database::Mode::ReadWrite));
  EXPECT_NO_THROW(
      plumbline::store::Database::open("runs.db", plumbline::store::Database::Mode::ReadOnly));
  EXPECT_NO_THROW(
      plumbline::store::Database::open("sub/runs.db", plumbline::store::Database::Mode::ReadWrite));
  std::filesystem::current_path(before);
  EXPECT_TRUE(std::filesystem::exists(dir.file("runs.db")));
  EXPECT_TRUE(std::filesystem::exists(dir.file("sub/runs.db")));
}

// QA: deleting the newest run handed its id to the next run (rowids are the largest + 1), so a
// note or a comparison naming "run 3" came to mean another run. Schema v6 keeps the highest id
// given; a database of v5 starts from its largest id.
TEST(StoreDatabase, ARunIdIsNeverGivenTwiceEvenAfterTheNewestRunIsDeleted) {
  plumbline::store::testing::TempDir dir;
  const std::string path = dir.file("runs.db");
  ASSERT_NO_FATAL_FAILURE(plumbline::store::writeOldDatabase(
      path, 5,
      "INSERT INTO runs (id, created_at, status) VALUES (1, 'x', 'complete'), "
      "(2, 'x', 'complete'), (3, 'x', 'complete');"
      "DELETE FROM runs WHERE id = 3;"));  // deleted under v5: that id is not known to be given
  auto newRun = [&] {
    plumbline::store::RunWriter writer(path, plumbline::store::testing::sampleRunInfo());
    return writer.runId();
  };
  EXPECT_EQ(newRun(), 3);  // migrated: above the largest id there was
  EXPECT_EQ(newRun(), 4);
  {
    auto db = plumbline::store::Database::open(path, plumbline::store::Database::Mode::ReadWrite);
    db.exec("DELETE FROM runs WHERE id = 4");
  }
  EXPECT_EQ(newRun(), 5);  // not 4 again
  {
    auto db = plumbline::store::Database::open(path, plumbline::store::Database::Mode::ReadWrite);
    db.exec("DELETE FROM runs");
  }
  EXPECT_EQ(newRun(), 6);
}
