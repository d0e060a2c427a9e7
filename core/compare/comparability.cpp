#include "core/compare/comparability.h"

#include <cstdio>

#include <algorithm>
#include <array>
#include <set>

#include "core/workload/workload_spec.h"

namespace plumbline::compare {

namespace {

using Json = nlohmann::json;

std::vector<int64_t> allIds(const std::vector<ComparedRun>& runs) {
  std::vector<int64_t> ids;
  for (const auto& r : runs) ids.push_back(r.row.id);
  return ids;
}

std::string shown(const Json& v) {
  if (v.is_null()) return "unset";
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

/// "name: A (#1), B (#2, #3)" when the values differ; empty when all agree.
std::string differing(const std::string& name, const std::vector<ComparedRun>& runs,
                      const std::vector<Json>& values) {
  std::vector<std::pair<Json, std::string>> groups;  // value → "#1, #3"
  for (size_t i = 0; i < runs.size(); ++i) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.first == values[i]; });
    std::string id = "#" + std::to_string(runs[i].row.id);
    if (it == groups.end()) groups.emplace_back(values[i], id);
    else it->second += ", " + id;
  }
  if (groups.size() < 2) return {};
  std::string out = name + ": ";
  for (size_t g = 0; g < groups.size(); ++g)
    out += (g ? " vs " : "") + shown(groups[g].first) + " (" + groups[g].second + ")";
  return out;
}

/// Differences key by key inside an object found at `pointer` in every spec. Keys in `skip`
/// are left out; a key a spec leaves out has its value in `defaults` where that has one.
std::vector<std::string> objectDifferences(const std::vector<ComparedRun>& runs,
                                           const std::string& pointer, const std::string& prefix,
                                           const std::set<std::string>& skip = {},
                                           const Json& defaults = Json::object()) {
  std::set<std::string> keys;
  for (const auto& [k, v] : defaults.items()) keys.insert(k);
  for (const auto& r : runs)
    if (Json o = r.specAt(pointer); o.is_object())
      for (const auto& [k, v] : o.items()) keys.insert(k);
  std::vector<std::string> out;
  for (const std::string& k : keys) {
    if (skip.contains(k)) continue;
    std::vector<Json> values;
    for (const auto& r : runs) {
      Json o = r.specAt(pointer);
      values.push_back(o.is_object() && o.contains(k) ? o[k] : defaults.value(k, Json(nullptr)));
    }
    if (std::string d = differing(prefix + k, runs, values); !d.empty()) out.push_back(d);
  }
  return out;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "; " : "") + parts[i];
  return out;
}

std::vector<Json> valuesAt(const std::vector<ComparedRun>& runs, const std::string& pointer) {
  std::vector<Json> values;
  for (const auto& r : runs) values.push_back(r.specAt(pointer));
  return values;
}

void addSpecWarning(std::vector<ComparabilityWarning>& out, WarningKind kind,
                    const std::vector<ComparedRun>& runs,
                    const std::vector<std::pair<std::string, std::string>>& pointers,
                    const std::string& lead) {
  std::vector<std::string> parts;
  for (const auto& [pointer, name] : pointers)
    if (std::string d = differing(name, runs, valuesAt(runs, pointer)); !d.empty())
      parts.push_back(d);
  if (!parts.empty()) out.push_back({kind, lead + joined(parts), allIds(runs)});
}

/// One warning naming every key that differs in the objects at `pointer` (objectDifferences):
/// "LEAD (key: a (#1) vs b (#2); ...): WHY"; none when they agree.
void objectWarning(std::vector<ComparabilityWarning>& out, WarningKind kind,
                   const std::vector<ComparedRun>& runs, const std::string& pointer,
                   const std::string& prefix, const std::string& lead, const std::string& why,
                   const std::set<std::string>& skip = {}, const Json& defaults = Json::object()) {
  const std::vector<std::string> parts = objectDifferences(runs, pointer, prefix, skip, defaults);
  if (!parts.empty())
    out.push_back({kind, lead + " (" + joined(parts) + "): " + why, allIds(runs)});
}

/// The target as far as it shapes results, as text: an embedded simulator's port changes
/// every run and is left out; its preset and timings are kept.
Json targetIdentity(const ComparedRun& r) {
  Json t = r.specAt("/target");
  const std::string& url = r.row.targetUrl;
  std::string id = url.rfind("embedded", 0) == 0 ? "embedded" : url;
  id += " " + r.row.api;
  if (t.is_object() && t.contains("stream")) id += t["stream"] == true ? " streaming" : " non-streaming";
  if (t.is_object() && t.contains("mock") && t["mock"].is_object())
    for (const auto& [k, v] : t["mock"].items()) id += " " + k + "=" + shown(v);
  return id;
}

/// The target's settings besides the endpoint (targetIdentity) and the model: a timeout decides
/// which requests complete (QA 24 D5: 49 of 50 timed out, and the survivors' latencies read as
/// gains). Each is compared at the value the run had, its default where the workload left it
/// out; a setting added later is compared as written.
void targetSettingWarnings(std::vector<ComparabilityWarning>& out,
                           const std::vector<ComparedRun>& runs) {
  objectWarning(out, WarningKind::Target, runs, "/target", "target.", "different target settings",
                "the timeout decides which requests complete, and the latency rows cover only "
                "the completed ones",
                {"url", "api", "model", "stream", "api_key_env", "mock"},
                Json{{"timeout_s", workload::TargetSpec{}.timeoutS}});
}

void samplingWarning(std::vector<ComparabilityWarning>& out, const std::vector<ComparedRun>& runs) {
  objectWarning(out, WarningKind::Sampling, runs, "/requests/sampling", "",
                "different sampling parameters",
                "output lengths, stop behaviour and decoding speed change with them, so latency "
                "and throughput are not like for like");
}

void verdictWarnings(std::vector<ComparabilityWarning>& out, const std::vector<ComparedRun>& runs) {
  for (const auto& r : runs) {
    if (r.row.verdict && *r.row.verdict == "harness_limited")
      out.push_back({WarningKind::HarnessLimited,
                     r.label() + " is harness_limited: the harness did not send the load as "
                                 "planned (late, or not all of it; its verdict says which), so "
                                 "its figures describe a different load",
                     {r.row.id}});
    bool stoppedEarly = r.summary.is_object() && r.summary.value("complete", true) == false;
    if (!r.summary.is_object() || r.row.status != "complete" || stoppedEarly)
      out.push_back({WarningKind::Incomplete,
                     r.label() + " did not finish (status " + r.row.status +
                         "): its figures cover only part of its workload",
                     {r.row.id}});
  }
}

// A run whose server gave shorter replies than planned (ignore_eos not honoured): its
// latencies are of other replies than a run whose replies had the planned length.
void shortReplyWarnings(std::vector<ComparabilityWarning>& out,
                        const std::vector<ComparedRun>& runs) {
  for (const auto& r : runs) {
    if (!r.summary.is_object()) continue;
    const Json* len = nullptr;
    if (auto c = r.summary.find("token_counts"); c != r.summary.end() && c->is_object())
      if (auto l = c->find("output_length"); l != c->end() && l->is_object()) len = &*l;
    if (len == nullptr) continue;
    const double requests = len->value("requests", 0.0), planned = len->value("planned", 0.0),
                 served = len->value("server", 0.0);
    if (requests < 10 || planned <= 0 || served >= 0.9 * planned) continue;
    char share[16];
    std::snprintf(share, sizeof share, "%.0f%%", 100.0 * served / planned);
    out.push_back({WarningKind::Lengths,
                   r.label() + "'s replies were " + share +
                       " of their planned length (its server did not honour ignore_eos or "
                       "max_tokens): its latencies and token rates are of shorter replies",
                   {r.row.id}});
  }
}

void tokenSourceWarning(std::vector<ComparabilityWarning>& out,
                        const std::vector<ComparedRun>& runs) {
  std::vector<Json> values;
  for (const auto& r : runs)
    values.push_back(r.summary.is_object() && r.summary.contains("token_count_source")
                         ? r.summary["token_count_source"]
                         : Json(nullptr));
  if (std::string d = differing("token_count_source", runs, values); !d.empty())
    out.push_back({WarningKind::TokenCountSource,
                   "token counts come from different sources (" + d +
                       "): the server's tokenizer and the client's count differ, so tokens/s "
                       "and lengths are not like for like",
                   allIds(runs)});
}

/// QA 24 D6: libcurl times bytes when it reads them, the native client by their kernel arrival
/// stamps; the same events gave a TTFT of 75.4 ms against 60.2 ms. Runs stored before the
/// client was recorded are left out: what timed them is not known.
void httpClientWarning(std::vector<ComparabilityWarning>& out,
                       const std::vector<ComparedRun>& runs) {
  std::vector<ComparedRun> known;
  std::vector<Json> values;
  for (const auto& r : runs) {
    const Json* v = r.summary.is_object() && r.summary.contains("http_client")
                        ? &r.summary["http_client"]
                        : nullptr;
    if (v == nullptr || !v->is_string()) continue;
    known.push_back(r);
    values.push_back(*v);
  }
  if (std::string d = differing("http_client", known, values); !d.empty()) {
    std::vector<int64_t> ids;
    for (const auto& r : known) ids.push_back(r.row.id);
    out.push_back({WarningKind::HttpClient,
                   "timed by different HTTP clients (" + d +
                       "): the clients time the same bytes differently (by their kernel arrival "
                       "stamps or when read), so TTFT and inter-token gaps differ by the client, "
                       "not only by the server",
                   ids});
  }
}

/// An inter-token gap is per streamed event: a server sending four tokens an event has gaps four
/// tokens long. Runs whose events carried different numbers (by 10 % or more) compare per token.
/// Runs stored before it was counted, and runs without a gap, are left out.
void tokensPerEventWarning(std::vector<ComparabilityWarning>& out,
                           const std::vector<ComparedRun>& runs) {
  std::vector<ComparedRun> known;
  std::vector<Json> values;
  double least = 0, most = 0;
  for (const auto& r : runs) {
    const auto v = r.summaryNumber("tokens_per_event");
    if (!v || *v <= 0) continue;
    least = known.empty() ? *v : std::min(least, *v);
    most = std::max(most, *v);
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", *v);
    known.push_back(r);
    values.push_back(text);
  }
  if (known.size() < 2 || most < 1.1 * least) return;
  std::vector<int64_t> ids;
  for (const auto& r : known) ids.push_back(r.row.id);
  out.push_back({WarningKind::TokensPerEvent,
                 "streamed events carried different numbers of tokens (" +
                     differing("tokens_per_event", known, values) +
                     "): an inter-token gap is per event, so the gaps are not like for like; "
                     "compare TPOT (time per output token) instead",
                 ids});
}

void rowWarning(std::vector<ComparabilityWarning>& out, WarningKind kind,
                const std::vector<ComparedRun>& runs, const std::string& name,
                const std::vector<Json>& values, const std::string& why) {
  if (std::string d = differing(name, runs, values); !d.empty())
    out.push_back({kind, d + why, allIds(runs)});
}

}  // namespace

std::string_view warningKindName(WarningKind kind) {
  static constexpr std::array<std::string_view, 11> kNames = {
      "sampling", "lengths",     "dataset",         "token_count_source", "harness_limited",
      "incomplete", "tool_version", "target",        "model",              "http_client",
      "tokens_per_event"};
  return kNames[static_cast<size_t>(kind)];
}

std::vector<ComparabilityWarning> comparabilityWarnings(const std::vector<ComparedRun>& runs) {
  std::vector<ComparabilityWarning> out;
  if (runs.size() < 2) return out;
  samplingWarning(out, runs);
  addSpecWarning(out, WarningKind::Lengths, runs,
                 {{"/requests/input_tokens", "input_tokens"},
                  {"/requests/output_tokens", "output_tokens"},
                  {"/load/trace/lengths", "trace lengths"}},
                 "different length distributions: ");
  shortReplyWarnings(out, runs);
  addSpecWarning(out, WarningKind::Dataset, runs,
                 {{"/requests/prompt", "prompt"},
                  {"/load/trace/file", "trace file"},
                  {"/session", "session"}},
                 "different prompts, datasets or session shapes: ");
  tokenSourceWarning(out, runs);
  httpClientWarning(out, runs);
  tokensPerEventWarning(out, runs);
  verdictWarnings(out, runs);
  std::vector<Json> versions, targets, models;
  for (const auto& r : runs) {
    versions.push_back(r.row.toolVersion);
    targets.push_back(targetIdentity(r));
    models.push_back(r.row.model);
  }
  rowWarning(out, WarningKind::Target, runs, "endpoint", targets,
             ": the runs measured different endpoints or simulator settings");
  targetSettingWarnings(out, runs);
  rowWarning(out, WarningKind::Model, runs, "model", models, ": the runs measured different models");
  rowWarning(out, WarningKind::ToolVersion, runs, "tool version", versions,
             ": recorded by different Plumbline versions, whose measurement may differ");
  return out;
}

}  // namespace plumbline::compare
