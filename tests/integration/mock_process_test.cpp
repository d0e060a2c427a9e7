// `plumbline mock` as a process: signals, usage errors, and EmbeddedTarget's errors.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "core/mock/embedded_target.h"
#include "tests/integration/cli_process.h"
#include "tests/integration/mock_http.h"

namespace {

using plumbline::mock::EmbeddedTarget;
using plumbline::test::runCli;

TEST(MockProcess, SigtermExitsZero) {
  EmbeddedTarget mock({PLUMBLINE_BIN, "instant", std::nullopt, std::nullopt, 2});
  EXPECT_EQ(mock.baseUrl().rfind("http://127.0.0.1:", 0), 0u);
  EXPECT_GT(mock.pid(), 0);
  EXPECT_EQ(plumbline::test::httpGet(mock.baseUrl() + "/v1/models").status, 200);
  const int status = mock.stop();
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(mock.stop(), -1);
}

TEST(MockProcess, BadFlagsExitTwoNamingTheFlag) {
  auto unknown = runCli("mock --bogus");
  EXPECT_EQ(unknown.exitCode, 2) << unknown.output;
  auto negative = runCli("mock --ttft-ms -5");
  EXPECT_EQ(negative.exitCode, 2) << negative.output;
  EXPECT_NE(negative.output.find("--ttft-ms"), std::string::npos) << negative.output;
  auto preset = runCli("mock --preset warp");
  EXPECT_EQ(preset.exitCode, 2);
  EXPECT_NE(preset.output.find("--preset"), std::string::npos) << preset.output;
  auto listen = runCli("mock --listen localhost");
  EXPECT_EQ(listen.exitCode, 2);
  EXPECT_NE(listen.output.find("--listen"), std::string::npos) << listen.output;
}

TEST(MockProcess, BadConfigFileExitsTwoNamingThePath) {
  const std::string path = ::testing::TempDir() + "mock_bad_config.json";
  std::ofstream(path) << R"({"preset":"instant","ttft_ms":5,"tokens_per_second":9})";
  auto r = runCli("mock --config " + path);
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("$.tokens_per_second"), std::string::npos) << r.output;
  std::ofstream(path) << R"({"itl_ms":"fast"})";
  r = runCli("mock --config " + path);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.output.find("$.itl_ms"), std::string::npos) << r.output;
  std::remove(path.c_str());
}

TEST(MockProcess, EmbeddedTargetReportsAChildThatDoesNotServe) {
  EXPECT_THROW(EmbeddedTarget({"/bin/false", "", std::nullopt, std::nullopt, 0}), std::runtime_error);
  try {
    EmbeddedTarget target({"/bin/echo", "", std::nullopt, std::nullopt, 0});
    FAIL() << "echo does not serve";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("instead of its address"), std::string::npos) << e.what();
  }
  EXPECT_THROW(EmbeddedTarget({"/nonexistent/plumbline", "", std::nullopt, std::nullopt, 0}), std::runtime_error);
}

}  // namespace
