// Resolution of `plumbline mock` options: preset < config file < flags.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "core/mock/mock_config.h"

namespace {

using plumbline::mock::MockConfig;
using plumbline::mock::MockConfigError;
using plumbline::mock::resolveMockSettings;

std::string writeConfig(const std::string& text) {
  const std::string path = ::testing::TempDir() + "mock_config_test.json";
  std::ofstream(path) << text;
  return path;
}

std::string errorOf(const MockConfig& config) {
  try {
    resolveMockSettings(config);
  } catch (const MockConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(MockConfig, DefaultsToTheDefaultPreset) {
  const auto s = resolveMockSettings(MockConfig{});
  EXPECT_EQ(s.host, "127.0.0.1");
  EXPECT_EQ(s.port, 0);
  EXPECT_EQ(s.ttftMs, 50.0);
  EXPECT_EQ(s.itlMs, 10.0);
  EXPECT_GE(s.threads, 1);
  EXPECT_EQ(s.naturalLengthMean, 128.0);
}

TEST(MockConfig, FlagsOverrideThePreset) {
  MockConfig c;
  c.listen = "127.0.0.1:8123";
  c.preset = "instant";
  c.itlMs = 3.0;
  c.threads = 3;
  const auto s = resolveMockSettings(c);
  EXPECT_EQ(s.port, 8123);
  EXPECT_EQ(s.ttftMs, 0.0);
  EXPECT_EQ(s.itlMs, 3.0);
  EXPECT_EQ(s.threads, 3);
}

TEST(MockConfig, ConfigFileSitsBetweenPresetAndFlags) {
  MockConfig c;
  c.configPath = writeConfig(R"({"preset":"instant","itl_ms":7,"threads":2,"natural_length_mean":32})");
  c.ttftMs = 11.0;
  const auto s = resolveMockSettings(c);
  EXPECT_EQ(s.ttftMs, 11.0);
  EXPECT_EQ(s.itlMs, 7.0);
  EXPECT_EQ(s.threads, 2);
  EXPECT_EQ(s.naturalLengthMean, 32.0);
  c.preset = "default";  // an explicit flag beats the file's preset
  c.configPath = writeConfig(R"({"preset":"instant"})");
  EXPECT_EQ(resolveMockSettings(c).itlMs, 10.0);
  std::remove(c.configPath->c_str());
}

TEST(MockConfig, ErrorsNameTheFlagOrJsonPath) {
  MockConfig c;
  c.listen = "127.0.0.1:99999";
  EXPECT_NE(errorOf(c).find("--listen"), std::string::npos);
  c = MockConfig{};
  c.threads = -1;
  EXPECT_NE(errorOf(c).find("--threads"), std::string::npos);
  c = MockConfig{};
  c.configPath = writeConfig(R"({"threads":1.5})");
  EXPECT_NE(errorOf(c).find("$.threads"), std::string::npos);
  c.configPath = writeConfig(R"({"preset":"warp"})");
  EXPECT_NE(errorOf(c).find("$.preset"), std::string::npos);
  c.configPath = writeConfig("{not json");
  EXPECT_NE(errorOf(c).find("--config"), std::string::npos);
  c.configPath = "/nonexistent/mock.json";
  EXPECT_NE(errorOf(c).find("--config"), std::string::npos);
}

}  // namespace
