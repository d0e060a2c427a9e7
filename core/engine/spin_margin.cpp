#include "core/engine/spin_margin.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>

namespace plumbline::engine {

SpinMargin::SpinMargin() : SpinMargin(Params{}) {}

SpinMargin::SpinMargin(Params p) : m_params(p), m_marginNs(p.maxNs) {
  if (p.minNs < 0 || p.maxNs < p.minNs || p.lagGoalNs < 0 || p.epochSamples == 0 || !(p.lateFraction >= 0) ||
      !(p.slackFraction >= 0))
    throw std::invalid_argument("spin margin: need 0 <= min <= max, goal >= 0, fractions >= 0, epoch > 0");
  if (p.initialNs >= 0) m_marginNs = std::clamp(p.initialNs, p.minNs, p.maxNs);
  // Lateness up to max + goal matters to the choice; anything later shares the overflow bucket.
  const auto buckets = static_cast<size_t>((p.maxNs + p.lagGoalNs) / kBucketNs + 2);
  m_current.assign(buckets, 0);
  m_previous.assign(buckets, 0);
}

SpinMargin SpinMargin::fixed(int64_t marginNs) {
  SpinMargin m(Params{marginNs, marginNs, 0, 0.01, 0.005, 1, marginNs});
  m.m_adaptive = false;
  return m;
}

size_t SpinMargin::bucketOf(int64_t latenessNs) const {
  const auto b = static_cast<size_t>(std::max<int64_t>(0, latenessNs) / kBucketNs);
  return std::min(b, m_current.size() - 1);
}

void SpinMargin::noteLateness(int64_t latenessNs) {
  if (!m_adaptive) return;
  ++m_current[bucketOf(latenessNs)];
  if (++m_inEpoch < m_params.epochSamples) return;
  recompute();
  m_previous.swap(m_current);
  std::fill(m_current.begin(), m_current.end(), 0);
  m_inEpoch = 0;
}

void SpinMargin::recompute() {
  // late[k] = wake-ups in bucket k or above, of this epoch and the one before.
  const size_t n = m_current.size();
  std::vector<uint64_t> late(n + 1, 0);
  for (size_t k = n; k-- > 0;) late[k] = late[k + 1] + m_current[k] + m_previous[k];
  const auto total = static_cast<double>(late[0]);
  // A wake-up in the bucket holding margin + goal counts as late: the choice errs towards
  // spinning up to one bucket (2 µs) longer, never towards a late send.
  const auto lateWith = [&](int64_t marginNs) {
    return static_cast<double>(late[bucketOf(marginNs + m_params.lagGoalNs)]);
  };
  const double allowed = std::max(m_params.lateFraction * total, lateWith(m_params.maxNs) + m_params.slackFraction * total);
  int64_t margin = m_params.minNs;
  while (margin < m_params.maxNs && lateWith(margin) > allowed) margin = std::min(m_params.maxNs, margin + kBucketNs);
  m_marginNs = margin;
}

std::optional<int64_t> SpinMargin::fixedMarginFromEnv(const char* name, const char* value) {
  if (value == nullptr) return std::nullopt;
  const std::string text(value);
  char* end = nullptr;
  errno = 0;
  const long long us = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || us < 0 || us > 100'000)
    throw std::invalid_argument(std::string(name) + ": '" + text +
                                "' is not a whole number of microseconds in 0..100000");
  return static_cast<int64_t>(us) * 1000;
}

}  // namespace plumbline::engine
