// QA: a --db whose directory could not be made, or took no new files, failed with exit 1 in
// SQLite's words ("unable to open database file"), where a directory given as --db was exit 2.
// A database file that cannot be used as given is input a person can correct: exit 2, in words.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "core/store/database.h"
#include "core/store/database_path.h"
#include "core/store/store_error.h"
#include "store_test_support.h"

namespace plumbline::store {
namespace {

TEST(StoreDatabasePath, ADirectoryThatCannotBeMadeIsInvalidInputInWords) {
  testing::TempDir dir;
  std::ofstream(dir.file("plain")) << "a file\n";
  const std::string path = dir.file("plain/sub/runs.db");
  const std::string reason = "the directory " + dir.file("plain/sub") + " of the database file " +
                             path + " cannot be made (Not a directory)";
  EXPECT_EQ(unwritableDatabaseReason(path), reason);
  try {
    Database::open(path, Database::Mode::ReadWrite);
    FAIL() << "opened under a file";
  } catch (const StoreError& e) {
    EXPECT_EQ(std::string(e.what()), reason);
    EXPECT_EQ(exitCodeOf(e.kind()), 2);
  }
}

TEST(StoreDatabasePath, AUsablePathHasNoReasonAndItsDirectoryIsMade) {
  testing::TempDir dir;
  EXPECT_EQ(unwritableDatabaseReason(dir.file("a/b/runs.db")), "");
  EXPECT_TRUE(std::filesystem::is_directory(dir.file("a/b")));
  Database::open(dir.file("a/b/runs.db"), Database::Mode::ReadWrite);
  EXPECT_EQ(unwritableDatabaseReason(dir.file("a/b/runs.db")), "");
}

}  // namespace
}  // namespace plumbline::store
