#include "core/mock/mock_config.h"

#include <arpa/inet.h>

#include <charconv>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

namespace plumbline::mock {
namespace {

struct Preset {
  double ttftMs;
  double itlMs;
};

Preset presetNamed(const std::string& name, const std::string& where) {
  if (name == "instant") return {0.0, 0.0};
  if (name == "default") return {50.0, 10.0};
  throw MockConfigError(where + ": unknown preset '" + name + "' (expected instant or default)");
}

void parseListen(const std::string& listen, MockSettings& out) {
  const auto colon = listen.rfind(':');
  const std::string bad = "--listen: expected IPV4:PORT, got '" + listen + "'";
  if (colon == std::string::npos) throw MockConfigError(bad);
  out.host = listen.substr(0, colon);
  in_addr addr{};
  if (inet_pton(AF_INET, out.host.c_str(), &addr) != 1) throw MockConfigError(bad);
  const char* first = listen.data() + colon + 1;
  const char* last = listen.data() + listen.size();
  auto [ptr, ec] = std::from_chars(first, last, out.port);
  if (ec != std::errc{} || ptr != last || first == last || out.port < 0 || out.port > 65535) {
    throw MockConfigError(bad);
  }
}

double nonNegative(double value, const std::string& where) {
  if (!(value >= 0.0) || value > 3.6e6) throw MockConfigError(where + ": must be a number in [0, 3600000]");
  return value;
}

int threadCount(int value, const std::string& where) {
  if (value < 0 || value > 256) throw MockConfigError(where + ": must be in [0, 256]");
  if (value == 0) return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return value;
}

nlohmann::json readConfigFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw MockConfigError("--config: cannot read '" + path + "'");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw MockConfigError("--config: " + path + " is not valid JSON: " + e.what());
  }
}

double numberAt(const nlohmann::json& obj, const char* key) {
  const auto& v = obj.at(key);
  if (!v.is_number()) throw MockConfigError(std::string("$.") + key + ": expected a number");
  return nonNegative(v.get<double>(), std::string("$.") + key);
}

/// Applies the config file over `out`; an explicit --preset flag wins over its "preset".
void applyConfigFile(const nlohmann::json& file, const MockConfig& flags, MockSettings& out) {
  if (!file.is_object()) throw MockConfigError("$: expected an object");
  for (const auto& [key, value] : file.items()) {
    if (key != "preset" && key != "ttft_ms" && key != "itl_ms" && key != "threads" &&
        key != "natural_length_mean") {
      throw MockConfigError("$." + key + ": unknown key");
    }
  }
  if (file.contains("preset") && !flags.preset) {
    if (!file["preset"].is_string()) throw MockConfigError("$.preset: expected a string");
    const Preset p = presetNamed(file["preset"].get<std::string>(), "$.preset");
    out.ttftMs = p.ttftMs;
    out.itlMs = p.itlMs;
  }
  if (file.contains("ttft_ms")) out.ttftMs = numberAt(file, "ttft_ms");
  if (file.contains("itl_ms")) out.itlMs = numberAt(file, "itl_ms");
  if (file.contains("threads")) {
    if (!file["threads"].is_number_integer()) throw MockConfigError("$.threads: expected an integer");
    out.threads = threadCount(file["threads"].get<int>(), "$.threads");
  }
  if (file.contains("natural_length_mean")) {
    out.naturalLengthMean = numberAt(file, "natural_length_mean");
    if (out.naturalLengthMean < 1.0) throw MockConfigError("$.natural_length_mean: must be >= 1");
  }
}

}  // namespace

MockSettings resolveMockSettings(const MockConfig& config) {
  MockSettings out;
  parseListen(config.listen, out);
  out.threads = threadCount(0, "--threads");
  if (config.preset) {
    const Preset p = presetNamed(*config.preset, "--preset");
    out.ttftMs = p.ttftMs;
    out.itlMs = p.itlMs;
  }
  if (config.configPath) applyConfigFile(readConfigFile(*config.configPath), config, out);
  if (config.ttftMs) out.ttftMs = nonNegative(*config.ttftMs, "--ttft-ms");
  if (config.itlMs) out.itlMs = nonNegative(*config.itlMs, "--itl-ms");
  if (config.threads) out.threads = threadCount(*config.threads, "--threads");
  return out;
}

}  // namespace plumbline::mock
