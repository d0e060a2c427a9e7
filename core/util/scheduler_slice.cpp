#include "core/util/scheduler_slice.h"

#include <linux/sched.h>
#include <linux/sched/types.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace plumbline::util {

std::string setSchedulerSlice(int64_t sliceNs) {
  sched_attr attr{};
  attr.size = sizeof attr;
  attr.sched_policy = SCHED_NORMAL;
  attr.sched_runtime = static_cast<uint64_t>(sliceNs);
  if (syscall(SYS_sched_setattr, 0, &attr, 0) == 0) return {};
  return std::strerror(errno);
}

int64_t schedulerSliceOf(int tid) {
  sched_attr attr{};
  if (syscall(SYS_sched_getattr, tid, &attr, sizeof attr, 0) != 0) return -1;
  return static_cast<int64_t>(attr.sched_runtime);
}

}  // namespace plumbline::util
