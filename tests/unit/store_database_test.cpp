#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "core/store/database.h"
#include "core/store/default_paths.h"
#include "core/store/run_reader.h"
#include "core/store/store_error.h"
#include "store_test_support.h"

namespace plumbline::store {
namespace {

using testing::TempDir;

TEST(StoreDatabase, WriterCreatesDirectoryAndSchemaV1) {
  TempDir dir;
  std::string path = dir.file("a/b/runs.db");
  Database db = Database::open(path, Database::Mode::ReadWrite);
  EXPECT_EQ(db.userVersion(), 1);
  EXPECT_EQ(Database::kSchemaVersion, 1);
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
  EXPECT_EQ(tables.columnText(0), "histograms,requests,runs,tags,windows");
}

TEST(StoreDatabase, ReopeningDoesNotMigrateAgain) {
  TempDir dir;
  std::string path = dir.file("runs.db");
  {
    Database db = Database::open(path, Database::Mode::ReadWrite);
    db.exec("INSERT INTO runs (created_at, status) VALUES ('x', 'complete')");
  }
  Database again = Database::open(path, Database::Mode::ReadWrite);
  EXPECT_EQ(again.userVersion(), 1);
  Statement count = again.prepare("SELECT count(*) FROM runs");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.columnInt(0), 1);
  Database reader = Database::open(path, Database::Mode::ReadOnly);
  EXPECT_EQ(reader.userVersion(), 1);
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
    db.exec("PRAGMA user_version=2");
  }
  for (auto mode : {Database::Mode::ReadOnly, Database::Mode::ReadWrite}) {
    try {
      Database::open(path, mode);
      FAIL() << "opened a newer schema";
    } catch (const StoreError& e) {
      EXPECT_EQ(e.kind(), StoreErrorKind::TooNew);
      std::string what = e.what();
      EXPECT_NE(what.find(path), std::string::npos) << what;
      EXPECT_NE(what.find("schema version 2"), std::string::npos) << what;
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
