#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <string>
#include <utility>

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

TEST(CliUsage, RunHelpSaysWhichLiveSocketsTheStudioFinds) {
  auto r = runCli("run --help");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("live-*.sock"), std::string::npos) << r.output;  // README "Live run"
}

TEST(CliUsage, RunRefusesEmptyFlagsBadTargetsAndOutOfBoundLoadsBeforeRunning) {
  const std::string w = std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/quickstart.json";
  const std::pair<std::string, std::string> cases[] = {
      {"--db ''", "--db: must not be empty"},
      {"--name ''", "--name: must not be empty"},
      {"--name \"$(printf 'run\\033[31mRED\\nline2')\"",
       "--name must not contain control characters (U+001B at character 4)"},
      {"--name \"$(printf 'bad\\377name')\"",
       "--name must be valid UTF-8 (byte 0xFF at byte 4 is not)"},
      {"--name \"$(printf '%0201d' 0)\"", "--name must be at most 200 characters (it has 201)"},
      {"--rate inf", "--rate: must be a finite number"},
      {"--rate 2e7 --duration 1", "at most 1000000 sessions/s"},
      {"--duration 2e7", "at most 10000000 s of schedule"},
      {"--target http://127.0.0.1:notaport", "--target: port 'notaport' is not a number"},
      {"--target 'http://u:pw@127.0.0.1:8000'",
       "--target: user:password@ in the URL is not supported"},
      {"--summary-json /nonexistent-plumbline-dir/s.json",
       "--summary-json /nonexistent-plumbline-dir/s.json: cannot write"},
  };
  // Each is refused before a database is opened or anything is sent; were one let through,
  // the run would be a second at 1/s against the embedded simulator, into a scratch database.
  const std::string db = "/tmp/plumbline-cli-usage-" + std::to_string(getpid()) + ".db";
  for (const auto& [flags, message] : cases) {
    const std::string bounded =
        flags.find("--rate") == std::string::npos && flags.find("--duration") == std::string::npos
            ? " --rate 1 --duration 1"
            : "";
    const std::string dbFlag = flags.rfind("--db", 0) == 0 ? "" : " --db " + db;
    auto r = runCli("run " + w + dbFlag + bounded + " " + flags);
    EXPECT_EQ(r.exitCode, 2) << flags << ": " << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << flags << ": " << r.output;
  }
  for (const char* suffix : {"", "-wal", "-shm"}) std::remove((db + suffix).c_str());
}

TEST(CliUsage, RunIdsThatAreNotRowidsAreUsageErrors) {
  // Checked before the database is opened: none is created.
  const std::string db = "/tmp/plumbline-cli-ids-" + std::to_string(getpid()) + ".db";
  const std::pair<std::string, std::string> cases[] = {
      {"show 99999999999999999999", "run ids go up to 2^63-1"},
      {"export 18446744073709551617 --format json", "run ids go up to 2^63-1"},
      {"show 0", "'0' is not a run id: a whole number >= 1"},
      {"delete -3", "'-3' is not a run id: a whole number >= 1"},
      {"rename 1x name", "'1x' is not a run id: a whole number >= 1"},
      {"compare 1 99999999999999999999", "run ids go up to 2^63-1"},
  };
  for (const auto& [args, message] : cases) {
    auto r = runCli("runs --db " + db + " " + args);
    EXPECT_EQ(r.exitCode, 2) << args << ": " << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << args << ": " << r.output;
  }
  EXPECT_NE(access(db.c_str(), F_OK), 0) << "a database was created";
  for (const char* suffix : {"", "-wal", "-shm"}) std::remove((db + suffix).c_str());
}

// For a reasoning model the goodput limit that matters is the first answer token's.
TEST(CliUsage, CompareTakesATtfaLimitBesideTheOtherSloFlags) {
  auto help = runCli("runs compare --help");
  EXPECT_EQ(help.exitCode, 0) << help.output;
  EXPECT_NE(help.output.find("--slo-ttfa-ms"), std::string::npos) << help.output;
  // Checked before the database is opened: none is created.
  const std::string db = "/tmp/plumbline-cli-slo-" + std::to_string(getpid()) + ".db";
  auto r = runCli("runs --db " + db + " compare 1 2 --slo-ttfa-ms 0");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("--slo-ttfa-ms must be a positive number of milliseconds"),
            std::string::npos)
      << r.output;
  EXPECT_NE(access(db.c_str(), F_OK), 0) << "a database was created";
  for (const char* suffix : {"", "-wal", "-shm"}) std::remove((db + suffix).c_str());
}

TEST(CliUsage, AnEmptyKeyVariableIsNamedAsEmptyNotAsUnset) {
  const std::string w = "/tmp/plumbline-cli-key-" + std::to_string(getpid()) + ".json";
  {
    FILE* f = std::fopen(w.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(R"({"plumbline": 1, "name": "key", "target": {"url": "http://127.0.0.1:9",
      "api": "chat", "model": "m", "api_key_env": "PLUMBLINE_TEST_EMPTY_KEY"},
      "load": {"arrival": "constant", "stages": [{"rate": 1, "duration_s": 1}]},
      "requests": {"input_tokens": {"dist": "fixed", "value": 8},
                   "output_tokens": {"dist": "fixed", "value": 8}}})",
               f);
    std::fclose(f);
  }
  const std::string db = "/tmp/plumbline-cli-key-" + std::to_string(getpid()) + ".db";
  const auto r = runCli("run " + w + " --db " + db);  // the variable unset
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("environment variable PLUMBLINE_TEST_EMPTY_KEY is not set"),
            std::string::npos)
      << r.output;
  const std::string withEmpty = "env PLUMBLINE_TEST_EMPTY_KEY= " + std::string(PLUMBLINE_BIN);
  FILE* pipe = popen((withEmpty + " run " + w + " --db " + db + " 2>&1").c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buf[4096];
  size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  const int status = pclose(pipe);
  EXPECT_EQ(WEXITSTATUS(status), 2) << out;
  EXPECT_NE(out.find("environment variable PLUMBLINE_TEST_EMPTY_KEY is empty"), std::string::npos)
      << out;
  std::remove(w.c_str());
  for (const char* suffix : {"", "-wal", "-shm"}) std::remove((db + suffix).c_str());
}
