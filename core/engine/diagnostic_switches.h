#pragma once
// The benchmark-only environment switches that a run's child processes read (the workers, the
// embedded mock). They are checked once, before anything starts: a mistyped one is a usage
// error naming variable and value (exit 2, nothing written), not a worker or mock that dies
// when it reads the value mid-start.
#include <string>

namespace plumbline::engine {

inline constexpr const char* kArrivalStampsEnv = "PLUMBLINE_ARRIVAL_STAMPS";       ///< 0 | 1
inline constexpr const char* kWorkerSpinEnv = "PLUMBLINE_SPIN_MARGIN_US";          ///< fixed worker spin
inline constexpr const char* kMockSpinEnv = "PLUMBLINE_MOCK_SPIN_MARGIN_US";       ///< fixed mock spin
/// 0 | 1: the mock times requests from their read instead of their kernel arrival stamp.
inline constexpr const char* kMockArrivalEnv = "PLUMBLINE_MOCK_ARRIVAL_STAMPS";

/// Empty when every switch set in the environment holds a valid value; else what is wrong.
std::string diagnosticSwitchesError();

}  // namespace plumbline::engine
