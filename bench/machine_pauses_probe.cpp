// How often does this machine stop a running process? A thread spins reading the clock for
// N seconds and counts gaps; a second pass sleeps until planned instants 2 ms apart (waking
// 200 us early and spinning, as workers do) and reports how late it was. On a VM the host
// pauses vCPUs now and then: those pauses bound any harness's send-lag precision.
#include <sys/prctl.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {
int64_t nowNs() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

void spinGaps(double seconds) {
  const int64_t end = nowNs() + static_cast<int64_t>(seconds * 1e9);
  int64_t prev = nowNs(), maxGap = 0;
  int over100us = 0, over1ms = 0, over5ms = 0;
  for (int64_t n = prev; n < end; prev = n) {
    n = nowNs();
    const int64_t g = n - prev;
    over100us += g > 100'000;
    over1ms += g > 1'000'000;
    over5ms += g > 5'000'000;
    maxGap = std::max(maxGap, g);
  }
  std::printf("spinning %.0f s: gaps >100us %d, >1ms %d, >5ms %d, longest %.2f ms\n", seconds, over100us,
              over1ms, over5ms, static_cast<double>(maxGap) / 1e6);
}

void plannedWakeups(double seconds) {
  const int64_t period = 2'000'000, spin = 200'000;
  const int n = static_cast<int>(seconds * 1e9 / static_cast<double>(period));
  std::vector<int64_t> lag;
  const int64_t t0 = nowNs() + 1'000'000;
  for (int i = 0; i < n; ++i) {
    const int64_t target = t0 + i * period, wake = target - spin;
    const timespec ts{static_cast<time_t>(wake / 1'000'000'000), static_cast<long>(wake % 1'000'000'000)};
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr);
    while (nowNs() < target) {
    }
    lag.push_back(nowNs() - target);
  }
  std::sort(lag.begin(), lag.end());
  auto at = [&](double q) { return static_cast<double>(lag[static_cast<size_t>(q * (lag.size() - 1))]) / 1e3; };
  const auto late = std::count_if(lag.begin(), lag.end(), [](int64_t l) { return l > 1'000'000; });
  std::printf("planned wake-ups every 2 ms for %.0f s: lag p50 %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us; "
              "%ld of %d over 1 ms\n", seconds, at(0.5), at(0.99), at(0.999), at(1.0), static_cast<long>(late), n);
}
}  // namespace

int main(int argc, char** argv) {
  prctl(PR_SET_TIMERSLACK, 1UL);
  const double seconds = argc > 1 ? std::atof(argv[1]) : 10.0;
  spinGaps(seconds);
  plannedWakeups(seconds);
  return 0;
}
