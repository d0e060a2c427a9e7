#pragma once
// SIGINT/SIGTERM/SIGHUP caught from the very start of `plumbline run`, before the coordinator's own
// handlers exist (while the workload loads, the embedded target and the workers start): the
// signal is remembered instead of killing the run, and the coordinator acts on it as soon as
// its loop is ready, so a run stopped at any moment still ends in order.

namespace plumbline::engine {

/// Installs the remembering handler for SIGINT, SIGTERM and, unless hangupIgnored(), SIGHUP
/// (async-signal-safe). A closed terminal (SIGHUP) stops a run in order, as SIGTERM does.
void catchEarlyStopSignals();
/// Whether SIGHUP was ignored when this process started (nohup): the run then outlives its
/// terminal and SIGHUP is left ignored.
bool hangupIgnored();
/// The first stop signal caught since catchEarlyStopSignals(), or 0; clears it.
int takeEarlyStopSignal();

}  // namespace plumbline::engine
