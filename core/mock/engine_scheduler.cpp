#include "core/mock/engine_scheduler.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <stdexcept>

#include "core/util/clock.h"

namespace plumbline::mock {
namespace {

// A step that starts less than this after the previous one ended is taken to start when it
// ended: the scheduler's own wake-up latency must not stretch the model's steps.
constexpr int64_t kContinuousGapNs = 2'000'000;

void sleepUntil(int64_t deadlineNs) {
  const timespec ts{static_cast<time_t>(deadlineNs / 1'000'000'000), static_cast<long>(deadlineNs % 1'000'000'000)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

}  // namespace

EngineScheduler::EngineScheduler(const EngineParams& params, int loops) : m_model(params) {
  for (int i = 0; i < loops; ++i) {
    auto box = std::make_unique<Mailbox>();
    box->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (box->fd < 0) throw std::runtime_error("mock: cannot create an engine mailbox");
    m_mailboxes.push_back(std::move(box));
  }
}

EngineScheduler::~EngineScheduler() {
  stop();
  for (auto& box : m_mailboxes) close(box->fd);
}

void EngineScheduler::start() { m_thread = std::thread([this] { run(); }); }

void EngineScheduler::stop() {
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
  }
  m_wake.notify_all();
  if (m_thread.joinable()) m_thread.join();
}

void EngineScheduler::submit(SequenceSpec spec) {
  {
    std::lock_guard lock(m_mutex);
    m_submitted.push_back(std::move(spec));
  }
  m_wake.notify_one();
}

void EngineScheduler::cancel(uint64_t id) {
  {
    std::lock_guard lock(m_mutex);
    m_cancelled.push_back(id);
  }
  m_wake.notify_one();
}

void EngineScheduler::takeEmissions(int loop, std::vector<TokenEmission>& out) {
  Mailbox& box = *m_mailboxes[static_cast<size_t>(loop)];
  uint64_t count = 0;
  [[maybe_unused]] const ssize_t n = read(box.fd, &count, sizeof count);
  out.clear();
  std::lock_guard lock(box.mutex);
  out.swap(box.items);
}

EngineCounters EngineScheduler::counters() const {
  std::lock_guard lock(m_mutex);
  return m_counters;
}

bool EngineScheduler::waitForWork(std::vector<SequenceSpec>& submitted, std::vector<uint64_t>& cancelled) {
  std::unique_lock lock(m_mutex);
  m_counters = m_model.counters();
  m_wake.wait(lock, [&] { return m_stopping || m_busy || !m_submitted.empty() || !m_cancelled.empty(); });
  if (m_stopping) return false;
  submitted.swap(m_submitted);
  cancelled.swap(m_cancelled);
  return true;
}

void EngineScheduler::run() {
  std::vector<SequenceSpec> submitted;
  std::vector<uint64_t> cancelled;
  int64_t stepEnd = 0;
  while (waitForWork(submitted, cancelled)) {
    // Submissions first: a request cancelled right after it was submitted must still go.
    for (auto& spec : submitted) m_model.submit(std::move(spec));
    for (uint64_t id : cancelled) m_model.cancel(id);
    submitted.clear();
    cancelled.clear();
    const StepOutcome outcome = m_model.step();
    {
      std::lock_guard lock(m_mutex);
      m_busy = !m_model.idle();
    }
    if (outcome.durationNs == 0) continue;
    const int64_t now = util::monotonicNs();
    const int64_t start = now - stepEnd < kContinuousGapNs ? stepEnd : now;
    stepEnd = start + outcome.durationNs;
    sleepUntil(stepEnd);
    dispatch(outcome.emissions);
  }
}

void EngineScheduler::dispatch(const std::vector<TokenEmission>& emissions) {
  std::vector<bool> woken(m_mailboxes.size(), false);
  for (const TokenEmission& e : emissions) {
    const auto loop = static_cast<size_t>(loopOf(e.id));
    if (loop >= m_mailboxes.size()) continue;
    Mailbox& box = *m_mailboxes[loop];
    std::lock_guard lock(box.mutex);
    box.items.push_back(e);
    woken[loop] = true;
  }
  const uint64_t one = 1;
  for (size_t i = 0; i < woken.size(); ++i) {
    if (woken[i]) {
      [[maybe_unused]] const ssize_t n = write(m_mailboxes[i]->fd, &one, sizeof one);
    }
  }
}

}  // namespace plumbline::mock
