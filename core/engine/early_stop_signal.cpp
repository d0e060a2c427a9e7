#include "core/engine/early_stop_signal.h"

#include <atomic>
#include <csignal>

namespace plumbline::engine {
namespace {

std::atomic<int> g_early{0};

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
}

int takeEarlyStopSignal() { return g_early.exchange(0); }

}  // namespace plumbline::engine
