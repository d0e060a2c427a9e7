#include "core/mock/fault_injector.h"

#include <algorithm>

namespace plumbline::mock {

std::optional<FaultClass> faultClassFromName(std::string_view name) {
  for (size_t i = 0; i < kFaultClassCount; ++i) {
    if (kFaultClassNames[i] == name) return static_cast<FaultClass>(i);
  }
  return std::nullopt;
}

bool FaultSettings::any() const {
  return std::any_of(rates.begin(), rates.end(), [](double r) { return r > 0.0; });
}

FaultInjector::FaultInjector(const FaultSettings& settings, int loopIndex)
    : m_settings(settings),
      m_any(settings.any()),
      m_rng(util::Rng::forStream(settings.seed, static_cast<uint64_t>(loopIndex))) {}

std::optional<FaultClass> FaultInjector::draw() {
  if (!m_any) return std::nullopt;
  double u = m_rng.uniform01();
  for (size_t i = 0; i < kFaultClassCount; ++i) {
    u -= m_settings.rates[i];
    if (u < 0.0) return static_cast<FaultClass>(i);
  }
  return std::nullopt;
}

FaultPlan FaultInjector::plan(std::optional<FaultClass> cls, int64_t tokens, bool stream) const {
  FaultPlan p;
  p.cls = cls;
  if (!cls) return p;
  const auto stallNs = static_cast<int64_t>(m_settings.stallMs * 1e6);
  const auto trickleNs = static_cast<int64_t>(m_settings.trickleItlMs * 1e6);
  if (!stream) {
    switch (*cls) {
      case FaultClass::StallFirstByte: p.holdFirstByteNs = stallNs; break;
      case FaultClass::StallMidStream: p.body = BodyFault{2, stallNs, false, false}; break;
      case FaultClass::StreamCut: p.body = BodyFault{2, 0, true, false}; break;
      case FaultClass::MalformedChunk: p.body = BodyFault{1, 0, false, true}; break;
      case FaultClass::SlowTrickle: p.body = BodyFault{std::max<int64_t>(1, tokens), trickleNs, false, false}; break;
      default: break;
    }
    return p;
  }
  const int64_t half = std::max<int64_t>(1, tokens / 2);
  switch (*cls) {
    case FaultClass::StallFirstByte: p.holdFirstByteNs = stallNs; break;
    case FaultClass::StallMidStream:
      p.stallAt = tokens > 1 ? half : 0;
      p.stallNs = stallNs;
      break;
    case FaultClass::StreamCut: p.cutAfter = tokens > 1 ? half : 0; break;
    case FaultClass::MalformedChunk: p.malformedAt = tokens / 2; break;
    case FaultClass::SlowTrickle: p.trickleItlNs = trickleNs; break;
    default: break;
  }
  return p;
}

}  // namespace plumbline::mock
