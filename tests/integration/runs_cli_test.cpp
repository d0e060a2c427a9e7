// `plumbline runs ...` as a person types it: which database is read, and what the help says.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "tests/integration/child_process.h"
#include "tests/integration/cli_process.h"

using plumbline::test::runCli;
using plumbline::test::TempDir;

// QA: `runs --db zzz/typo.db list` printed "no runs yet", exit 0, where show said "no such file".
TEST(RunsCli, ListOfANamedDatabaseThatDoesNotExistIsExit2) {
  TempDir dir;
  const std::string typo = dir.file("zzz/typo.db");
  for (const std::string& args : {"runs --db " + typo + " list", "runs list --db " + typo}) {
    const auto r = runCli(args);
    EXPECT_EQ(r.exitCode, 2) << args << ": " << r.output;
    EXPECT_EQ(r.output, typo + ": opening: no such file\n") << args;
  }
  // The default database not there yet is only nothing recorded so far.
  const char* saved = std::getenv("XDG_DATA_HOME");
  const std::string savedValue = saved ? saved : "";
  setenv("XDG_DATA_HOME", dir.path().c_str(), 1);
  const auto r = runCli("runs list");
  if (saved)
    setenv("XDG_DATA_HOME", savedValue.c_str(), 1);
  else
    unsetenv("XDG_DATA_HOME");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_EQ(r.output, "no runs yet (" + dir.file("plumbline/runs.db") + ")\n");
}

// QA: the help said "all runs, newest first" over a list printed oldest first (the newest
// last, next to the prompt, which is the order kept).
TEST(RunsCli, ListHelpSaysTheOrderItPrints) {
  const auto r = runCli("runs list --help");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("oldest first"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("newest first"), std::string::npos) << r.output;
}
