#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plumbline::engine {

/// How long before a planned send the worker's timer should fire (the rest is busy-waited),
/// learnt from how late the worker's own timers actually wake up. The margin is the smallest
/// one with which at most `lateFraction` of recent wake-ups would have sent more than
/// `lagGoalNs` after the planned instant. Where even `maxNs` cannot achieve that (a host that
/// deschedules the worker for milliseconds), it is the smallest margin that would have been
/// late at most `slackFraction` more often than `maxNs`: spinning that cannot buy precision
/// is not paid for. Send lag stays measured from the planned instant either way.
class SpinMargin {
 public:
  struct Params {
    int64_t minNs = 0;
    int64_t maxNs = 200'000;
    int64_t lagGoalNs = 20'000;  // the send path adds its own tens of µs: aim below the 100 µs target
    double lateFraction = 0.01;
    double slackFraction = 0.005;
    /// The margin is recomputed every epoch from the last two epochs' wake-ups.
    uint32_t epochSamples = 128;
    /// The margin until the first epoch is complete (clamped to [minNs, maxNs]; negative =
    /// maxNs). Wake-ups are only seen where the timer sleeps, i.e. where the gap to the next
    /// deadline exceeds the margin: a margin that starts above the usual gap never learns.
    int64_t initialNs = -1;
  };

  /// Adaptive; until the first epoch is complete the margin is `initialNs` (default `maxNs`).
  SpinMargin();
  explicit SpinMargin(Params p);
  /// A margin that never adapts (the benchmark's comparison with a fixed spin).
  static SpinMargin fixed(int64_t marginNs);

  /// One timer wake-up: actual wake time minus the time the timer was asked for.
  void noteLateness(int64_t latenessNs);
  int64_t marginNs() const { return m_marginNs; }
  bool adaptive() const { return m_adaptive; }
  const Params& params() const { return m_params; }

  /// Reads the benchmark's fixed margin from an environment value (whole microseconds,
  /// 0..100000); nullopt when unset. Throws std::invalid_argument naming `name` otherwise.
  static std::optional<int64_t> fixedMarginFromEnv(const char* name, const char* value);

 private:
  static constexpr int64_t kBucketNs = 2'000;

  void recompute();
  size_t bucketOf(int64_t latenessNs) const;

  Params m_params;
  bool m_adaptive = true;
  int64_t m_marginNs;
  uint32_t m_inEpoch = 0;
  std::vector<uint32_t> m_current;   ///< lateness histogram of this epoch; last = overflow
  std::vector<uint32_t> m_previous;  ///< the epoch before
};

}  // namespace plumbline::engine
