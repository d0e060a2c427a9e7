#pragma once
// One simulated GPU shared by every event loop of the mock: a dedicated thread steps the
// EngineModel in real time (absolute deadlines, so the model's clock does not drift) and
// hands each step's tokens back to the loop that owns the request.
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/mock/engine_model.h"

namespace plumbline::mock {

/// Thread-safe front of the engine. Sequence ids carry their loop's index in bits 48..63
/// (MockLoop::nextId), which routes their tokens to that loop's mailbox.
class EngineScheduler {
 public:
  EngineScheduler(const EngineParams& params, int loops);
  ~EngineScheduler();
  EngineScheduler(const EngineScheduler&) = delete;
  EngineScheduler& operator=(const EngineScheduler&) = delete;

  void start();
  /// Stops the thread (within one step); idempotent.
  void stop();

  bool fits(int64_t promptTokens, int64_t outputTokens) const { return m_model.fits(promptTokens, outputTokens); }
  int blockTokens() const { return m_model.params().blockTokens; }
  /// Any thread: the request joins the waiting queue at the next step.
  void submit(SequenceSpec spec);
  /// Any thread: the request leaves the engine at the next step.
  void cancel(uint64_t id);
  /// An eventfd that becomes readable when `loop` has emissions to take.
  int wakeFd(int loop) const { return m_mailboxes[static_cast<size_t>(loop)]->fd; }
  /// Moves `loop`'s pending emissions into `out` (cleared first) and resets its eventfd.
  void takeEmissions(int loop, std::vector<TokenEmission>& out);
  /// The engine's counters as of the last step.
  EngineCounters counters() const;

  static int loopOf(uint64_t id) { return static_cast<int>(id >> 48); }

 private:
  struct Mailbox {
    std::mutex mutex;
    std::vector<TokenEmission> items;
    int fd = -1;
  };

  void run();
  bool waitForWork(std::vector<SequenceSpec>& submitted, std::vector<uint64_t>& cancelled);
  void dispatch(const std::vector<TokenEmission>& emissions);

  EngineModel m_model;  ///< touched only by the scheduler thread (fits() reads constants)
  std::vector<std::unique_ptr<Mailbox>> m_mailboxes;
  mutable std::mutex m_mutex;  ///< guards the inbox, m_stopping and m_counters
  std::condition_variable m_wake;
  std::vector<SequenceSpec> m_submitted;
  std::vector<uint64_t> m_cancelled;
  bool m_stopping = false;
  bool m_busy = false;  ///< the model has work (written by the scheduler thread under m_mutex)
  EngineCounters m_counters;
  std::thread m_thread;
};

}  // namespace plumbline::mock
