#include "core/mock/mock_config.h"

#include <arpa/inet.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/util/json_duplicate_key.h"
#include "core/util/json_syntax_error.h"
#include "core/util/scheduler_slice.h"
#include "core/util/shown_key.h"

namespace plumbline::mock {
namespace {

using nlohmann::json;

MockPreset presetNamed(const std::string& name, const std::string& where) {
  auto preset = mockPreset(name);
  if (!preset) throw MockConfigError(where + ": unknown preset '" + name + "' (expected " + mockPresetNames() + ")");
  return *preset;
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

/// Why an engine preset refuses --tokens-per-event.
constexpr const char* kEngineSendsItsSteps =
    "a simulated engine sends each step's tokens as one event (use preset instant or default)";

/// A token count far above any reply length is a typo, not a model that thinks that long.
constexpr int64_t kMaxThinkingTokens = 1'000'000;
/// More tokens an event than a reply has is a typo; a server's stream interval is a few.
constexpr int64_t kMaxTokensPerEvent = 4096;

/// A count given at `where` (a flag or a JSON path), within [lowest, highest].
int64_t countIn(int64_t value, int64_t lowest, int64_t highest, const std::string& where) {
  if (value < lowest || value > highest)
    throw MockConfigError(where + ": must be an integer in [" + std::to_string(lowest) + ", " +
                          std::to_string(highest) + "]");
  return value;
}

/// The config file's count `key`, within [lowest, highest]; a non-integer is refused too.
int64_t countAt(const json& file, const char* key, int64_t lowest, int64_t highest) {
  const std::string where = std::string("$.") + key;
  if (!file[key].is_number_integer())
    throw MockConfigError(where + ": expected an integer in [" + std::to_string(lowest) + ", " +
                          std::to_string(highest) + "]");
  return countIn(file[key].get<int64_t>(), lowest, highest, where);
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

json readConfigFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MockConfigError("--config: cannot read '" + path + "'");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  json file;
  try {
    file = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range: a huge number
    throw MockConfigError("--config " + path +
                          ": not valid JSON: " + util::jsonSyntaxError(text, e).describe());
  }
  if (const auto duplicate = util::firstDuplicateKey(text))
    throw MockConfigError("--config " + path + ": $." + duplicate->path + ": " +
                          duplicate->reason());
  return file;
}

double numberAt(const json& obj, const std::string& key, const std::string& path) {
  const auto& v = obj.at(key);
  if (!v.is_number()) throw MockConfigError(path + ": expected a number");
  return nonNegative(v.get<double>(), path);
}

int64_t positiveIntAt(const json& obj, const std::string& key, const std::string& path, int64_t max) {
  const auto& v = obj.at(key);
  if (!v.is_number_integer() || v.get<int64_t>() < 1 || v.get<int64_t>() > max) {
    throw MockConfigError(path + ": expected an integer in [1, " + std::to_string(max) + "]");
  }
  return v.get<int64_t>();
}

void applyPreset(const MockPreset& preset, MockSettings& out);

void applyFaults(const json& faults, MockSettings& out) {
  if (!faults.is_object()) throw MockConfigError("$.faults: expected an object {class: rate}");
  out.faults.rates = {};
  double sum = 0.0;
  for (const auto& [key, value] : faults.items()) {
    const std::string path = "$.faults." + util::shownKey(key);
    const auto cls = faultClassFromName(key);
    if (!cls) {
      std::string known;
      for (const std::string_view name : kFaultClassNames)
        known += (known.empty() ? "" : ", ") + std::string(name);
      throw MockConfigError(path + ": unknown fault class (known: " + known + ")");
    }
    if (!value.is_number() || value.get<double>() < 0.0 || value.get<double>() > 1.0) {
      throw MockConfigError(path + ": expected a rate in [0, 1]");
    }
    out.faults.rates[static_cast<size_t>(*cls)] = value.get<double>();
    sum += value.get<double>();
  }
  if (sum > 1.0 + 1e-9) throw MockConfigError("$.faults: rates sum to more than 1");
}

void applyEngineNumber(const json& e, const std::string& key, EngineParams& p) {
  const std::string path = "$.engine." + util::shownKey(key);
  if (key == "max_running_seqs") p.maxRunningSeqs = static_cast<int>(positiveIntAt(e, key, path, 65536));
  else if (key == "kv_capacity_tokens") p.kvCapacityTokens = positiveIntAt(e, key, path, int64_t{1} << 32);
  else if (key == "block_tokens") p.blockTokens = static_cast<int>(positiveIntAt(e, key, path, 4096));
  else if (key == "max_batched_tokens") p.maxBatchedTokens = positiveIntAt(e, key, path, int64_t{1} << 24);
  else if (key == "step_base_us") p.stepBaseUs = numberAt(e, key, path);
  else if (key == "decode_per_seq_us") p.decodePerSeqUs = numberAt(e, key, path);
  else if (key == "context_per_token_us") p.contextPerTokenUs = numberAt(e, key, path);
  else if (key == "prefill_per_token_us") p.prefillPerTokenUs = numberAt(e, key, path);
  else if (key == "spec_tokens") p.specTokens = static_cast<int>(numberAt(e, key, path));
  else if (key == "spec_accept_at_zero") p.specAcceptAtZero = numberAt(e, key, path);
  else if (key == "spec_accept_per_temperature") {
    if (!e.at(key).is_number()) throw MockConfigError(path + ": expected a number");
    p.specAcceptPerTemperature = e.at(key).get<double>();
  } else if (key == "seed") p.seed = static_cast<uint64_t>(positiveIntAt(e, key, path, INT64_MAX));
  else throw MockConfigError(path + ": unknown key");
}

void applyEngine(const json& e, MockSettings& out) {
  if (!e.is_object()) throw MockConfigError("$.engine: expected an object");
  EngineParams p = out.engine.value_or(EngineParams{});
  for (const auto& [key, value] : e.items()) {
    if (key == "prefix_caching") {
      if (!value.is_boolean()) throw MockConfigError("$.engine.prefix_caching: expected a boolean");
      p.prefixCaching = value.get<bool>();
    } else {
      applyEngineNumber(e, key, p);
    }
  }
  if (p.specTokens > 16) throw MockConfigError("$.engine.spec_tokens: must be in [0, 16]");
  if (p.kvCapacityTokens < p.blockTokens) throw MockConfigError("$.engine.kv_capacity_tokens: less than one block");
  out.engine = p;
}

void checkKeys(const json& file) {
  static const char* const kKeys[] = {
      "preset",        "ttft_ms",  "itl_ms",         "thinking_tokens", "tokens_per_event",
      "threads",       "natural_length_mean", "faults",   "fault_seed",      "stall_ms",
      "trickle_itl_ms", "retry_after_s",       "engine"};
  for (const auto& [key, value] : file.items()) {
    if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys)) {
      throw MockConfigError("$." + util::shownKey(key) + ": unknown key");
    }
  }
}

void applyFaultShape(const json& file, MockSettings& out) {
  if (file.contains("fault_seed")) out.faults.seed = static_cast<uint64_t>(positiveIntAt(file, "fault_seed", "$.fault_seed", INT64_MAX));
  if (file.contains("stall_ms")) out.faults.stallMs = numberAt(file, "stall_ms", "$.stall_ms");
  if (file.contains("trickle_itl_ms")) out.faults.trickleItlMs = numberAt(file, "trickle_itl_ms", "$.trickle_itl_ms");
  if (file.contains("retry_after_s")) out.faults.retryAfterS = static_cast<int>(positiveIntAt(file, "retry_after_s", "$.retry_after_s", 3600));
}

/// Applies the config file over `out`; an explicit --preset flag wins over its "preset".
void applyConfigFile(const json& file, const MockConfig& flags, MockSettings& out) {
  if (!file.is_object()) throw MockConfigError("$: expected an object");
  checkKeys(file);
  if (file.contains("preset") && !flags.preset) {
    if (!file["preset"].is_string()) throw MockConfigError("$.preset: expected a string");
    applyPreset(presetNamed(file["preset"].get<std::string>(), "$.preset"), out);
  }
  if (file.contains("ttft_ms")) out.ttftMs = numberAt(file, "ttft_ms", "$.ttft_ms");
  if (file.contains("itl_ms")) out.itlMs = numberAt(file, "itl_ms", "$.itl_ms");
  if (file.contains("thinking_tokens"))
    out.thinkingTokens = countAt(file, "thinking_tokens", 0, kMaxThinkingTokens);
  if (file.contains("tokens_per_event"))
    out.tokensPerEvent = countAt(file, "tokens_per_event", 1, kMaxTokensPerEvent);
  if (file.contains("threads")) {
    if (!file["threads"].is_number_integer()) throw MockConfigError("$.threads: expected an integer");
    out.threads = threadCount(file["threads"].get<int>(), "$.threads");
  }
  if (file.contains("natural_length_mean")) {
    out.naturalLengthMean = numberAt(file, "natural_length_mean", "$.natural_length_mean");
    if (out.naturalLengthMean < 1.0) throw MockConfigError("$.natural_length_mean: must be >= 1");
  }
  if (file.contains("faults")) applyFaults(file["faults"], out);
  applyFaultShape(file, out);
  if (file.contains("engine")) applyEngine(file["engine"], out);
  // A simulated engine has no fixed TTFT or ITL: refused here as with the flags.
  if (out.engine && (file.contains("ttft_ms") || file.contains("itl_ms")))
    throw MockConfigError(
        std::string(file.contains("ttft_ms") ? "$.ttft_ms" : "$.itl_ms") +
        ": fixed timing does not apply to a simulated engine (use preset instant or default)");
  if (out.engine && file.contains("tokens_per_event"))
    throw MockConfigError("$.tokens_per_event: " + std::string(kEngineSendsItsSteps));
}

void applyPreset(const MockPreset& preset, MockSettings& out) {
  out.ttftMs = preset.ttftMs;
  out.itlMs = preset.itlMs;
  out.engine = preset.engine;
  out.faults.rates = {};
  if (!preset.faultsJson.empty()) applyFaults(json::parse(preset.faultsJson), out);
}

}  // namespace

MockSettings resolveMockSettings(const MockConfig& config) {
  MockSettings out;
  parseListen(config.listen, out);
  out.threads = threadCount(0, "--threads");
  if (config.preset) applyPreset(presetNamed(*config.preset, "--preset"), out);
  if (config.configPath) {
    const json file = readConfigFile(*config.configPath);  // its errors name the file already
    try {
      applyConfigFile(file, config, out);
    } catch (const MockConfigError& e) {  // "$.ttft_ms: ...": say which file too
      throw MockConfigError("--config " + *config.configPath + ": " + e.what());
    }
  }

  if ((config.ttftMs || config.itlMs) && out.engine) {
    throw MockConfigError(std::string(config.ttftMs ? "--ttft-ms" : "--itl-ms") +
                          ": fixed timing does not apply to a simulated engine (use preset instant or default)");
  }
  if (config.ttftMs) out.ttftMs = nonNegative(*config.ttftMs, "--ttft-ms");
  if (config.itlMs) out.itlMs = nonNegative(*config.itlMs, "--itl-ms");
  if (config.thinkingTokens)
    out.thinkingTokens = countIn(*config.thinkingTokens, 0, kMaxThinkingTokens, "--thinking-tokens");
  if (config.tokensPerEvent) {
    if (out.engine) throw MockConfigError("--tokens-per-event: " + std::string(kEngineSendsItsSteps));
    out.tokensPerEvent = countIn(*config.tokensPerEvent, 1, kMaxTokensPerEvent, "--tokens-per-event");
  }
  if (config.threads) out.threads = threadCount(*config.threads, "--threads");
  if (config.recordRequests) out.recordRequestsPath = *config.recordRequests;
  out.reusePort = config.reusePort;
  out.shortageFd = config.shortageFd;
  if (config.realtimePriority) {
    if (*config.realtimePriority < 1 || *config.realtimePriority > 99)
      throw MockConfigError("--realtime: " + std::to_string(*config.realtimePriority) +
                            " is not a SCHED_FIFO priority (1-99)");
    out.realtimePriority = *config.realtimePriority;
  }
  if (config.sliceUs) {
    if (*config.sliceUs < util::kMinSchedulerSliceNs / 1000 ||
        *config.sliceUs > util::kMaxSchedulerSliceNs / 1000)
      throw MockConfigError("--slice-us: " + std::to_string(*config.sliceUs) +
                            " is outside the kernel's slices (100 to 100000 µs)");
    if (out.realtimePriority > 0)
      throw MockConfigError("--slice-us: a slice is for the normal policy; --realtime replaces it");
    out.sliceUs = *config.sliceUs;
  }
  return out;
}

}  // namespace plumbline::mock
