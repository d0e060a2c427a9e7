#pragma once
#include <cstdint>

namespace plumbline::util {

/// How long the calling thread has waited, runnable, for a CPU that something else held
/// (the kernel's run-queue delay, `/proc/thread-self/schedstat`, second field). A worker that
/// sends late while this grows was not slow: other processes or threads ran on its core. The
/// file stays open; each reading is one pread. Read it only from the thread that created it.
class CpuWait {
 public:
  CpuWait();
  ~CpuWait();
  CpuWait(const CpuWait&) = delete;
  CpuWait& operator=(const CpuWait&) = delete;

  /// Total nanoseconds waited since the thread started, or -1 where the kernel does not say
  /// (no /proc, or a kernel without scheduler statistics).
  int64_t totalNs() const;
  bool available() const { return m_fd >= 0; }

  /// Parses the text of a schedstat file ("<on-cpu ns> <waiting ns> <slices>"); -1 if it is
  /// not that.
  static int64_t parseWaitNs(const char* text, long length);

 private:
  int m_fd = -1;
};

}  // namespace plumbline::util
