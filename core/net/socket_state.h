#pragma once
// What a non-blocking socket holds, asked of the kernel without reading it: for a client whose
// loop was held (stopped, or without a CPU) to learn what came meanwhile before it judges a
// timeout.

namespace plumbline::net {

/// How a non-blocking connect ended: 0, or its errno (SO_ERROR).
int connectError(int fd);

/// Whether a connect in progress has ended (connected or failed).
bool connectSettled(int fd);

/// Whether a read would return at once: bytes waiting, the peer's close, or an error.
bool readWaiting(int fd);

}  // namespace plumbline::net
