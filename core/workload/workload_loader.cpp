#include "core/workload/workload_loader.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string_view>

#include "core/mock/engine_params.h"
#include "core/net/base_url.h"
#include "core/util/json_duplicate_key.h"
#include "core/util/json_syntax_error.h"
#include "core/util/label_text.h"
#include "core/workload/json_fields.h"
#include "core/workload/load_limits.h"
#include "core/workload/planner.h"
#include "core/workload/prompt_materials_cache.h"
#include "core/workload/requests_parser.h"
#include "core/workload/trace_replay.h"
#include "core/workload/trace_schedule_cache.h"

#include "core/workload/session_parser.h"

namespace plumbline::workload {
namespace {

constexpr int kFormatVersion = 1;
/// A request that has not finished in a week will not.
constexpr double kMaxTimeoutS = 7 * 24 * 3600;
/// Gamma gaps of shape 1/cv²: past this the sampler returns exactly 0 for over 93% of gaps and
/// the schedule opens with a burst of about (cv² − 1) / 2 sessions (5,000 at 100) beyond
/// rate × duration; at 1e5 it never advances at all (measured: docs in README, gamma).
constexpr double kMaxGammaCv = 100;

/// "at most 1e+06 sessions/s, got 1e+12": a bound with its unit.
void checkBelowLimit(double value, double highest, const std::string& path, const char* unit) {
  if (value > highest)
    throw WorkloadError(path,
                        "at most " + formatNumber(highest) + unit + ", got " + formatNumber(value));
}

/// Rates, the schedule's length and the sessions it plans, within what the engine can hold.
/// `where` names the stages, or the command-line flags that replaced them.
void checkLoadBounds(const std::vector<Stage>& stages, double expectedSessions,
                     const std::string& where) {
  double totalS = 0;
  for (const Stage& s : stages) {
    checkBelowLimit(std::max(s.startRate, s.endRate), kMaxRate, where, " sessions/s");
    totalS += s.durationS;
  }
  checkBelowLimit(totalS, kMaxSeconds, where, " s of schedule");
  if (expectedSessions > kMaxExpectedSessions)
    throw WorkloadError(where, "the load profile plans " + formatNumber(expectedSessions) +
                                   " sessions; at most 1e8 are supported");
}

bool isEnvVarName(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return true;
}

void parseMock(const nlohmann::json& value, const std::string& path, TargetSpec& target) {
  JsonFields fields(value, path,
                    {"preset", "ttft_ms", "itl_ms", "thinking_tokens", "tokens_per_event"});
  if (auto preset = fields.string("preset")) target.mockPreset = *preset;
  // A simulated engine times its tokens by its own steps: fixed timing, refused by the mock at
  // its start (the run then failed, exit 1, with the workload shown valid), is refused here.
  const auto preset = mock::mockPreset(target.mockPreset.empty() ? "default" : target.mockPreset);
  auto refuseForAnEngine = [&](const char* key, const char* why) {
    if (preset && preset->engine)
      throw WorkloadError(fields.childPath(key), "preset " + target.mockPreset +
                                                     " is a simulated engine, which " + why +
                                                     " (use preset instant or default)");
  };
  target.mockTtftMs = fields.number("ttft_ms");
  if (target.mockTtftMs) {
    checkNonNegative(*target.mockTtftMs, fields.childPath("ttft_ms"));
    refuseForAnEngine("ttft_ms", "has no fixed time to first token");
  }
  target.mockItlMs = fields.number("itl_ms");
  if (target.mockItlMs) {
    checkNonNegative(*target.mockItlMs, fields.childPath("itl_ms"));
    refuseForAnEngine("itl_ms", "has no fixed inter-token latency");
  }
  target.mockThinkingTokens = fields.integer("thinking_tokens");
  if (target.mockThinkingTokens)
    checkNonNegative(static_cast<double>(*target.mockThinkingTokens),
                     fields.childPath("thinking_tokens"));
  target.mockTokensPerEvent = fields.integer("tokens_per_event");
  if (target.mockTokensPerEvent) {
    if (*target.mockTokensPerEvent < 1 || *target.mockTokensPerEvent > 4096)
      throw WorkloadError(fields.childPath("tokens_per_event"),
                          "must be an integer in [1, 4096], got " +
                              std::to_string(*target.mockTokensPerEvent));
    refuseForAnEngine("tokens_per_event", "sends each step's tokens as one event");
  }
}

TargetSpec parseTarget(const nlohmann::json& value, const std::string& path) {
  JsonFields fields(value, path,
                    {"url", "api", "model", "stream", "api_key_env", "timeout_s", "mock"});
  TargetSpec target;
  if (auto url = fields.string("url")) {
    if (*url != "embedded") {
      if (const std::string problem = net::baseUrlProblem(*url); !problem.empty())
        throw WorkloadError(fields.childPath("url"),
                            "expected \"embedded\" or a base URL: " + problem);
    }
    target.url = *url;
  }
  if (auto api = fields.string("api")) {
    if (*api == "chat")
      target.api = Api::Chat;
    else if (*api == "completions")
      target.api = Api::Completions;
    else
      throw WorkloadError(fields.childPath("api"),
                          "expected \"chat\" or \"completions\", got '" + *api + "'");
  }
  if (auto model = fields.string("model")) {
    if (model->empty()) throw WorkloadError(fields.childPath("model"), "must not be empty");
    target.model = *model;
  }
  if (auto stream = fields.boolean("stream")) target.stream = *stream;
  if (auto env = fields.string("api_key_env")) {
    if (!isEnvVarName(*env))
      throw WorkloadError(fields.childPath("api_key_env"),
                          "expected the NAME of an environment variable (like OPENAI_API_KEY), "
                          "not '" +
                              env->substr(0, 16) + (env->size() > 16 ? "...'" : "'"));
    target.apiKeyEnv = *env;
  }
  if (auto timeout = fields.number("timeout_s")) {
    checkPositive(*timeout, fields.childPath("timeout_s"));
    checkBelowLimit(*timeout, kMaxTimeoutS, fields.childPath("timeout_s"), " s (a week)");
    target.timeoutS = *timeout;
  }
  if (const auto* mock = fields.find("mock")) {
    if (target.url != "embedded")
      throw WorkloadError(fields.childPath("mock"), "only allowed with url \"embedded\"");
    parseMock(*mock, fields.childPath("mock"), target);
  }
  return target;
}

Stage parseStage(const nlohmann::json& value, const std::string& path, double previousEndRate) {
  JsonFields fields(value, path, {"rate", "ramp_to", "duration_s"});
  const auto rate = fields.number("rate");
  const auto rampTo = fields.number("ramp_to");
  if (!rate && !rampTo) throw WorkloadError(path, "needs 'rate' or 'ramp_to'");
  if (rate) checkNonNegative(*rate, fields.childPath("rate"));
  if (rampTo) checkNonNegative(*rampTo, fields.childPath("ramp_to"));
  Stage stage;
  stage.durationS = fields.requireNumber("duration_s");
  checkPositive(stage.durationS, fields.childPath("duration_s"));
  stage.startRate = rate ? *rate : previousEndRate;
  stage.endRate = rampTo ? *rampTo : *rate;
  return stage;
}

/// The one stage a replay shows as: its length on the run's clock at its mean rate.
Stage traceStage(const TraceSchedule& schedule) {
  Stage stage;
  stage.durationS = schedule.durationS;
  stage.startRate = stage.endRate = schedule.meanRate();
  return stage;
}

uint64_t parseSeed(const JsonFields& fields) {
  const auto* value = fields.find("seed");
  if (!value) return LoadSpec{}.seed;
  if (value->is_number_unsigned()) return value->get<uint64_t>();
  // Documents built in code hold non-negative integers as signed.
  if (value->is_number_integer()) {
    if (value->get<int64_t>() >= 0) return static_cast<uint64_t>(value->get<int64_t>());
    throw WorkloadError(fields.childPath("seed"), "must be >= 0, got " + value->dump());
  }
  throw WorkloadError(fields.childPath("seed"),
                      "expected a non-negative integer, got " + describeJsonType(*value));
}

Arrival parseArrival(const std::string& arrival, const JsonFields& fields) {
  if (arrival == "constant") return Arrival::Constant;
  if (arrival == "poisson") return Arrival::Poisson;
  if (arrival == "gamma") return Arrival::Gamma;
  if (arrival == "trace") return Arrival::Trace;
  throw WorkloadError(fields.childPath("arrival"),
                      "expected \"constant\", \"poisson\", \"gamma\" or \"trace\", got '" +
                          arrival + "'");
}

/// load.cv (gamma only) and load.trace (trace only; then load.stages must be absent).
void parseArrivalOptions(const JsonFields& fields, const std::string& baseDir, LoadSpec& load) {
  if (auto cv = fields.number("cv")) {
    if (load.arrival != Arrival::Gamma)
      throw WorkloadError(fields.childPath("cv"), "only allowed with arrival \"gamma\"");
    checkPositive(*cv, fields.childPath("cv"));
    if (*cv > kMaxGammaCv)
      throw WorkloadError(fields.childPath("cv"),
                          "at most " + formatNumber(kMaxGammaCv) + ", got " + formatNumber(*cv) +
                              " (the gaps would be almost all 0 and the schedule would open "
                              "with a burst of about (cv² - 1) / 2 sessions beyond the rate)");
    load.cv = *cv;
  } else if (load.arrival == Arrival::Gamma) {
    throw WorkloadError(fields.childPath("cv"),
                        "missing required key for arrival \"gamma\" (the coefficient of "
                        "variation of the gaps; 1 is poisson)");
  }
  const auto* trace = fields.find("trace");
  if (load.arrival != Arrival::Trace) {
    if (trace) throw WorkloadError(fields.childPath("trace"), "only allowed with arrival \"trace\"");
    return;
  }
  if (!trace)
    throw WorkloadError(fields.childPath("trace"), "missing required key for arrival \"trace\"");
  if (fields.has("stages"))
    throw WorkloadError(fields.childPath("stages"),
                        "not allowed with arrival \"trace\" (the trace's timestamps are the "
                        "schedule; use load.trace.time_scale and window_s)");
  load.trace = parseTraceSpec(*trace, fields.childPath("trace"), baseDir);
  auto schedule = sharedTraceSchedule(*load.trace, fields.childPath("trace"));
  load.stages = {traceStage(*schedule)};
  load.traceSchedule = std::move(schedule);
}

LoadSpec parseLoad(const nlohmann::json& value, const std::string& path,
                   const std::string& baseDir) {
  JsonFields fields(value, path, {"arrival", "seed", "stages", "max_in_flight", "cv", "trace"});
  LoadSpec load;
  if (auto arrival = fields.string("arrival")) load.arrival = parseArrival(*arrival, fields);
  parseArrivalOptions(fields, baseDir, load);
  if (load.arrival == Arrival::Trace) {
    load.seed = parseSeed(fields);
    if (auto cap = fields.integer("max_in_flight")) {
      checkAtLeast(static_cast<double>(*cap), 1, fields.childPath("max_in_flight"));
      load.maxInFlight = *cap;
    }
    return load;
  }
  load.seed = parseSeed(fields);
  const std::string stagesPath = fields.childPath("stages");
  const auto& stages = fields.require("stages");
  if (!stages.is_array())
    throw WorkloadError(stagesPath, "expected an array, got " + describeJsonType(stages));
  if (stages.empty()) throw WorkloadError(stagesPath, "must not be empty");
  double previousEndRate = 0;
  double expected = 0;
  for (size_t i = 0; i < stages.size(); ++i) {
    Stage stage =
        parseStage(stages[i], stagesPath + "[" + std::to_string(i) + "]", previousEndRate);
    previousEndRate = stage.endRate;
    expected += expectedSessions(stage);
    load.stages.push_back(stage);
  }
  if (!(expected > 0))
    throw WorkloadError(stagesPath, "the load profile plans no sessions (every rate is 0)");
  checkLoadBounds(load.stages, expected, stagesPath);
  if (auto cap = fields.integer("max_in_flight")) {
    checkAtLeast(static_cast<double>(*cap), 1, fields.childPath("max_in_flight"));
    load.maxInFlight = *cap;
  }
  return load;
}

VerdictSpec parseVerdict(const nlohmann::json& value, const std::string& path) {
  JsonFields fields(value, path,
                    {"send_lag_tolerance_ms", "min_sent_fraction", "hold_tolerance_ms"});
  VerdictSpec verdict;
  if (auto tolerance = fields.number("send_lag_tolerance_ms")) {
    checkPositive(*tolerance, fields.childPath("send_lag_tolerance_ms"));
    verdict.sendLagToleranceMs = *tolerance;
  }
  if (auto tolerance = fields.number("hold_tolerance_ms")) {
    checkAtLeast(*tolerance, 1,
                 fields.childPath("hold_tolerance_ms"));  // shorter holds are not kept
    verdict.holdToleranceMs = *tolerance;
  }
  if (auto fraction = fields.number("min_sent_fraction")) {
    checkPositive(*fraction, fields.childPath("min_sent_fraction"));
    checkAtMost(*fraction, 1, fields.childPath("min_sent_fraction"));
    verdict.minSentFraction = *fraction;
  }
  return verdict;
}

void checkVersion(const nlohmann::json& document) {
  const auto it = document.find("plumbline");
  if (it == document.end())
    throw WorkloadError("plumbline", "missing required key (the format version, 1)");
  if (!it->is_number_integer())
    throw WorkloadError("plumbline", "expected an integer, got " + describeJsonType(*it));
  if (it->get<int64_t>() != kFormatVersion)
    throw WorkloadError(
        "plumbline", "unsupported format version " + it->dump() + " (this build reads version 1)");
}

std::string readFile(const std::string& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                       &std::fclose);
  if (!file) throw WorkloadError(path, std::string("cannot read: ") + std::strerror(errno));
  std::string content;
  char buffer[65536];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) content.append(buffer, n);
  if (std::ferror(file.get()))
    throw WorkloadError(path, std::string("cannot read: ") + std::strerror(errno));
  return content;
}

[[noreturn]] void throwSyntaxError(const std::string& file, const std::string& content,
                                   const nlohmann::json::exception& error) {
  const util::JsonSyntaxError where = util::jsonSyntaxError(content, error);
  if (!where.placed) throw WorkloadError(file, "invalid JSON: " + where.reason);
  throw WorkloadError(file + ":" + std::to_string(where.line) + ":" + std::to_string(where.column),
                      "invalid JSON: " + where.reason);
}

/// A schedule with no arrival in it would be a run of nothing: `run` refuses it, so plan and the
/// designer do too (QA: plan previewed "0 sessions" and exited 0 for a rate of 1e-9/s).
void checkSomeArrivalFalls(const WorkloadSpec& spec) {
  Planner probe(spec);
  if (SessionPlan first; !probe.next(first))
    throw WorkloadError(spec.load.trace ? "load.trace" : "load.stages",
                        "the schedule plans no request: no arrival falls in its stages at these "
                        "rates and durations; raise a rate or a duration");
}

/// A replay's schedule is the trace: --rate cannot apply, --duration cuts it short.
void overrideTraceLoad(WorkloadSpec& spec, std::optional<double> rate,
                       std::optional<double> durationS) {
  if (rate)
    throw WorkloadError("--rate", "does not apply to arrival \"trace\" (its timestamps are the "
                                  "schedule; change load.trace.time_scale instead)");
  // --duration S is the window of S / time_scale trace seconds: the stored document then
  // says exactly what was run and parses back to the same schedule.
  TraceSpec& trace = *spec.load.trace;
  // Only short: a --duration past the replay's end leaves it as it is (QA: it re-cut the rows
  // already selected and the run's duration and rates moved, 4.0 s to 3.86 s).
  if (*durationS >= spec.load.traceSchedule->durationS) return;
  trace.windowS = *durationS / trace.timeScale;
  const TraceSchedule& before = *spec.load.traceSchedule;
  TraceSchedule cut = selectTraceWindow(before.rows, trace, "--duration");
  cut.rowsInFile = before.rowsInFile;
  cut.firstRow = before.firstRow;
  spec.load.stages = {traceStage(cut)};
  spec.load.traceSchedule = std::make_shared<const TraceSchedule>(std::move(cut));
  if (spec.document.is_object() && spec.document.contains("load"))
    spec.document["load"]["trace"]["window_s"] = *trace.windowS;
}

}  // namespace

WorkloadSpec loadWorkloadFile(const std::string& path) {
  const std::string content = readFile(path);
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(content);
  } catch (const nlohmann::json::parse_error& error) {
    throwSyntaxError(path, content, error);
  } catch (const nlohmann::json::out_of_range& error) {  // a number too large for a double
    throwSyntaxError(path, content, error);
  }
  if (const auto duplicate = util::firstDuplicateKey(content))
    throw WorkloadError(duplicate->path, duplicate->reason());
  const size_t slash = path.rfind('/');
  return parseWorkload(document, slash == std::string::npos ? "" : path.substr(0, slash));
}

WorkloadSpec parseWorkload(const nlohmann::json& document, const std::string& baseDir) {
  requireObject(document, "(root)");
  checkVersion(document);
  JsonFields fields(
      document, "",
      {"plumbline", "name", "description", "target", "load", "requests", "session", "verdict"});
  WorkloadSpec spec;
  spec.version = kFormatVersion;
  spec.name = fields.requireString("name");
  // The run's name unless --name gives one: the same rules as `runs rename`.
  if (const std::string why = util::labelProblem(spec.name, util::kMaxNameCharacters); !why.empty())
    throw WorkloadError("name", why);
  if (auto description = fields.string("description")) spec.description = *description;
  if (const auto* target = fields.find("target")) spec.target = parseTarget(*target, "target");
  spec.load = parseLoad(fields.require("load"), "load", baseDir);
  const bool lengthsFromTrace = spec.load.trace && spec.load.trace->lengthsFromTrace;
  spec.requests = parseRequests(fields.require("requests"), "requests", baseDir, lengthsFromTrace);
  spec.requests.prompt.materials = sharedPromptMaterials(spec.requests.prompt, "requests.prompt");
  if (const auto* session = fields.find("session"))
    spec.session = parseSession(*session, "session");
  checkSessionLengthSource(spec);
  if (const auto* verdict = fields.find("verdict"))
    spec.verdict = parseVerdict(*verdict, "verdict");
  spec.document = document;
  checkSomeArrivalFalls(spec);
  return spec;
}

void overrideLoad(WorkloadSpec& spec, std::optional<double> rate, std::optional<double> durationS) {
  if (!rate && !durationS) return;
  if (rate) checkPositive(*rate, "--rate");
  if (durationS) checkPositive(*durationS, "--duration");
  if (spec.load.arrival == Arrival::Trace) {
    overrideTraceLoad(spec, rate, durationS);
    return;
  }
  const double keptDuration = spec.totalDurationS();
  double keptRate = 0;
  if (!spec.load.stages.empty()) {
    const Stage& first = spec.load.stages.front();
    keptRate = first.startRate > 0 ? first.startRate : first.endRate;
  }
  Stage stage;
  stage.startRate = stage.endRate = rate.value_or(keptRate);
  stage.durationS = durationS.value_or(keptDuration);
  checkPositive(stage.startRate, "--rate");
  checkPositive(stage.durationS, "--duration");
  checkLoadBounds({stage}, stage.startRate * stage.durationS,
                  rate && durationS ? "--rate × --duration"
                  : rate            ? "--rate"
                                    : "--duration");
  const auto& stages = spec.load.stages;
  if (!(rate && durationS) && (stages.size() > 1 || (!stages.empty() && stages[0].isRamp()))) {
    spec.load.flattenedStages = stages;
    spec.load.flattenedBy = rate ? "--rate" : "--duration";
  }
  spec.load.stages = {stage};
  // The stored document must say what was actually run.
  if (spec.document.is_object() && spec.document.contains("load"))
    spec.document["load"]["stages"] =
        nlohmann::json::array({{{"rate", stage.startRate}, {"duration_s", stage.durationS}}});
}

}  // namespace plumbline::workload
