#include "core/util/scheduler_slice.h"

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace plumbline::util {

namespace {
/// The kernel's struct sched_attr (include/uapi/linux/sched/types.h, size 56 since Linux 5.3),
/// declared here: <linux/sched/types.h> redefines struct sched_param next to <sched.h>.
struct SchedulerAttr {
  uint32_t size;
  uint32_t policy;
  uint64_t flags;
  int32_t nice;
  uint32_t priority;
  uint64_t runtime;  ///< the slice asked for, under the normal policy (EEVDF, Linux 6.12+)
  uint64_t deadline;
  uint64_t period;
  uint32_t utilMin;
  uint32_t utilMax;
};
static_assert(sizeof(SchedulerAttr) == 56);
}  // namespace

std::string setSchedulerSlice(int64_t sliceNs) {
  SchedulerAttr attr{};
  attr.size = sizeof attr;
  attr.policy = SCHED_OTHER;
  attr.runtime = static_cast<uint64_t>(sliceNs);
  if (syscall(SYS_sched_setattr, 0, &attr, 0) == 0) return {};
  return std::strerror(errno);
}

int64_t schedulerSliceOf(int tid) {
  SchedulerAttr attr{};
  if (syscall(SYS_sched_getattr, tid, &attr, sizeof attr, 0) != 0) return -1;
  return static_cast<int64_t>(attr.runtime);
}

}  // namespace plumbline::util
