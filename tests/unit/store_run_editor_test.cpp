#include <gtest/gtest.h>

#include <functional>
#include <sstream>

#include "core/store/run_editor.h"
#include "core/store/store_error.h"
#include "core/store/run_reader.h"
#include "core/store/run_writer.h"
#include "core/store/runs_edit_command.h"
#include "store_test_support.h"
#include "tests/fixtures/run_fixture.h"

namespace plumbline::store {
namespace {

using testing::TempDir;

StoreErrorKind kindOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const StoreError& e) {
    return e.kind();
  }
  return StoreErrorKind::Failure;
}

class RunEditorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    first = fixtures::writeFixtureRun(path, fixtures::FixtureRun{});
    second = fixtures::writeFixtureRun(path, fixtures::FixtureRun{});
  }
  int64_t count(const std::string& table, int64_t id) {
    Database db = Database::open(path, Database::Mode::ReadOnly);
    Statement s = db.prepare("SELECT count(*) FROM " + table + " WHERE " +
                             (table == "runs" ? "id" : "run_id") + " = ?");
    s.bindInt(1, id);
    s.step();
    return s.columnInt(0);
  }
  TempDir dir;
  std::string path = dir.file("runs.db");
  int64_t first = 0, second = 0;
};

TEST_F(RunEditorTest, RenameTrimsAndRejectsEmptyOrUnknown) {
  RunEditor editor(path);
  editor.rename(first, "  temperature 0 baseline \n");
  EXPECT_EQ(RunReader(path).getRun(first)->name, "temperature 0 baseline");
  EXPECT_EQ(kindOf([&] { editor.rename(first, "   "); }), StoreErrorKind::InvalidInput);
  EXPECT_EQ(kindOf([&] { editor.rename(first, std::string(201, 'x')); }),
            StoreErrorKind::InvalidInput);
  EXPECT_EQ(kindOf([&] { editor.rename(99, "x"); }), StoreErrorKind::NotFound);
}

TEST_F(RunEditorTest, NotesSetAndClear) {
  RunEditor editor(path);
  editor.setNotes(first, "GPU was throttling\nrerun tomorrow");
  EXPECT_EQ(RunReader(path).getRun(first)->notes.value_or(""), "GPU was throttling\nrerun tomorrow");
  editor.setNotes(first, "");
  EXPECT_FALSE(RunReader(path).getRun(first)->notes);
}

TEST_F(RunEditorTest, TagsAddRemoveAndValidate) {
  RunEditor editor(path);
  editor.addTag(first, " nightly ");
  editor.addTag(first, "nightly");  // again: no-op
  editor.addTag(first, "h100");
  editor.addTag(second, "h100");
  RunReader reader(path);
  EXPECT_EQ(reader.tags(first), (std::vector<std::string>{"h100", "nightly"}));
  auto all = reader.tagsByRun();
  EXPECT_EQ(all.size(), 2u);
  EXPECT_EQ(all[second], std::vector<std::string>{"h100"});
  editor.removeTag(first, "nightly");
  EXPECT_EQ(RunReader(path).tags(first), std::vector<std::string>{"h100"});
  EXPECT_EQ(kindOf([&] { editor.removeTag(first, "nightly"); }), StoreErrorKind::NotFound);
  EXPECT_EQ(kindOf([&] { editor.addTag(first, "a,b"); }), StoreErrorKind::InvalidInput);
  EXPECT_EQ(kindOf([&] { editor.addTag(first, ""); }), StoreErrorKind::InvalidInput);
  EXPECT_EQ(kindOf([&] { editor.addTag(first, "tab\there"); }), StoreErrorKind::InvalidInput);
  EXPECT_EQ(kindOf([&] { editor.addTag(99, "x"); }), StoreErrorKind::NotFound);
}

TEST_F(RunEditorTest, DeleteRemovesTheRunWithEverythingItOwns) {
  RunEditor editor(path);
  editor.addTag(first, "doomed");
  ASSERT_GT(count("requests", first), 0);
  ASSERT_GT(count("windows", first), 0);
  ASSERT_GT(count("histograms", first), 0);
  editor.deleteRun(first);
  for (const char* table : {"runs", "requests", "windows", "histograms", "tags"})
    EXPECT_EQ(count(table, first), 0) << table;
  EXPECT_EQ(count("runs", second), 1);
  EXPECT_GT(count("requests", second), 0);
  EXPECT_EQ(kindOf([&] { editor.deleteRun(first); }), StoreErrorKind::NotFound);
}

TEST_F(RunEditorTest, DeleteRefusesARunStillRecording) {
  RunWriter writer(path, testing::sampleRunInfo());  // 'running', and this process is alive
  RunEditor editor(path);
  try {
    editor.deleteRun(writer.runId());
    FAIL() << "deleted a running run";
  } catch (const StoreError& e) {
    EXPECT_EQ(e.kind(), StoreErrorKind::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("still being recorded"), std::string::npos) << e.what();
  }
}

TEST_F(RunEditorTest, CommandsReportAndExitCodes) {
  std::ostringstream out, err;
  EXPECT_EQ(runsRename(path, first, "renamed", out, err), 0);
  EXPECT_EQ(runsTag(path, first, {"a", "b"}, false, out, err), 0);
  EXPECT_EQ(RunReader(path).tags(first), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(runsTag(path, first, {"a"}, true, out, err), 0);
  EXPECT_EQ(runsNotes(path, first, "n", out, err), 0);
  EXPECT_EQ(runsDelete(path, second, out, err), 0);
  EXPECT_NE(out.str().find("run 2 deleted"), std::string::npos) << out.str();
  std::ostringstream err2;
  EXPECT_EQ(runsDelete(path, second, out, err2), 2);
  EXPECT_NE(err2.str().find("no run with id 2"), std::string::npos) << err2.str();
  std::ostringstream err3;
  EXPECT_EQ(runsRename(dir.file("none.db"), 1, "x", out, err3), 2);
  EXPECT_NE(err3.str().find("none.db"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir.file("none.db")));  // editing never creates one
}

// QA: rename counted bytes (150 × "é" was "longer than 200 characters") and let ill-formed
// UTF-8 in, which then broke JSON export; notes took ESC, BEL and CR.
TEST_F(RunEditorTest, NamesAndNotesAreCheckedAsText) {
  RunEditor editor(path);
  std::string accents;
  for (int i = 0; i < 150; ++i) accents += "\xC3\xA9";
  editor.rename(first, accents);
  EXPECT_EQ(RunReader(path).getRun(first)->name, accents);
  for (const std::string& bad : {std::string("bad\xff"), std::string("run\x1b[31mRED"),
                                 std::string("a\nb"), std::string(201, 'x')})
    EXPECT_EQ(kindOf([&] { editor.rename(first, bad); }), StoreErrorKind::InvalidInput) << bad;
  EXPECT_EQ(RunReader(path).getRun(first)->name, accents);
  editor.setNotes(first, "line one\n\tindented");
  for (const std::string& bad : {std::string("esc\x1b[2J"), std::string("bell\a"),
                                 std::string("cr\r\n"), std::string("bad\xff")})
    EXPECT_EQ(kindOf([&] { editor.setNotes(first, bad); }), StoreErrorKind::InvalidInput) << bad;
  EXPECT_EQ(RunReader(path).getRun(first)->notes.value_or(""), "line one\n\tindented");
  std::ostringstream out, err;
  EXPECT_EQ(runsNotes(path, first, "x\x1b", out, err), 2);
  EXPECT_NE(err.str().find("the notes must not contain control characters (U+001B at character 2)"),
            std::string::npos)
      << err.str();
  EXPECT_EQ(kindOf([&] { editor.addTag(first, "bad\xff"); }), StoreErrorKind::InvalidInput);
}

// QA: `runs tag 3 OK1 bad,x OK2` added OK1, then failed on "bad,x" with exit 2.
TEST_F(RunEditorTest, TaggingIsAllOrNothing) {
  std::ostringstream out, err;
  EXPECT_EQ(runsTag(path, first, {"OK1", "bad,x", "OK2"}, false, out, err), 2);
  EXPECT_NE(err.str().find("a tag cannot contain a comma"), std::string::npos) << err.str();
  EXPECT_EQ(out.str(), "");
  EXPECT_TRUE(RunReader(path).tags(first).empty());
  ASSERT_EQ(runsTag(path, first, {"a", "b"}, false, out, err), 0) << err.str();
  std::ostringstream err2;
  EXPECT_EQ(runsTag(path, first, {"a", "missing"}, true, out, err2),
            2);  // no such tag: none removed
  EXPECT_NE(err2.str().find("the run has no such tag"), std::string::npos) << err2.str();
  EXPECT_EQ(runsTag(path, first, {"a", "bad\x1b"}, true, out, err2), 2);
  EXPECT_EQ(RunReader(path).tags(first), (std::vector<std::string>{"a", "b"}));
}

}  // namespace
}  // namespace plumbline::store
