#include <gtest/gtest.h>

#include "tests/integration/cli_process.h"

using plumbline::test::runCli;

TEST(CliUsage, NoSubcommandIsAUsageErrorWithExitTwo) {
  auto r = runCli("");
  EXPECT_EQ(r.exitCode, 2) << r.output;
}

TEST(CliUsage, HelpListsEverySubcommandAndExitsZero) {
  auto r = runCli("--help");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  for (const char* sub : {"run", "plan", "runs", "mock"}) EXPECT_NE(r.output.find(sub), std::string::npos) << sub;
  EXPECT_EQ(r.output.find("internal: a worker"), std::string::npos) << "worker is hidden: " << r.output;
}
