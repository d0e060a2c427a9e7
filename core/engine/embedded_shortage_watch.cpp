#include "core/engine/embedded_shortage_watch.h"

#include <algorithm>
#include <cerrno>

#include "core/engine/coordinator_text.h"
#include "core/mock/accept_backoff.h"
#include "core/mock/accept_shortage.h"

namespace plumbline::engine {

using coordinator_text::fmtSeconds;

namespace {
/// Pauses closer than this (a few coordinator ticks) are one span: the mock was short throughout.
constexpr int64_t kShortageJoinGapNs = 100'000'000;
}  // namespace

std::string EmbeddedShortageWatch::poll(int64_t nowNs) {
  if (m_shortage == nullptr) return {};
  const uint64_t pauses = m_shortage->pauses.load(std::memory_order_acquire);
  const bool first = m_seenPauses == 0 && pauses > 0;
  if (pauses > m_seenPauses) {
    // The new pauses came after the last poll (the first one: at its own stamp), the latest at
    // lastNs, each holding accepts off for kPauseNs.
    const int64_t from =
        first ? m_shortage->firstNs.load(std::memory_order_relaxed) - m_t0 : m_lastPollNs;
    const int64_t to =
        m_shortage->lastNs.load(std::memory_order_relaxed) - m_t0 + mock::AcceptBackoff::kPauseNs;
    if (!m_spans.empty() && from <= m_spans.back().second + kShortageJoinGapNs)
      m_spans.back().second = std::max(m_spans.back().second, to);
    else
      m_spans.emplace_back(from, std::max(from, to));
    m_seenPauses = pauses;
  }
  m_lastPollNs = nowNs;
  if (!first) return {};
  return whatRanOut() + ": it stops accepting connections until one closes";
}

bool EmbeddedShortageWatch::overlaps(int64_t fromNs, int64_t toNs) const {
  return std::any_of(m_spans.begin(), m_spans.end(),
                     [&](const auto& s) { return s.first <= toNs && fromNs <= s.second; });
}

bool EmbeddedShortageWatch::reclassify(metrics::RequestRecord& r) {
  if (m_spans.empty() || r.error != metrics::ErrorClass::Timeout || r.firstByteNs >= 0 ||
      r.sendNs < 0)
    return false;
  if (!overlaps(r.sendNs, r.endNs >= 0 ? r.endNs : r.sendNs)) return false;
  r.error = metrics::ErrorClass::HarnessLimit;
  ++m_reclassified;
  return true;
}

std::string EmbeddedShortageWatch::whatRanOut() const {
  const int64_t at = m_shortage->firstNs.load(std::memory_order_relaxed) - m_t0;
  const int64_t limit = m_shortage->fdLimit.load(std::memory_order_relaxed);
  std::string what;
  switch (m_shortage->firstErrno.load(std::memory_order_relaxed)) {
    case EMFILE:
      what = "ran out of file descriptors (" +
             (limit < 0 ? std::string("no limit set") : "limit " + std::to_string(limit)) + ")";
      break;
    case ENFILE:
      what = "found the machine's file table full (fs.file-max, shared by every process)";
      break;
    default:
      what = "ran out of kernel memory for connections";
      break;
  }
  return "the embedded mock " + what + " at " + fmtSeconds(std::max<int64_t>(0, at));
}

std::string EmbeddedShortageWatch::reason() const {
  if (m_shortage == nullptr || m_seenPauses == 0) return {};
  const uint64_t waiting = m_shortage->mostWaiting.load(std::memory_order_relaxed);
  std::string out =
      whatRanOut() + ": " +
      (waiting > 0 ? "up to " + std::to_string(waiting) + " connections waited to be accepted"
                   : std::string("connections waited to be accepted")) +
      " (accepts paused " + std::to_string(m_seenPauses) + " times)";
  if (m_reclassified > 0)
    out += "; the " + std::to_string(m_reclassified) +
           " requests that got no reply meanwhile are harness_limit, not the server's timeouts";
  return out;
}

}  // namespace plumbline::engine
