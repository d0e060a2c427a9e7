#pragma once
#include <string>

namespace plumbline::engine {

/// A listening, non-blocking Unix stream socket at path. Throws LiveServerError naming the
/// path and the reason when it cannot be used. A stale socket file (nobody accepts on it)
/// is replaced; anything else at the path is left alone.
int listenOnUnixSocket(const std::string& path);

}  // namespace plumbline::engine
