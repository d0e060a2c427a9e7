#pragma once
// What the mock's listener records each time accept() fails for want of a descriptor or of
// kernel memory (AcceptBackoff), in memory shared with the run that started it as its
// `embedded` target: that mock is the harness's own process, so its limit is the harness's,
// and the run must say so instead of blaming the server for the requests it never took.
#include <atomic>
#include <cstdint>

namespace plumbline::mock {

/// Written by the mock's loops, read by the run in another process: lock-free atomics only.
struct AcceptShortage {
  std::atomic<uint64_t> pauses{0};       ///< accept pauses taken (AcceptBackoff::kPauseNs each)
  std::atomic<int64_t> firstNs{-1};      ///< CLOCK_MONOTONIC of the first pause; -1: none yet
  std::atomic<int64_t> lastNs{-1};       ///< CLOCK_MONOTONIC of the latest pause
  std::atomic<int32_t> firstErrno{0};    ///< what the first failed accept() said
  std::atomic<int64_t> fdLimit{-1};      ///< the mock's soft RLIMIT_NOFILE then; -1: none set
  std::atomic<uint64_t> mostWaiting{0};  ///< the most connections seen waiting to be accepted

  /// One pause: accept() failed with `err` while `waiting` connections were in the backlog.
  void record(int err, uint64_t waiting, int64_t nowNs);
};

static_assert(std::atomic<uint64_t>::is_always_lock_free &&
                  std::atomic<int64_t>::is_always_lock_free &&
                  std::atomic<int32_t>::is_always_lock_free,
              "AcceptShortage is shared between processes: its atomics must not take locks");

/// An AcceptShortage in a memfd mapped shared: the run creates it and hands its descriptor to
/// the mock child (`plumbline mock --shortage-fd N`), which maps the same page.
class SharedAcceptShortage {
 public:
  /// A fresh one (descriptor close-on-exec); throws std::runtime_error.
  SharedAcceptShortage();
  /// Maps the one behind an inherited `fd` (kept open); throws std::runtime_error.
  explicit SharedAcceptShortage(int fd);
  ~SharedAcceptShortage();
  SharedAcceptShortage(const SharedAcceptShortage&) = delete;
  SharedAcceptShortage& operator=(const SharedAcceptShortage&) = delete;

  int fd() const { return m_fd; }
  AcceptShortage& get() { return *m_shared; }
  const AcceptShortage& get() const { return *m_shared; }

 private:
  void map();

  int m_fd = -1;
  AcceptShortage* m_shared = nullptr;
};

}  // namespace plumbline::mock
