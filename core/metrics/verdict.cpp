#include "core/metrics/verdict.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace plumbline::metrics {

namespace {

constexpr double kNsPerS = 1e9;
constexpr double kIdleCpu = 0.25;  ///< below this share of a core, a worker was not the bottleneck
/// Connections open rising by at least this many within late windows is named with them: each
/// new connection costs the worker a connect (and the server an accept) between its sends.
constexpr int64_t kManyNewConnections = 100;

std::string stripZeros(std::string s) {
  if (s.find('.') == std::string::npos) return s;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

std::string formatOne(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

/// Window edges: "12", "0.25".
std::string formatSeconds(int64_t ns) {
  if (ns % 1'000'000'000 == 0) return std::to_string(ns / 1'000'000'000);
  return stripZeros(formatOne("%.3f", static_cast<double>(ns) / kNsPerS));
}

/// "3.4", "1", "0.05", "250": three significant digits at most below 100 ms.
std::string formatMs(int64_t ns) {
  double ms = static_cast<double>(ns) / 1e6;
  const char* format = ms >= 100 ? "%.0f" : ms >= 10 ? "%.1f" : "%.2f";
  return stripZeros(formatOne(format, ms));
}

/// Rounded down so that a shortfall never prints as the threshold it missed.
std::string formatPercent(uint64_t part, uint64_t whole) {
  double pct = whole ? std::floor(1000.0 * static_cast<double>(part) / static_cast<double>(whole)) / 10
                     : 0.0;
  return formatOne("%.1f", pct) + "%";
}

std::string sentOfPlanned(uint64_t sent, uint64_t planned) {
  return "sent " + formatCount(sent) + " of " + formatCount(planned) + " planned (" +
         formatPercent(sent, planned) + ")";
}

std::string windowRange(const WindowEvidence& first, const WindowEvidence& last) {
  std::string word = first.index == last.index ? "window " : "windows ";
  return word + formatSeconds(first.startNs) + "\u2013" +
         formatSeconds(last.startNs + last.lengthNs) + " s";
}

/// Emits one reason per run of consecutive windows for which `bad` holds.
template <class Bad, class Describe>
void coalesce(const std::vector<WindowEvidence>& ws, Bad bad, Describe describe,
              std::vector<std::string>& out) {
  size_t i = 0;
  while (i < ws.size()) {
    if (!bad(ws[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j + 1 < ws.size() && ws[j + 1].index == ws[j].index + 1 && bad(ws[j + 1])) ++j;
    out.push_back(windowRange(ws[i], ws[j]) + ": " + describe(i, j));
    i = j + 1;
  }
}

bool shortOf(uint64_t sent, uint64_t planned, double fraction) {
  return planned > 0 && static_cast<double>(sent) < fraction * static_cast<double>(planned);
}

/// p99 of (value, count) buckets, in any order.
int64_t p99OfBuckets(std::vector<std::pair<int64_t, uint64_t>> all) {
  uint64_t n = 0;
  for (const auto& [v, c] : all) n += c;
  if (n == 0) return 0;
  std::sort(all.begin(), all.end());
  const auto rank = static_cast<uint64_t>(std::ceil(0.99 * static_cast<double>(n)));
  uint64_t seen = 0;
  for (const auto& [v, c] : all)
    if ((seen += c) >= rank) return v;
  return all.back().first;
}

/// p99 of the send lags of windows [i, j] together.
int64_t pooledLagP99(const std::vector<WindowEvidence>& ws, size_t i, size_t j) {
  std::vector<std::pair<int64_t, uint64_t>> all;
  for (size_t k = i; k <= j; ++k) {
    if (ws[k].sendLag.empty() && ws[k].sent > 0) {
      all.emplace_back(ws[k].sendLagP99Ns, ws[k].sent);  // evidence without buckets
    } else {
      all.insert(all.end(), ws[k].sendLag.begin(), ws[k].sendLag.end());
    }
  }
  return p99OfBuckets(std::move(all));
}

/// "a worker's event loop was held up to X ms at once" when the longest loop delay of windows
/// [i, j] was the tolerance or more (one long turn, or the worker off its CPU); else empty.
std::string heldUp(const std::vector<WindowEvidence>& ws, size_t i, size_t j, int64_t toleranceNs) {
  int64_t heldNs = 0;
  for (size_t k = i; k <= j; ++k) heldNs = std::max(heldNs, ws[k].harness.loopDelayMaxNs);
  if (heldNs < toleranceNs) return {};
  return "a worker's event loop was held up to " + formatMs(heldNs) + " ms at once";
}

/// "sessions reached their workers up to X ms after they were due (the coordinator was held
/// up)" when that was the tolerance or more in windows [i, j]: a worker cannot send a session
/// on time that it is handed late, however idle it is; else empty.
std::string handedLate(const std::vector<WindowEvidence>& ws, size_t i, size_t j,
                       int64_t toleranceNs) {
  int64_t lateNs = 0;
  for (size_t k = i; k <= j; ++k) lateNs = std::max(lateNs, ws[k].harness.handedLateMaxNs);
  if (lateNs < toleranceNs) return {};
  return "sessions reached their workers up to " + formatMs(lateNs) +
         " ms after they were due: the coordinator that hands them out was held up (stopped, "
         "or without a CPU)";
}

/// "a worker waited X ms for a CPU held by other work" (in one window, the most of any) when
/// that was the tolerance or more: runnable, not running, because other processes or threads
/// had its core (the kernel's run-queue delay, which the worker reads itself); else empty.
std::string waitedForCpu(const std::vector<WindowEvidence>& ws, size_t i, size_t j,
                         int64_t toleranceNs) {
  int64_t waitedNs = -1;
  for (size_t k = i; k <= j; ++k) waitedNs = std::max(waitedNs, ws[k].harness.cpuWaitMaxNs);
  if (waitedNs < toleranceNs) return {};
  return std::string("a worker waited ") + (i == j ? "" : "up to ") + formatMs(waitedNs) + " ms" +
         (i == j ? " in the window" : " in one window") + " for a CPU held by other work";
}

/// "sends waited for the in-flight cap (max_in_flight reached N times)" when a worker found its
/// share of max_in_flight taken in windows [i, j]: a due send then waits for a request to
/// finish, so the lateness is the cap's (and the target's pace), not the machine's; else empty.
/// How often workers found their share of max_in_flight taken in windows [i, j].
uint64_t capHitsIn(const std::vector<WindowEvidence>& ws, size_t i, size_t j) {
  uint64_t hits = 0;
  for (size_t k = i; k <= j; ++k)
    hits += static_cast<uint64_t>(std::max<int64_t>(0, ws[k].harness.inFlightCapHits));
  return hits;
}

/// "1 time", "1,234 times".
std::string timesText(uint64_t n) { return formatCount(n) + (n == 1 ? " time" : " times"); }

std::string waitedForCap(const std::vector<WindowEvidence>& ws, size_t i, size_t j) {
  const uint64_t hits = capHitsIn(ws, i, j);
  if (hits == 0) return {};
  return "sends waited for the in-flight cap (max_in_flight reached " + timesText(hits) + ")";
}

/// Joins the non-empty parts with "; ".
std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts)
    if (!p.empty()) out += (out.empty() ? "" : "; ") + p;
  return out;
}

/// "worker 0 died at 3.0 s: the sessions it held went out late from the others" when one died in
/// windows [i, j]: the sessions it had been handed were due or nearly so by the time its death
/// was seen and they were handed on, so they went out late, and that is why (not the machine).
std::string diedIn(const std::vector<WindowEvidence>& ws, size_t i, size_t j) {
  for (size_t k = i; k <= j; ++k) {
    const auto& h = ws[k].harness;
    if (!h.workerDied) continue;
    const std::string who =
        h.diedWorkerId < 0 ? std::string("a worker") : "worker " + std::to_string(h.diedWorkerId);
    const std::string when =
        h.diedAtNs < 0
            ? std::string()
            : " at " + formatOne("%.1f", static_cast<double>(h.diedAtNs) / kNsPerS) + " s";
    return who + " died" + when + ": the sessions it held went out late from the others";
  }
  return {};
}

/// What the harness's own evidence says about windows [i, j] that sent late, for a worker that
/// was busy enough not to be "mostly idle": sends waiting for the in-flight cap, its event
/// loop held up for as long as the tolerance or longer at once (one long turn, or the worker
/// off its CPU), a worker kept waiting for a CPU that other work held, and many new
/// connections opened. Empty when none shows: the lateness stays unexplained, not guessed.
std::string lateBecause(const std::vector<WindowEvidence>& ws, size_t i, size_t j,
                        int64_t toleranceNs) {
  std::vector<std::string> why;
  why.push_back(waitedForCap(ws, i, j));
  why.push_back(heldUp(ws, i, j, toleranceNs));
  why.push_back(waitedForCpu(ws, i, j, toleranceNs));
  // Connections open before the first of them: the window before (if it is the one just
  // before), nothing before the run's first window, unknown otherwise.
  int64_t before = -1;
  if (ws[i].index == 0) before = 0;
  else if (i > 0 && ws[i - 1].index == ws[i].index - 1) before = ws[i - 1].harness.connectionsOpen;
  int64_t peak = 0;
  for (size_t k = i; k <= j; ++k) peak = std::max(peak, ws[k].harness.connectionsOpen);
  if (before >= 0 && peak - before >= kManyNewConnections)
    why.push_back("connections open rose from " + formatCount(static_cast<uint64_t>(before)) + " to " +
                  formatCount(static_cast<uint64_t>(peak)));
  const std::string out = joined(why);
  return out.empty() ? out : " (" + out + ")";
}

/// Send lag p99 per group of consecutive windows holding at least kMinSendsForLagP99 sends
/// (a short last group joins the one before it); a group over tolerance marks its windows.
/// So far (a run still going), a short last group is not judged yet: windows still to come
/// join it, and the p99 of its few sends would be little more than their maximum. Returns
/// which windows were judged late (their reasons name any in-flight cap hits).
std::vector<bool> judgeSendLag(const std::vector<WindowEvidence>& ws, const VerdictPolicy& p,
                               Judging judging, std::vector<std::string>& out) {
  std::vector<std::pair<size_t, size_t>> groups;
  uint64_t sends = 0;
  size_t start = 0;
  for (size_t k = 0; k < ws.size(); ++k) {
    sends += ws[k].sent;
    if (sends >= kMinSendsForLagP99) {
      groups.emplace_back(start, k);
      start = k + 1;
      sends = 0;
    }
  }
  if (start < ws.size() && judging == Judging::Final) {
    if (groups.empty()) groups.emplace_back(start, ws.size() - 1);
    else groups.back().second = ws.size() - 1;
  }
  std::vector<int64_t> lagOf(ws.size(), 0);
  for (const auto& [i, j] : groups) {
    const int64_t p99 = pooledLagP99(ws, i, j);
    // A window that sent nothing was late in nothing: the reason's span leaves it out (QA: a
    // run stopped at 7.85 s read "windows 0–9 s", the drain's windows pooled in).
    for (size_t k = i; k <= j; ++k) lagOf[k] = ws[k].sent > 0 ? p99 : 0;
  }
  std::vector<WindowEvidence> judged = ws;  // coalesce() reads sendLagP99Ns per window
  for (size_t k = 0; k < judged.size(); ++k) judged[k].sendLagP99Ns = lagOf[k];
  coalesce(
      judged, [&](const WindowEvidence& w) { return w.sendLagP99Ns > p.sendLagToleranceNs; },
      [&](size_t i, size_t j) {
        int64_t worst = 0;
        double busiest = 0;
        for (size_t k = i; k <= j; ++k) {
          worst = std::max(worst, judged[k].sendLagP99Ns);
          busiest = std::max(busiest, judged[k].harness.workerCpuMax);
        }
        std::string reason = "send lag p99 " + formatMs(worst) + " ms > " +
                             formatMs(p.sendLagToleranceNs) + " ms tolerance";
        // Idle workers that still sent late were held back by the in-flight cap when they hit
        // it, else held up from outside (host pauses, other load); how long, where the
        // loop-delay probe and the CPU wait saw it.
        const std::string died = diedIn(judged, i, j);
        // A cause of the harness's own ahead of the rest: a worker that died, or sessions that
        // reached the workers late (QA: a coordinator stopped for 3 s read "the machine").
        const std::string first = joined({died, handedLate(judged, i, j, p.sendLagToleranceNs)});
        if (busiest < kIdleCpu) {
          const std::string cap = waitedForCap(judged, i, j);
          const std::string held = joined({heldUp(judged, i, j, p.sendLagToleranceNs),
                                           waitedForCpu(judged, i, j, p.sendLagToleranceNs)});
          reason += " while workers were mostly idle (" +
                    (cap.empty() && first.empty()
                         ? "the machine held them up" + (held.empty() ? "" : ": " + held)
                         : joined({first, cap, held})) +
                    ")";
        } else if (!first.empty()) {
          const std::string rest = lateBecause(judged, i, j, p.sendLagToleranceNs);
          reason += " (" + first + (rest.empty() ? ")" : "; " + rest.substr(2));
        } else {
          reason += lateBecause(judged, i, j, p.sendLagToleranceNs);
        }
        return reason;
      },
      out);
  std::vector<bool> late(ws.size());
  for (size_t k = 0; k < ws.size(); ++k) late[k] = judged[k].sendLagP99Ns > p.sendLagToleranceNs;
  return late;
}

/// Returns which windows were judged late by send lag.
std::vector<bool> judgeSends(const std::vector<WindowEvidence>& ws, const VerdictPolicy& p,
                             Judging judging, std::vector<std::string>& out) {
  coalesce(
      ws, [&](const WindowEvidence& w) { return shortOf(w.sent, w.planned, p.minSentFraction); },
      [&](size_t i, size_t j) {
        uint64_t sent = 0, planned = 0;
        for (size_t k = i; k <= j; ++k) sent += ws[k].sent, planned += ws[k].planned;
        return sentOfPlanned(sent, planned);
      },
      out);
  return judgeSendLag(ws, p, judging, out);
}

void judgeHarness(const std::vector<WindowEvidence>& ws, const VerdictPolicy& p,
                  std::vector<std::string>& out) {
  coalesce(
      ws, [&](const WindowEvidence& w) { return w.harness.workerCpuMax >= p.cpuSaturated; },
      [&](size_t i, size_t j) {
        double worst = 0;
        for (size_t k = i; k <= j; ++k) worst = std::max(worst, ws[k].harness.workerCpuMax);
        return "worker CPU saturated (" + formatOne("%.0f", 100 * worst) + "% of a core)";
      },
      out);
  for (const auto& w : ws) {
    if (!w.harness.workerDied) continue;
    if (w.harness.diedWorkerId < 0 || w.harness.diedAtNs < 0)
      out.push_back(windowRange(w, w) + ": a worker died");
    else
      out.push_back("worker " + std::to_string(w.harness.diedWorkerId) + " died at " +
                    formatOne("%.1f", static_cast<double>(w.harness.diedAtNs) / kNsPerS) + " s");
  }
}

/// Cap hits in windows whose late-send reason did not already name them (`named`).
void explainCapHits(const std::vector<WindowEvidence>& ws, const std::vector<bool>& named,
                    std::vector<std::string>& out) {
  std::vector<WindowEvidence> unnamed = ws;
  for (size_t k = 0; k < unnamed.size(); ++k)
    if (named[k]) unnamed[k].harness.inFlightCapHits = 0;
  coalesce(
      unnamed, [](const WindowEvidence& w) { return w.harness.inFlightCapHits > 0; },
      [&](size_t i, size_t j) {
        return "in-flight cap (max_in_flight) reached " + timesText(capHitsIn(unnamed, i, j));
      },
      out);
}

}  // namespace

std::string verdictName(VerdictKind k) {
  return k == VerdictKind::KeptUp ? "kept_up" : "harness_limited";
}

std::optional<VerdictKind> verdictFromName(std::string_view name) {
  if (name == "kept_up") return VerdictKind::KeptUp;
  if (name == "harness_limited") return VerdictKind::HarnessLimited;
  return std::nullopt;
}

std::string formatCount(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

WindowEvidence WindowEvidence::from(const WindowStats& w) {
  return {w.index,
          w.startNs,
          w.lengthNs,
          w.planned,
          w.sent,
          w.hist(Metric::SendLag).percentile(0.99),
          w.hist(Metric::SendLag).buckets(),
          w.harness};
}

void WindowEvidence::addLateSends(uint64_t n, const LatencyHistogram& lags) {
  const auto late = lags.buckets();
  if (!late.empty()) {
    if (sendLag.empty() && sent > 0) sendLag.emplace_back(sendLagP99Ns, sent);  // no buckets kept
    sendLag.insert(sendLag.end(), late.begin(), late.end());
    // Merged by value: repeated late reports must not grow the evidence without bound.
    std::sort(sendLag.begin(), sendLag.end());
    size_t out = 0;
    for (size_t k = 1; k < sendLag.size(); ++k) {
      if (sendLag[k].first == sendLag[out].first)
        sendLag[out].second += sendLag[k].second;
      else
        sendLag[++out] = sendLag[k];
    }
    sendLag.resize(out + 1);
    sendLagP99Ns = p99OfBuckets(sendLag);
  }
  sent += n;
}

Verdict judge(const std::vector<WindowStats>& windows, uint64_t planned, uint64_t sent,
              const VerdictPolicy& policy, const std::vector<std::string>& extraReasons) {
  std::vector<WindowEvidence> evidence;
  evidence.reserve(windows.size());
  for (const auto& w : windows) evidence.push_back(WindowEvidence::from(w));
  return judgeEvidence(evidence, planned, sent, policy, extraReasons);
}

Verdict judgeEvidence(const std::vector<WindowEvidence>& windows, uint64_t planned,
                      uint64_t sent, const VerdictPolicy& policy,
                      const std::vector<std::string>& extraReasons, Judging judging) {
  Verdict v;
  if (shortOf(sent, planned, policy.minSentFraction))
    v.reasons.push_back(sentOfPlanned(sent, planned));
  const std::vector<bool> late = judgeSends(windows, policy, judging, v.reasons);
  judgeHarness(windows, policy, v.reasons);
  // A worker's death said in full by the coordinator ("worker 0 died at 2.4 s (signal 9...); its
  // requests in flight were lost") replaces the windows' short "worker 0 died at 2.4 s".
  std::erase_if(v.reasons, [&](const std::string& r) {
    if (r.rfind("worker ", 0) != 0 || r.find(" died at ") == std::string::npos) return false;
    const std::string who = r.substr(0, r.find(" died at ") + 1);  // "worker 0 "
    return std::any_of(extraReasons.begin(), extraReasons.end(),
                       [&](const std::string& e) { return e.rfind(who, 0) == 0; });
  });
  v.reasons.insert(v.reasons.end(), extraReasons.begin(), extraReasons.end());
  if (v.reasons.empty()) return v;
  v.kind = VerdictKind::HarnessLimited;
  explainCapHits(windows, late, v.reasons);
  return v;
}

}  // namespace plumbline::metrics
