#pragma once
#include <cstdint>

namespace plumbline::util {

/// Deterministic random numbers: xoshiro256** seeded through splitmix64, with our own
/// transforms (std:: distributions differ between standard libraries, ours must not).
class Rng {
 public:
  explicit Rng(uint64_t seed);
  /// A generator for an independent stream: the same (seed, stream) always gives the same numbers.
  static Rng forStream(uint64_t seed, uint64_t stream);

  uint64_t nextU64();
  /// Uniform in [0, 1).
  double uniform01();
  /// Uniform in (0, 1]: safe for log().
  double uniformOpen0();
  double normal(double mean, double stddev);
  double exponential(double mean);
  /// Gamma(shape, scale) (Marsaglia–Tsang).
  double gamma(double shape, double scale);

 private:
  uint64_t m_s[4];
  bool m_hasSpareNormal = false;
  double m_spareNormal = 0.0;
};

/// splitmix64 step: a good 64-bit mixer, used to derive stream seeds.
uint64_t splitmix64(uint64_t& state);

}  // namespace plumbline::util
