#include "core/compare/load_latency.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace plumbline::compare {

namespace {

using Json = nlohmann::json;

struct Group {
  std::string label;
  double startS, endS;
  bool skipFirstWindow;
};

std::string rateText(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g/s", r);
  return buf;
}

std::string spanText(double a, double b) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%g-%g s", a, b);
  return buf;
}

double number(const Json& o, const char* key, double fallback) {
  auto it = o.find(key);
  return it != o.end() && it->is_number() ? it->get<double>() : fallback;
}

void splitEvenly(std::vector<Group>& out, double start, double end, const std::string& what) {
  int parts = std::max(1, static_cast<int>(std::lround((end - start) / kRampPartS)));
  for (int p = 0; p < parts; ++p) {
    double a = start + (end - start) * p / parts, b = start + (end - start) * (p + 1) / parts;
    out.push_back({what + (what.empty() ? "" : " ") + spanText(a, b), a, b, false});
  }
}

std::vector<Group> groupsOf(const Json& spec, double runEndS) {
  std::vector<Group> groups;
  Json stages = spec.is_object() ? spec.value("/load/stages"_json_pointer, Json()) : Json();
  if (!stages.is_array() || stages.empty()) {
    splitEvenly(groups, 0, runEndS, "");
    return groups;
  }
  double t = 0, rate = 0;
  for (size_t i = 0; i < stages.size(); ++i) {
    const Json& s = stages[i];
    if (!s.is_object()) continue;
    double d = number(s, "duration_s", 0);
    std::string name = "stage " + std::to_string(i + 1);
    if (s.contains("ramp_to")) {
      double from = number(s, "rate", rate), to = number(s, "ramp_to", from);
      splitEvenly(groups, t, t + d, name + " ramp " + rateText(from) + "->" + rateText(to) + ",");
      rate = to;
    } else {
      rate = number(s, "rate", rate);
      groups.push_back({name + " (" + rateText(rate) + ")", t, t + d, true});
    }
    t += d;
  }
  return groups;
}

metrics::LatencyHistogram merged(const std::vector<std::pair<int64_t, metrics::LatencyHistogram>>& hs,
                                 const std::vector<int64_t>& indices) {
  metrics::LatencyHistogram out;
  for (const auto& [idx, h] : hs)
    if (std::binary_search(indices.begin(), indices.end(), idx)) out.merge(h);
  return out;
}

/// A percentile in ms, none of an empty histogram.
std::optional<double> msAt(const metrics::LatencyHistogram& h, double q) {
  if (h.count() == 0) return std::nullopt;
  return static_cast<double>(h.percentile(q)) / 1e6;
}

}  // namespace

bool isSweep(const Json& spec) {
  if (!spec.is_object()) return false;
  Json stages = spec.value("/load/stages"_json_pointer, Json());
  if (!stages.is_array()) return false;
  if (stages.size() > 1) return true;
  return std::any_of(stages.begin(), stages.end(),
                     [](const Json& s) { return s.is_object() && s.contains("ramp_to"); });
}

std::vector<LoadLatencyPoint> loadLatencyPoints(const Json& spec,
                                                const std::vector<store::WindowRow>& windows,
                                                const WindowLatency& latency) {
  std::vector<LoadLatencyPoint> out;
  if (windows.empty()) return out;
  const auto& lastW = windows.back();
  double runEndS = static_cast<double>(lastW.startNs + lastW.lengthNs) / 1e9;
  for (const Group& g : groupsOf(spec, runEndS)) {
    std::vector<const store::WindowRow*> members;
    for (const auto& w : windows) {
      double start = static_cast<double>(w.startNs) / 1e9;
      if (start >= g.startS - 1e-9 && start < g.endS - 1e-9) members.push_back(&w);
    }
    if (g.skipFirstWindow && members.size() >= 3) members.erase(members.begin());
    if (members.empty()) continue;
    LoadLatencyPoint p;
    p.label = g.label;
    p.startS = g.startS;
    p.endS = g.endS;
    double seconds = 0, planned = 0, completed = 0;
    std::vector<int64_t> indices;
    for (const auto* w : members) {
      seconds += static_cast<double>(w->lengthNs) / 1e9;
      planned += static_cast<double>(w->planned);
      completed += static_cast<double>(w->completed);
      indices.push_back(w->idx);
    }
    if (completed == 0) continue;  // no latency measured: no point (it would read 0 ms)
    std::sort(indices.begin(), indices.end());
    if (seconds > 0) {
      p.requestedRps = planned / seconds;
      p.completedRps = completed / seconds;
    }
    auto ttft = merged(latency.ttft, indices);
    p.ttftP50Ms = msAt(ttft, 0.5);
    p.ttftP99Ms = msAt(ttft, 0.99);
    p.itlP99Ms = msAt(merged(latency.itl, indices), 0.99);
    p.e2eP99Ms = msAt(merged(latency.e2e, indices), 0.99);
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace plumbline::compare
