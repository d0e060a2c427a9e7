#pragma once
#include <cstddef>

#include "core/engine/transfer.h"

namespace plumbline::engine {

/// Whether a new request should look for an idle kept-alive connection or open its own.
///
/// libcurl 7.88 finds a reusable connection by walking every connection it holds to the host
/// (url.c ConnectionExists), in use or not, on every new transfer. With thousands of streams
/// open and few idle connections that walk is O(open connections) per request and nearly
/// always finds nothing: perf on a worker holding ~4,500 streams put most of its CPU there
/// (docs/engine_figures.md, "20,000 concurrent streams"). A request should only search the
/// pool when an idle connection is likely to be met within kScanBudget steps.
struct ConnectionReuse {
  /// Steps of the pool walk a request may expect to pay for a reused connection.
  static constexpr size_t kScanBudget = 64;

  /// True when the request should open a fresh connection rather than search the pool.
  /// `open` counts the worker's client connections (busy and idle), `busy` its requests in
  /// flight (not counting this one). Small pools are always searched: the walk is short.
  static bool wantsFresh(size_t open, size_t busy) {
    const size_t idle = open > busy ? open - busy : 0;
    return (idle + 1) * kScanBudget <= open;
  }

  /// Applies the choice to a transfer about to be started (CURLOPT_FRESH_CONNECT: the
  /// connection is still kept alive afterwards and reused once the pool has idle ones).
  /// Only libcurl transfers (t.easy set); the native client has no such walk.
  static void apply(Transfer& t, size_t open, size_t busy);
};

}  // namespace plumbline::engine
