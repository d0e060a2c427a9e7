// QA: what an older database may hold in a run's name or notes (control characters,
// ill-formed UTF-8, stored before they were refused on the way in) reached the terminal raw
// from `runs list` and `show` (a newline forged a row, ESC sequences ran), and failed
// `runs export --format json` and `runs compare --format json` half-written ("invalid UTF-8
// byte", a 7-byte file). Readers show such text escaped, and JSON replaces ill-formed UTF-8.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/compare/compare_command.h"
#include "core/store/database.h"
#include "core/store/runs_command.h"
#include "store_test_support.h"
#include "tests/fixtures/run_fixture.h"

namespace plumbline {
namespace {

const std::string kHostileName = "run\x1b[31mRED\nline2 bad\xff";

class StoredTextShownTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fixtures::writeFixtureRun(path, fixtures::FixtureRun{});
    fixtures::writeFixtureRun(path, fixtures::FixtureRun{});
    auto db = store::Database::open(path, store::Database::Mode::ReadWrite);
    auto s = db.prepare("UPDATE runs SET name = ?, notes = ?, model = ? WHERE id = 1");
    s.bindText(1, kHostileName).bindText(2, "first\nsecond\x1b[2J\a").bindText(3, "m\x1b]0;x\a");
    s.run();
    db.exec("INSERT INTO tags (run_id, tag) VALUES (1, 'bad\xff')");
  }
  static bool raw(const std::string& text) {
    return text.find('\x1b') != std::string::npos || text.find('\a') != std::string::npos ||
           text.find('\xff') != std::string::npos;
  }
  store::testing::TempDir dir;
  std::string path = dir.file("runs.db");
};

TEST_F(StoredTextShownTest, ListAndShowEscapeControlsAndIllFormedBytes) {
  std::ostringstream out, err;
  ASSERT_EQ(store::runsList(path, true, out, err), 0) << err.str();
  const std::string list = out.str();
  EXPECT_FALSE(raw(list)) << list;
  EXPECT_EQ(std::count(list.begin(), list.end(), '\n'), 3) << list;  // no forged row
  EXPECT_NE(list.find("run\\x1B[31mRED\\x0Aline2 bad\\xFF"), std::string::npos) << list;
  std::ostringstream shown;
  ASSERT_EQ(store::runsShow(path, 1, shown, err), 0) << err.str();
  EXPECT_FALSE(raw(shown.str())) << shown.str();
  EXPECT_NE(shown.str().find("notes: first\n       second\\x1B[2J\\x07\n"), std::string::npos)
      << shown.str();
  EXPECT_NE(shown.str().find("tags: bad\\xFF"), std::string::npos) << shown.str();
}

TEST_F(StoredTextShownTest, JsonOutputsReplaceIllFormedUtf8InsteadOfFailing) {
  std::ostringstream out, err;
  ASSERT_EQ(store::runsExport(path, 1, "json", out, err), 0) << err.str();
  const auto j = nlohmann::json::parse(out.str());  // whole and valid
  EXPECT_EQ(j["run"]["name"], "run\x1b[31mRED\nline2 bad\xEF\xBF\xBD");
  EXPECT_EQ(j["run"]["tags"][0], "bad\xEF\xBF\xBD");
  std::ostringstream compared;
  ASSERT_EQ(compare::runsCompare(path, {1, 2}, compare::Slo{}, "json", compared, err), 0)
      << err.str();
  EXPECT_EQ(nlohmann::json::parse(compared.str())["runs"][0]["name"],
            "run\x1b[31mRED\nline2 bad\xEF\xBF\xBD");
  std::ostringstream text;
  ASSERT_EQ(compare::runsCompare(path, {1, 2}, compare::Slo{}, "text", text, err), 0) << err.str();
  EXPECT_FALSE(raw(text.str())) << text.str();
  EXPECT_NE(text.str().find("#1 run\\x1B[31mRED\\x0Aline2 bad\\xFF"), std::string::npos)
      << text.str();
}

}  // namespace
}  // namespace plumbline
