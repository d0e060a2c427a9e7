#include "core/util/rng.h"

#include <cmath>

namespace plumbline::util {
namespace {
inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Rng::Rng(uint64_t seed) {
  uint64_t state = seed;
  for (auto& s : m_s) s = splitmix64(state);
}

Rng Rng::forStream(uint64_t seed, uint64_t stream) {
  uint64_t state = seed ^ 0x6a09e667f3bcc909ULL;
  uint64_t a = splitmix64(state);
  uint64_t mixed = a ^ (stream * 0x9e3779b97f4a7c15ULL + 0xbb67ae8584caa73bULL);
  return Rng(splitmix64(mixed));
}

uint64_t Rng::nextU64() {
  const uint64_t result = rotl(m_s[1] * 5, 7) * 9;
  const uint64_t t = m_s[1] << 17;
  m_s[2] ^= m_s[0];
  m_s[3] ^= m_s[1];
  m_s[1] ^= m_s[2];
  m_s[0] ^= m_s[3];
  m_s[2] ^= t;
  m_s[3] = rotl(m_s[3], 45);
  return result;
}

double Rng::uniform01() { return static_cast<double>(nextU64() >> 11) * 0x1.0p-53; }

double Rng::uniformOpen0() { return (static_cast<double>(nextU64() >> 11) + 1.0) * 0x1.0p-53; }

double Rng::normal(double mean, double stddev) {
  if (m_hasSpareNormal) {
    m_hasSpareNormal = false;
    return mean + stddev * m_spareNormal;
  }
  // Box–Muller: deterministic and identical on every platform, unlike std::normal_distribution.
  const double u1 = uniformOpen0();
  const double u2 = uniform01();
  const double r = std::sqrt(-2.0 * std::log(u1));
  const double theta = 2.0 * M_PI * u2;
  m_spareNormal = r * std::sin(theta);
  m_hasSpareNormal = true;
  return mean + stddev * r * std::cos(theta);
}

double Rng::exponential(double mean) { return -mean * std::log(uniformOpen0()); }

double Rng::gamma(double shape, double scale) {
  if (shape < 1.0) {
    // Boost to shape + 1 and scale back (Marsaglia–Tsang's note).
    const double u = uniformOpen0();
    return gamma(shape + 1.0, scale) * std::pow(u, 1.0 / shape);
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x = 0, v = 0;
    do {
      x = normal(0.0, 1.0);
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = uniformOpen0();
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v * scale;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v * scale;
  }
}

}  // namespace plumbline::util
