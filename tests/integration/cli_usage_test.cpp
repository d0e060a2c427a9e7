#include <gtest/gtest.h>

#include "tests/integration/cli_process.h"

using plumbline::test::runCli;

TEST(CliUsage, NoSubcommandIsAUsageError) {
  auto r = runCli("");
  EXPECT_NE(r.exitCode, 0) << r.output;
}
