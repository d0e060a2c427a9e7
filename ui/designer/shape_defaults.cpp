#include "ui/designer/shape_defaults.h"

namespace plumbline::ui::designer {
namespace {

OrderedJson shapeDefaults(const std::string& shape) {
  if (shape == "multi_turn")
    return OrderedJson::parse(R"({"turns": {"dist": "uniform", "min": 2, "max": 6},
                                  "think_time_s": {"dist": "exponential", "mean": 2.0}})");
  if (shape == "tree") return OrderedJson::parse(R"({"branching": 2, "depth": 2})");
  if (shape == "agentic")
    return OrderedJson::parse(R"({"steps": {"dist": "uniform", "min": 2, "max": 8},
        "tool_latency_s": {"dist": "exponential", "mean": 0.5},
        "tool_result_tokens": {"dist": "lognormal", "median": 300, "sigma": 0.6, "min": 16, "max": 4096}})");
  if (shape == "summarize")
    return OrderedJson::parse(R"({"chunks": {"dist": "uniform", "min": 4, "max": 16}})");
  return OrderedJson::object();
}

const char* const kShapeKeys[] = {"turns", "think_time_s", "branching", "depth", "steps",
                                  "tool_latency_s", "tool_result_tokens", "chunks"};

}  // namespace

OrderedJson sessionForShape(const OrderedJson& current, const std::string& shape) {
  OrderedJson next = current.is_object() ? current : OrderedJson::object();
  const OrderedJson defaults = shapeDefaults(shape);
  for (const char* key : kShapeKeys) {
    if (!defaults.contains(key)) next.erase(key);
  }
  next["shape"] = shape;
  for (const auto& item : defaults.items()) {
    if (!next.contains(item.key())) next[item.key()] = item.value();
  }
  return next;
}

OrderedJson loadForArrival(const OrderedJson& current, const std::string& arrival) {
  OrderedJson next = current.is_object() ? current : OrderedJson::object();
  next["arrival"] = arrival;
  if (arrival != "gamma") next.erase("cv");
  if (arrival == "gamma" && !next.contains("cv")) next["cv"] = 2.0;
  if (arrival == "trace") {
    next.erase("stages");
    if (!next.contains("trace"))
      next["trace"] = OrderedJson::parse(R"({"file": "traces/azure_llm_2023_conv.csv", "format": "azure_csv",
          "time_scale": 1.0, "start_offset_s": 0, "lengths": "trace"})");
  } else {
    next.erase("trace");
    if (!next.contains("stages"))
      next["stages"] = OrderedJson::parse(R"([{"rate": 10, "duration_s": 60}])");
  }
  return next;
}

}  // namespace plumbline::ui::designer
