#include "core/engine/early_stop_signal.h"

#include <atomic>
#include <csignal>

namespace plumbline::engine {
namespace {

std::atomic<int> g_early{0};

/// SIGHUP's disposition before this process installed any handler of its own.
bool hangupIgnoredAtStart() {
  struct sigaction old {};
  sigaction(SIGHUP, nullptr, &old);
  return old.sa_handler == SIG_IGN;
}

void remember(int sig) {
  int none = 0;
  g_early.compare_exchange_strong(none, sig);
}

}  // namespace

void catchEarlyStopSignals() {
  struct sigaction sa {};
  sa.sa_handler = &remember;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  if (!hangupIgnored()) sigaction(SIGHUP, &sa, nullptr);
}

bool hangupIgnored() {
  static const bool ignored = hangupIgnoredAtStart();  // read once, before any handler is ours
  return ignored;
}

int takeEarlyStopSignal() { return g_early.exchange(0); }

}  // namespace plumbline::engine
