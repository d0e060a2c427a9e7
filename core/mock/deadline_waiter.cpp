#include "core/mock/deadline_waiter.h"

namespace plumbline::mock {
namespace {
/// The mock writes a token with no further work of its own after the wait, so it aims
/// closer than the worker's send path does.
engine::SpinMargin::Params mockParams() {
  engine::SpinMargin::Params p;
  p.lagGoalNs = 10'000;
  return p;
}
}  // namespace

DeadlineWaiter::DeadlineWaiter() : m_margin(mockParams()) {}

}  // namespace plumbline::mock
