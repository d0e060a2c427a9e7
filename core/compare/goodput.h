#pragma once
#include <cstdint>
#include <optional>

#include "core/metrics/request_record.h"

namespace plumbline::compare {

/// A service-level objective a person sets. An unset limit is not checked.
struct Slo {
  std::optional<double> ttftMs;  ///< time to first token, counted from the planned send time
  std::optional<double> itlMs;   ///< the request's mean inter-token gap
  bool any() const { return ttftMs || itlMs; }
};

struct Goodput {
  uint64_t requests = 0;  ///< every recorded request, failed ones included
  uint64_t met = 0;       ///< succeeded and met every set limit
  double durationS = 0;
  double perSecond() const { return durationS > 0 ? static_cast<double>(met) / durationS : 0; }
  double fraction() const { return requests ? static_cast<double>(met) / static_cast<double>(requests) : 0; }
};

/// Counts requests meeting an SLO. TTFT is measured from the planned time (what a user
/// waiting for the reply saw, no coordinated omission); the inter-token gap is
/// (last token − first token) / (tokens − 1), tokens as the client counted the chunks.
class GoodputCounter {
 public:
  explicit GoodputCounter(Slo slo) : m_slo(slo) {}
  void add(const metrics::RequestRecord& r);
  bool meets(const metrics::RequestRecord& r) const;
  Goodput result(double durationS) const { return {m_requests, m_met, durationS}; }

 private:
  Slo m_slo;
  uint64_t m_requests = 0;
  uint64_t m_met = 0;
};

}  // namespace plumbline::compare
