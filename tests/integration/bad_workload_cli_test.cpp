// Every bad workload in the corpus: exit 2, the JSON path in the message, nothing written.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/integration/child_process.h"

using plumbline::test::ChildProcess;
using plumbline::test::TempDir;

namespace {
bool exists(const std::string& p) {
  struct stat st{};
  return stat(p.c_str(), &st) == 0;
}

struct Exit {
  int code;
  std::string output;
};

/// Runs plumbline with NAME=VALUE in its environment (and only its own).
Exit runWithEnv(const char* name, const char* value, const std::vector<std::string>& args, const std::string& out) {
  setenv(name, value, 1);
  ChildProcess p(args, out);
  unsetenv(name);
  const int code = p.wait(10000);
  return {code, p.output()};
}
}  // namespace

TEST(BadWorkloadCli, EveryCorpusFileExitsTwoNamingThePathAndWritesNothing) {
  const std::string dir = std::string(PLUMBLINE_TEST_DATA) + "/bad_workloads/";
  std::ifstream in(dir + "expected.json");
  const auto expected = nlohmann::json::parse(in);
  ASSERT_GE(expected.size(), 20u);
  for (const auto& [file, path] : expected.items()) {
    TempDir tmp;
    const std::string db = tmp.file("runs.db");
    ChildProcess run({PLUMBLINE_BIN, "run", dir + file, "--db", db}, tmp.file("run.txt"));
    EXPECT_EQ(run.wait(10000), 2) << file << ": " << run.output();
    const std::string out = run.output();
    EXPECT_NE(out.find(path.get<std::string>()), std::string::npos) << file << ": " << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << "one line: " << out;
    EXPECT_FALSE(exists(db)) << file << " created a database";
    ChildProcess plan({PLUMBLINE_BIN, "plan", dir + file}, tmp.file("plan.txt"));
    EXPECT_EQ(plan.wait(10000), 2) << file << ": " << plan.output();
    EXPECT_NE(plan.output().find(path.get<std::string>()), std::string::npos) << file << ": " << plan.output();
  }
}

TEST(BadWorkloadCli, MissingFileAndBadFlagsExitTwo) {
  TempDir tmp;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{PLUMBLINE_BIN, "run", "/nonexistent/w.json", "--db", tmp.file("x.db")},
        {PLUMBLINE_BIN, "plan", "/nonexistent/w.json"},
        {PLUMBLINE_BIN, "run", std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/quickstart.json", "--workers", "0"},
        {PLUMBLINE_BIN, "run", std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/quickstart.json", "--rate", "-5",
         "--db", tmp.file("x.db")},
        {PLUMBLINE_BIN, "run"},
        {PLUMBLINE_BIN, "frobnicate"}}) {
    ChildProcess p(args, tmp.file("out.txt"));
    EXPECT_EQ(p.wait(10000), 2) << args[1] << " " << p.output();
  }
  EXPECT_FALSE(exists(tmp.file("x.db")));
}

// A mistyped PLUMBLINE_HTTP_CLIENT (a diagnostics switch) is an error naming the variable and
// its value, not silently the default client; `native` for a target only libcurl can serve
// says why. Nothing is written either way.
TEST(BadWorkloadCli, UnknownOrImpossibleHttpClientChoiceExitsTwoNamingIt) {
  TempDir tmp;
  const std::string workload = std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/quickstart.json";
  struct Case {
    const char* value;
    const char* target;
    const char* message;
  };
  for (const Case& c : {Case{"nativ", "http://127.0.0.1:9", "PLUMBLINE_HTTP_CLIENT=nativ: unknown HTTP client"},
                        Case{"native", "https://127.0.0.1:9", "PLUMBLINE_HTTP_CLIENT=native: the native client"}}) {
    const Exit e = runWithEnv("PLUMBLINE_HTTP_CLIENT", c.value,
                              {PLUMBLINE_BIN, "run", workload, "--target", c.target, "--db", tmp.file("x.db"),
                               "--duration", "1"},
                              tmp.file("out.txt"));
    EXPECT_EQ(e.code, 2) << c.value << ": " << e.output;
    EXPECT_NE(e.output.find(c.message), std::string::npos) << e.output;
  }
  EXPECT_FALSE(exists(tmp.file("x.db")));
}

// The benchmark-only switches the workers and the embedded mock read are checked before the
// run starts: a mistyped one exits 2 naming variable and value, and writes nothing (it was a
// worker that died on start before).
TEST(BadWorkloadCli, AMistypedDiagnosticSwitchExitsTwoNamingIt) {
  TempDir tmp;
  const std::string workload = std::string(PLUMBLINE_SOURCE_DIR) + "/workloads/quickstart.json";
  struct Case {
    const char* name;
    const char* value;
    const char* message;
  };
  for (const Case& c : {Case{"PLUMBLINE_ARRIVAL_STAMPS", "yes", "PLUMBLINE_ARRIVAL_STAMPS: 'yes' is neither 0 nor 1"},
                        Case{"PLUMBLINE_SPIN_MARGIN_US", "50us", "PLUMBLINE_SPIN_MARGIN_US: '50us' is not a whole"},
                        Case{"PLUMBLINE_MOCK_SPIN_MARGIN_US", "-3", "PLUMBLINE_MOCK_SPIN_MARGIN_US: '-3' is not a whole"},
                        Case{"PLUMBLINE_MOCK_ARRIVAL_STAMPS", "on", "PLUMBLINE_MOCK_ARRIVAL_STAMPS: 'on' is neither 0 nor 1"}}) {
    const Exit e = runWithEnv(c.name, c.value, {PLUMBLINE_BIN, "run", workload, "--db", tmp.file("x.db"), "--duration", "1"},
                              tmp.file("out.txt"));
    EXPECT_EQ(e.code, 2) << c.name << ": " << e.output;
    EXPECT_NE(e.output.find(c.message), std::string::npos) << e.output;
    EXPECT_FALSE(exists(tmp.file("x.db"))) << c.name;
  }
}
