#pragma once
// `plumbline live-tap SOCKET [--raw FILE]` (hidden): a minimal live-telemetry client for
// recording fixtures and debugging. Prints each message as one JSON line.
#include <iosfwd>
#include <string>

namespace plumbline::live {

struct LiveTapOptions {
  std::string socketPath;
  std::string rawPath;     ///< non-empty: also save every byte received here
  double waitS = 0;        ///< keep trying to connect this long (the run may not listen yet)
};

/// Returns 0 after an End frame and the server's close, 1 if the stream stops before End,
/// 2 if the socket cannot be reached or the stream is invalid (the error names the offset).
int liveTapCommand(const LiveTapOptions& options, std::ostream& out, std::ostream& err);

}  // namespace plumbline::live
