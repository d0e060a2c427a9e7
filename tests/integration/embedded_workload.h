#pragma once
// A streaming workload against the embedded mock with fixed timing and fixed lengths, at a
// constant rate, with a loose send-lag tolerance (these tests are about what is measured, not
// about the harness keeping up on a shared machine).
#include <nlohmann/json.hpp>
#include <string>

namespace plumbline::test {

struct EmbeddedStreamSpec {
  std::string name;
  double ttftMs = 0, itlMs = 0;
  int seed = 1;
  double rate = 10, durationS = 1;
  int inputTokens = 16, outputTokens = 4;
};

inline nlohmann::json embeddedStreamWorkload(const EmbeddedStreamSpec& s) {
  using nlohmann::json;
  return {{"plumbline", 1},
          {"name", s.name},
          {"verdict", {{"send_lag_tolerance_ms", 50.0}}},
          {"target", {{"url", "embedded"}, {"stream", true}, {"mock", {{"ttft_ms", s.ttftMs}, {"itl_ms", s.itlMs}}}}},
          {"load", {{"arrival", "constant"}, {"seed", s.seed}, {"stages", json::array({{{"rate", s.rate}, {"duration_s", s.durationS}}})}}},
          {"requests", {{"input_tokens", {{"dist", "fixed"}, {"value", s.inputTokens}}},
                        {"output_tokens", {{"dist", "fixed"}, {"value", s.outputTokens}}},
                        {"sampling", {{"temperature", 0.0}, {"ignore_eos", true}}}}}};
}

}  // namespace plumbline::test
