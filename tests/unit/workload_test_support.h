#pragma once
// A valid workload document the tests mutate, and a parser shortcut.
#include <nlohmann/json.hpp>

#include <vector>

#include "core/workload/planner.h"
#include "core/workload/workload_loader.h"

namespace plumbline::testing {

inline nlohmann::json validDocument() {
  return nlohmann::json::parse(R"({
    "plumbline": 1,
    "name": "test",
    "load": {"arrival": "constant", "seed": 7, "stages": [{"rate": 10, "duration_s": 10}]},
    "requests": {
      "input_tokens": {"dist": "fixed", "value": 100},
      "output_tokens": {"dist": "fixed", "value": 20}
    }
  })");
}

inline workload::WorkloadSpec specWithStages(const nlohmann::json& stages, const char* arrival,
                                             uint64_t seed = 7) {
  auto document = validDocument();
  document["load"]["stages"] = stages;
  document["load"]["arrival"] = arrival;
  document["load"]["seed"] = seed;
  return workload::parseWorkload(document);
}

/// Every session of the schedule, in order.
inline std::vector<workload::SessionPlan> planAll(const workload::WorkloadSpec& spec) {
  workload::Planner planner(spec);
  std::vector<workload::SessionPlan> out;
  workload::SessionPlan s;
  while (planner.next(s)) out.push_back(s);
  return out;
}

inline workload::WorkloadSpec specWithSession(const nlohmann::json& session) {
  auto document = validDocument();
  document["session"] = session;
  return workload::parseWorkload(document);
}

}  // namespace plumbline::testing
