#include "core/util/background_thread.h"

#include <pthread.h>
#include <sched.h>

namespace plumbline::util {

namespace {
bool setPolicy(int policy, int priority) {
  sched_param param{};
  param.sched_priority = priority;
  return pthread_setschedparam(pthread_self(), policy, &param) == 0;
}
}  // namespace

bool markBackgroundThread(const char* name) {
  pthread_setname_np(pthread_self(), name);
  return setPolicy(SCHED_BATCH, 0);
}

BackgroundScheduling::BackgroundScheduling() {
  sched_param param{};
  if (pthread_getschedparam(pthread_self(), &m_previousPolicy, &param) != 0) return;
  m_previousPriority = param.sched_priority;
  if (m_previousPolicy != SCHED_OTHER) return;  // already chosen by whoever started us: keep it
  m_active = setPolicy(SCHED_BATCH, 0);
}

BackgroundScheduling::~BackgroundScheduling() {
  if (m_active) setPolicy(m_previousPolicy, m_previousPriority);
}

}  // namespace plumbline::util
