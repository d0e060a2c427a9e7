#include "core/mock/token_lateness.h"

#include <algorithm>
#include <cstdio>

namespace plumbline::mock {

void TokenLateness::record(bool first, int64_t lateNs) {
  std::lock_guard lock(m_mutex);
  if (lateNs < 0) ++m_early;
  (first ? m_first : m_later).record(lateNs);
}

void TokenLateness::recordFirstWrite(int64_t receivedNs, int64_t writtenNs) {
  std::lock_guard lock(m_mutex);
  if (m_firstWrites.size() < kMaxFirstWrites) m_firstWrites.emplace_back(receivedNs, writtenNs);
}

void TokenLateness::appendFirstWrites(std::vector<std::pair<int64_t, int64_t>>& out) const {
  std::lock_guard lock(m_mutex);
  out.insert(out.end(), m_firstWrites.begin(), m_firstWrites.end());
}

std::string firstWritesText(std::vector<std::pair<int64_t, int64_t>> writes) {
  std::sort(writes.begin(), writes.end());
  std::string out;
  out.reserve(writes.size() * 40);
  for (const auto& [received, written] : writes) out += std::to_string(received) + ' ' + std::to_string(written) + '\n';
  return out;
}

void TokenLateness::mergeInto(metrics::LatencyHistogram& first, metrics::LatencyHistogram& later,
                              uint64_t& early) const {
  std::lock_guard lock(m_mutex);
  first.merge(m_first);
  later.merge(m_later);
  early += m_early;
}

namespace {
std::string summary(const metrics::LatencyHistogram& h) {
  char buf[160];
  const auto us = [&](double q) { return static_cast<double>(h.percentile(q)) / 1000.0; };
  std::snprintf(buf, sizeof buf, R"({"count":%llu,"p50":%.3f,"p90":%.3f,"p99":%.3f,"max":%.3f})",
                static_cast<unsigned long long>(h.count()), us(0.5), us(0.9), us(0.99), us(1.0));
  return buf;
}
}  // namespace

std::string tokenLatenessJson(const metrics::LatencyHistogram& first, const metrics::LatencyHistogram& later,
                              uint64_t early) {
  return R"({"first_token_late_us":)" + summary(first) + R"(,"later_token_late_us":)" + summary(later) +
         R"(,"early_writes":)" + std::to_string(early) + "}";
}

}  // namespace plumbline::mock
