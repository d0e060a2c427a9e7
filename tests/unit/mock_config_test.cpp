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

std::string configErrorOf(const MockConfig& config) {
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
  EXPECT_NE(configErrorOf(c).find("--listen"), std::string::npos);
  c = MockConfig{};
  c.threads = -1;
  EXPECT_NE(configErrorOf(c).find("--threads"), std::string::npos);
  c = MockConfig{};
  c.configPath = writeConfig(R"({"threads":1.5})");
  EXPECT_NE(configErrorOf(c).find("$.threads"), std::string::npos);
  EXPECT_EQ(configErrorOf(c).rfind("--config " + *c.configPath + ": $.threads", 0), 0u)
      << configErrorOf(c);
  // As with the flags, a simulated engine's file cannot fix its TTFT (it was silently ignored).
  c.configPath = writeConfig(R"({"preset":"gpu-8b","ttft_ms":3000})");
  EXPECT_EQ(configErrorOf(c), "--config " + *c.configPath +
                                  ": $.ttft_ms: fixed timing does not apply to a simulated engine "
                                  "(use preset instant or default)");
  c.configPath = writeConfig(R"({"preset":"warp"})");
  EXPECT_NE(configErrorOf(c).find("$.preset"), std::string::npos);
  c.configPath = writeConfig("{\n  not json");
  EXPECT_EQ(configErrorOf(c).rfind("--config " + *c.configPath +
                                       ": not valid JSON: line 2, column 4: syntax error while "
                                       "parsing object key - invalid literal",
                                   0),
            0u)
      << configErrorOf(c);
  // nlohmann keeps the last of two equal keys; another reader the first: refused.
  c.configPath = writeConfig(R"({"faults": {"http_429": 0.1, "http_429": 0.5}})");
  EXPECT_EQ(configErrorOf(c), "--config " + *c.configPath +
                                  ": $.faults.http_429: 'http_429' is named twice in one object "
                                  "(JSON readers differ in which they keep: name it once)");
  // A misspelt fault names the ones there are (QA: the message left them to the source).
  c.configPath = writeConfig(R"({"faults": {"stall_before_first_byte": 0.1}})");
  EXPECT_EQ(configErrorOf(c), "--config " + *c.configPath +
                                  ": $.faults.stall_before_first_byte: unknown fault class (known: "
                                  "http_500, http_503, http_429, refuse, stall_first_byte, "
                                  "stall_mid_stream, stream_cut, malformed_chunk, slow_trickle)");
  c.configPath = "/nonexistent/mock.json";
  EXPECT_NE(configErrorOf(c).find("--config"), std::string::npos);
  for (int bad : {0, 100, -1}) {
    c = MockConfig{};
    c.realtimePriority = bad;
    EXPECT_NE(configErrorOf(c).find("--realtime"), std::string::npos) << bad;
  }
  c = MockConfig{};
  c.realtimePriority = 40;
  EXPECT_EQ(resolveMockSettings(c).realtimePriority, 40);
  EXPECT_EQ(resolveMockSettings(MockConfig{}).realtimePriority, 0);
}

TEST(MockConfig, ThinkingTokensComeFromTheFileOrTheFlagAndAreACount) {
  MockConfig c;
  EXPECT_EQ(resolveMockSettings(c).thinkingTokens, 0);  // a model that answers at once
  c.configPath = writeConfig(R"({"thinking_tokens":10})");
  EXPECT_EQ(resolveMockSettings(c).thinkingTokens, 10);
  c.thinkingTokens = 3;  // the flag beats the file
  EXPECT_EQ(resolveMockSettings(c).thinkingTokens, 3);
  for (const char* bad : {R"({"thinking_tokens":-1})", R"({"thinking_tokens":2.5})",
                          R"({"thinking_tokens":"10"})", R"({"thinking_tokens":1e12})"}) {
    c = MockConfig{};
    c.configPath = writeConfig(bad);
    EXPECT_EQ(configErrorOf(c).rfind("--config " + *c.configPath + ": $.thinking_tokens: ", 0), 0u)
        << configErrorOf(c);
  }
  c = MockConfig{};
  c.thinkingTokens = -5;
  EXPECT_EQ(configErrorOf(c).rfind("--thinking-tokens: ", 0), 0u) << configErrorOf(c);
  std::remove(c.configPath ? c.configPath->c_str() : "");
}

TEST(MockConfig, TokensPerEventComeFromTheFileOrTheFlagAndFitFixedTimingOnly) {
  MockConfig c;
  EXPECT_EQ(resolveMockSettings(c).tokensPerEvent, 1);  // every token its own event
  c.configPath = writeConfig(R"({"tokens_per_event":4})");
  EXPECT_EQ(resolveMockSettings(c).tokensPerEvent, 4);
  c.tokensPerEvent = 2;  // the flag beats the file
  EXPECT_EQ(resolveMockSettings(c).tokensPerEvent, 2);
  for (const char* bad : {R"({"tokens_per_event":0})", R"({"tokens_per_event":1.5})",
                          R"({"tokens_per_event":"4"})", R"({"tokens_per_event":5000})"}) {
    c = MockConfig{};
    c.configPath = writeConfig(bad);
    EXPECT_EQ(configErrorOf(c).rfind("--config " + *c.configPath + ": $.tokens_per_event: ", 0), 0u)
        << configErrorOf(c);
  }
  c = MockConfig{};
  c.tokensPerEvent = 0;
  EXPECT_EQ(configErrorOf(c), "--tokens-per-event: must be an integer in [1, 4096]");
  // A simulated engine streams what each of its steps produced: N an event is not its to set.
  c = MockConfig{};
  c.preset = "gpu-8b";
  c.tokensPerEvent = 4;
  EXPECT_EQ(configErrorOf(c),
            "--tokens-per-event: a simulated engine sends each step's tokens as one event (use "
            "preset instant or default)");
  c = MockConfig{};
  c.configPath = writeConfig(R"({"preset":"gpu-8b","tokens_per_event":4})");
  EXPECT_NE(configErrorOf(c).find("$.tokens_per_event: a simulated engine"), std::string::npos)
      << configErrorOf(c);
  std::remove(c.configPath->c_str());
}

TEST(MockConfig, EnginePresetsCarryAnEngineAndFixedTimingPresetsDoNot) {
  MockConfig c;
  c.preset = "gpu-8b";
  const auto gpu = resolveMockSettings(c);
  ASSERT_TRUE(gpu.engine.has_value());
  EXPECT_EQ(gpu.engine->specTokens, 3);
  EXPECT_FALSE(gpu.faults.any());
  c.preset = "flaky";
  EXPECT_TRUE(resolveMockSettings(c).faults.any());
  c.preset = "overloaded";
  EXPECT_LT(resolveMockSettings(c).engine->maxRunningSeqs, gpu.engine->maxRunningSeqs);
  c.preset = "instant";
  EXPECT_FALSE(resolveMockSettings(c).engine.has_value());
  c.preset = "gpu-8b";
  c.ttftMs = 5.0;  // fixed timing means nothing to an engine: say so
  EXPECT_NE(configErrorOf(c).find("--ttft-ms"), std::string::npos);
}

TEST(MockConfig, ConfigFileSetsFaultsAndEngineOverrides) {
  MockConfig c;
  c.configPath = writeConfig(R"({"preset":"instant","faults":{"http_503":0.25,"stream_cut":0.5},"fault_seed":9,)"
                             R"("stall_ms":40,"engine":{"max_running_seqs":8,"prefix_caching":false}})");
  const auto s = resolveMockSettings(c);
  EXPECT_EQ(s.faults.rates[static_cast<size_t>(plumbline::mock::FaultClass::Http503)], 0.25);
  EXPECT_EQ(s.faults.rates[static_cast<size_t>(plumbline::mock::FaultClass::StreamCut)], 0.5);
  EXPECT_EQ(s.faults.seed, 9u);
  EXPECT_EQ(s.faults.stallMs, 40.0);
  ASSERT_TRUE(s.engine.has_value());
  EXPECT_EQ(s.engine->maxRunningSeqs, 8);
  EXPECT_FALSE(s.engine->prefixCaching);
  c.configPath = writeConfig(R"({"faults":{"gremlins":0.1}})");
  EXPECT_NE(configErrorOf(c).find("$.faults.gremlins"), std::string::npos);
  c.configPath = writeConfig(R"({"faults":{"http_500":0.7,"http_503":0.7}})");
  EXPECT_NE(configErrorOf(c).find("$.faults"), std::string::npos);
  c.configPath = writeConfig(R"({"engine":{"max_running_seqs":0}})");
  EXPECT_NE(configErrorOf(c).find("$.engine.max_running_seqs"), std::string::npos);
  std::remove(c.configPath->c_str());
}

}  // namespace
