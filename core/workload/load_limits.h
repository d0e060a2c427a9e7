#pragma once
// The load limits README "Workloads" documents, shared by stages, replays and session delays.

namespace plumbline::workload {

/// Beyond this the plan preview and the schedule would take minutes and gigabytes (the
/// preview holds every planned instant: 1e8 of them are ~0.8 GB).
constexpr double kMaxExpectedSessions = 1e8;
/// Far beyond what one machine can send (the coordinator hands out a second of sessions at a
/// time, so this also bounds what it holds at once).
constexpr double kMaxRate = 1e6;
/// A schedule, a think time or a timeout longer than this (~116 days) is a typo; every time in
/// the engine is int64 nanoseconds, which end at ~292 years.
constexpr double kMaxSeconds = 1e7;
/// A length distribution's `max` unless set, and the most a replayed trace row may ask for.
constexpr double kMaxRowTokens = 1e6;

}  // namespace plumbline::workload
