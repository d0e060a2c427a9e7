#pragma once
// Options of `plumbline mock` as given on the command line, and their resolution
// (preset < config file < explicit flags) into the settings the server runs with.
#include <optional>
#include <stdexcept>
#include <string>

namespace plumbline::mock {

/// Invalid mock options; what() is one line naming the flag or JSON path.
class MockConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What the user asked for; unset fields fall back to the config file, then the preset.
struct MockConfig {
  std::string listen = "127.0.0.1:0";  ///< HOST:PORT, IPv4 literal; port 0 = ephemeral
  std::optional<std::string> preset;   ///< "instant" or "default"
  std::optional<double> ttftMs;
  std::optional<double> itlMs;
  std::optional<int> threads;           ///< 0 or unset = hardware cores
  std::optional<std::string> configPath;  ///< MOCK.json
};

/// Fully resolved settings of a running mock server.
struct MockSettings {
  std::string host = "127.0.0.1";
  int port = 0;
  double ttftMs = 50.0;
  double itlMs = 10.0;
  int threads = 1;
  double naturalLengthMean = 128.0;
};

/// Applies preset, config file (keys: preset, ttft_ms, itl_ms, threads,
/// natural_length_mean) and flags, in that order. Throws MockConfigError.
MockSettings resolveMockSettings(const MockConfig& config);

}  // namespace plumbline::mock
