#pragma once
#include <event2/event.h>

namespace plumbline::engine {

/// Arms `timer` to fire `after` from now. libevent adds the delay to the time it cached when the
/// loop turn began, not to now: a callback that ran long (a worker held up in its send callback,
/// stopped or without a CPU, then sending what fell due meanwhile) would have the timers it
/// arms fire early by as long as the turn had run (a request's timeout, 33 ms after its send).
inline void addTimerFromNow(event_base* base, event* timer, const timeval* after) {
  event_base_update_cache_time(base);
  evtimer_add(timer, after);
}

}  // namespace plumbline::engine
