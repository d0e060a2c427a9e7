#include "core/store/runs_command.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <ostream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/metrics/latency_text.h"
#include "core/metrics/run_summary.h"
#include "core/store/run_export.h"
#include "core/store/run_reader.h"
#include "core/store/store_error.h"
#include "core/util/label_text.h"

namespace plumbline::store {

namespace {

using Json = nlohmann::json;

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

template <typename T>
std::string orDash(const std::optional<T>& v, const char* format = "%.1f") {
  if (!v) return "-";
  return fmt(format, static_cast<double>(*v));
}

std::string padRight(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

Json parsedJsonOrNull(const std::optional<std::string>& text) {
  if (!text || text->empty()) return nullptr;
  return Json::parse(*text, nullptr, /*allow_exceptions=*/false);
}

/// Notes keep their lines and tabs, each further line indented under "notes: ".
std::string notesShown(const std::string& notes) {
  std::string out;
  for (const char c : util::terminalSafe(notes, "\n\t")) {
    out += c;
    if (c == '\n') out += "       ";
  }
  return out;
}

std::string verdictLine(const RunRow& run) {
  if (!run.verdict) return "verdict: none (run " + run.status + ")";
  std::string line = "verdict: " + *run.verdict;
  Json reasons = parsedJsonOrNull(run.verdictReasonsJson);
  if (reasons.is_array() && !reasons.empty()) {
    line += " \u2014 ";
    for (size_t i = 0; i < reasons.size(); ++i)
      line += (i ? "; " : "") + (reasons[i].is_string() ? reasons[i].get<std::string>()
                                                         : reasons[i].dump());
  }
  return line;
}

double num(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

void printSummary(const Json& s, std::ostream& out) {
  out << "planned " << fmt("%.0f", num(s, "planned")) << "  sent " << fmt("%.0f", num(s, "sent"))
      << "  completed " << fmt("%.0f", num(s, "completed"));
  double errorTotal = 0;
  std::string byClass;
  if (auto e = s.find("errors"); e != s.end() && e->is_object()) {
    for (const auto& [cls, n] : e->items()) {
      double v = n.is_number() ? n.get<double>() : 0;
      errorTotal += v;
      byClass += (byClass.empty() ? "" : ", ") + cls + " " + fmt("%.0f", v);
    }
  }
  out << "  failed " << fmt("%.0f", errorTotal);  // the run's own report's word
  if (!byClass.empty()) out << " (" << byClass << ")";
  if (s.contains("not_sent"))
    out << "  not sent " << fmt("%.0f", num(s, "not_sent"));  // older runs lack it
  out << '\n';
  if (auto n = s.find("notes"); n != s.end() && n->is_array())  // older runs lack them
    for (const auto& note : *n)
      if (note.is_string()) out << "note: " << note.get<std::string>() << '\n';
  if (auto f = s.find("failure_samples"); f != s.end()) {
    try {
      for (const auto& [cls, sample] : metrics::failureSamplesFromJson(*f))
        out << "  " << metrics::describeFirstFailure(cls, sample) << '\n';
    } catch (const std::invalid_argument& e) {  // a damaged stored value: say so, show the rest
      out << "  (failure samples unreadable: " << e.what() << ")\n";
    }
  }
  if (auto r = s.find("retry_after"); r != s.end() && r->is_object() && num(*r, "responses") > 0) {
    const double n = num(*r, "responses");
    out << "retry-after: " << fmt("%.0f", n) << (n == 1 ? " reply" : " replies")
        << " asked to wait "
        << metrics::retryAfterWaitText(static_cast<int64_t>(num(*r, "min_ms")),
                                       static_cast<int64_t>(num(*r, "max_ms")))
        << " (not obeyed)\n";
  }
  out << "rate: requested " << fmt("%.2f", num(s, "requested_rps")) << "/s  achieved "
      << fmt("%.2f", num(s, "achieved_rps")) << "/s  over " << fmt("%.2f", num(s, "duration_s"))
      << " s\n";
  if (const std::string asked = s.value("asked_load", std::string()); !asked.empty())
    out << "asked: " << util::terminalSafe(asked) << '\n';  // a trace's file name is the user's
  out << padRight("latency (ms)", 20) << padRight("p50", 11) << padRight("p90", 11) << padRight("p99", 11) << "max\n";
  const std::pair<const char*, const char*> rows[] = {
      // The rows and names of the run's own report (QA: `runs show` left out upload).
      {"send lag", "send_lag_ms"},
      {"ttft", "ttft_ms"},
      {"ttfa (answer)", "ttfa_ms"},
      {"inter-token", "itl_ms"},
      {"tpot (per token)", "tpot_ms"},
      {"end-to-end", "e2e_ms"},
      {"ttft from planned", "ttft_from_planned_ms"},
      {"e2e from planned", "e2e_from_planned_ms"},
      {"upload", "upload_ms"}};
  const double thoughtFirst = num(s, "thought_first");  // 0 when absent (stored before)
  for (const auto& [label, key] : rows) {
    auto p = s.find(key);
    if (p == s.end() || !p->is_object()) continue;
    if (std::string_view(key) == "ttfa_ms" && thoughtFirst <= 0) continue;  // ttft is the answer's
    if (std::string_view(key) == "tpot_ms" && metrics::Percentiles::emptyJson(*p)) continue;  // not streamed
    if (metrics::Percentiles::emptyJson(*p)) {  // no request got this far
      out << padRight(label, 20) << padRight("-", 11) << padRight("-", 11) << padRight("-", 11)
          << "-  (no samples)\n";
      continue;
    }
    out << padRight(label, 20) << padRight(metrics::latencyMsText(num(*p, "p50")), 11)
        << padRight(metrics::latencyMsText(num(*p, "p90")), 11)
        << padRight(metrics::latencyMsText(num(*p, "p99")), 11)
        << metrics::latencyMsText(num(*p, "max")) << '\n';
  }
  if (thoughtFirst > 0)
    out << metrics::thoughtFirstText(static_cast<uint64_t>(thoughtFirst),
                                     static_cast<uint64_t>(num(s, "completed")))
        << '\n';
  if (const auto perEvent = s.find("tokens_per_event"); perEvent != s.end() && perEvent->is_number())
    if (const std::string text = metrics::tokensPerEventText(
            perEvent->get<double>(), s.value("token_count_source", std::string()));
        !text.empty())
      out << text << '\n';
  const auto held = s.find("timing_held");
  if (held != s.end() && held->is_object() &&
      metrics::heldIsANote(static_cast<uint64_t>(num(*held, "requests")),
                           static_cast<uint64_t>(num(s, "completed"))))
    out << metrics::heldText(static_cast<uint64_t>(num(*held, "requests")),
                             static_cast<uint64_t>(num(s, "completed")), num(*held, "max_ms"),
                             num(*held, "tolerance_ms"))
        << " (within the 1% a p99 leaves out)\n";
  std::string source = s.value("token_count_source", std::string("unknown"));
  const auto outRate = s.find("output_tokens_per_s");
  out << "tokens/s: input " << fmt("%.1f", num(s, "input_tokens_per_s")) << "  output "
      << (outRate != s.end() && outRate->is_number() ? fmt("%.1f", outRate->get<double>())
                                                     : std::string("-"));
  if (s.contains("tokens_span_s"))  // absent before it was recorded: per second of the schedule
    out << "  over " << metrics::tokensSpanText(num(s, "tokens_span_s"), num(s, "duration_s"));
  out << "  (token counts: " << source << ")\n";
  out << "prompt tokens: " << s.value("prompt_tokens_basis", std::string("unknown (run stored before it was recorded)"))
      << '\n';
  if (const auto counts = s.find("token_counts"); counts != s.end() && counts->is_object() &&
                                                  counts->contains("client_output"))
    out << "client output tokens: " << counts->value("client_output", std::string()) << '\n';
  const auto client = s.find("http_client");
  out << "timed by: "
      << metrics::httpClientText(
             client != s.end() && client->is_string() ? client->get<std::string>() : "")
      << '\n';
}

/// Where a run's held requests are found, when its rows carry their holds (stored since v10).
void printHeldRows(const RunReader& reader, int64_t id, const Json& s, std::ostream& out) {
  const auto held = s.find("timing_held");
  if (held == s.end() || !held->is_object() || num(*held, "requests") <= 0) return;
  const auto minNs = static_cast<int64_t>(num(*held, "tolerance_ms") * 1e6 + 0.5);
  if (const int64_t rows = reader.heldRequestCount(id, std::max<int64_t>(minNs, 1)); rows > 0)
    out << "held requests: " << rows << " rows with held_ns >= " << minNs
        << "; `plumbline runs export " << id << "` lists them\n";
}

}  // namespace

int guardedStoreCommand(std::ostream& err, const std::function<int()>& body) {
  try {
    return body();
  } catch (const StoreError& e) {
    err << e.what() << '\n';
    return exitCodeOf(e.kind());
  } catch (const std::exception& e) {
    err << e.what() << '\n';
    return 1;
  }
}

int runsList(const std::string& dbPath, bool named, std::ostream& out, std::ostream& err) {
  return guardedStoreCommand(err, [&] {
    std::error_code ec;
    if (!named && !std::filesystem::exists(dbPath, ec)) {  // else the reader says "no such file"
      out << "no runs yet (" << dbPath << ")\n";
      return 0;
    }
    RunReader reader(dbPath);
    auto runs = reader.listRuns();
    if (runs.empty()) {
      out << "no runs yet (" << dbPath << ")\n";
      return 0;
    }
    out << padRight("id", 6) << padRight("created (UTC)", 25) << padRight("status", 12) << padRight("verdict", 17)
        << padRight("rps req/ach", 18) << padRight("ttft p99 ms", 13) << "name\n";
    for (const RunRow& r : runs) {
      out << padRight(std::to_string(r.id), 6) << padRight(r.createdAt, 25)
          << padRight(r.status, 12) << padRight(r.verdict.value_or("-"), 17)
          << padRight(orDash(r.requestedRps) + "/" + orDash(r.achievedRps), 18)
          << padRight(orDash(r.ttftP99Ms, "%.2f"), 13)
          << util::terminalSafe(r.name.empty() ? r.workloadName : r.name) << '\n';
    }
    return 0;
  });
}

int runsShow(const std::string& dbPath, int64_t id, std::ostream& out, std::ostream& err) {
  return guardedStoreCommand(err, [&] {
    RunReader reader(dbPath);
    std::optional<RunRow> run = reader.getRun(id);
    if (!run) throw runNotFound(dbPath, id, reader.damage());
    out << verdictLine(*run) << '\n';
    out << "status: " << run->status << '\n';
    // What a person or a workload gave is shown escaped: an older database may hold control
    // characters or ill-formed UTF-8 there.
    out << "run " << run->id << ": "
        << (run->name.empty() ? "(unnamed)" : util::terminalSafe(run->name)) << "  workload "
        << util::terminalSafe(run->workloadName) << "  model " << util::terminalSafe(run->model)
        << "  target " << util::terminalSafe(run->targetUrl) << "  started " << run->createdAt
        << '\n';
    if (auto tags = reader.tags(id); !tags.empty()) {
      out << "tags:";
      for (const std::string& t : tags) out << ' ' << util::terminalSafe(t);
      out << '\n';
    }
    if (run->notes) out << "notes: " << notesShown(*run->notes) << '\n';
    Json summary = parsedJsonOrNull(run->summaryJson);
    if (summary.is_object()) {
      printSummary(summary, out);
      printHeldRows(reader, id, summary, out);
    } else {
      out << "summary: none (the run did not finish); requests recorded: "
          << reader.requestCount(id) << '\n';
    }
    out << "windows: " << reader.windows(id).size() << '\n';
    return 0;
  });
}

int runsExport(const std::string& dbPath, int64_t id, const std::string& format,
               std::ostream& out, std::ostream& err) {
  return guardedStoreCommand(err, [&] {
    if (format != "json" && format != "csv")
      throw StoreError(dbPath, "exporting run " + std::to_string(id),
                       "unknown format '" + format + "' (use csv or json)",
                       StoreErrorKind::InvalidInput);
    RunReader reader(dbPath);
    std::optional<RunRow> run = reader.getRun(id);
    if (!run) throw runNotFound(dbPath, id, reader.damage());
    if (format == "json") exportJson(reader, *run, out);
    else exportCsv(reader, *run, out);
    out.flush();
    if (!out) throw StoreError(dbPath, "exporting run " + std::to_string(id), "write failed");
    return 0;
  });
}

}  // namespace plumbline::store
