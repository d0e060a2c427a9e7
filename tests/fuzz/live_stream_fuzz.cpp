// Fuzzes the live-telemetry stream reader (core/live/live_stream.h): any input must end in
// messages or a LiveProtocolError, never a crash, a hang or an unbounded allocation; and
// every message it accepts must survive re-encoding unchanged.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/live/live_stream.h"

using namespace plumbline::live;

namespace {

void checkRoundTrip(const LiveMessage& m) {
  LiveStreamReader again;
  again.feed(encodeLiveGreeting());
  again.feed(encodeLiveFrame(m));
  auto back = again.next();
  if (!back || !(*back == m)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  LiveStreamReader reader;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  // The first byte steers: bit 0 prepends a valid greeting (to reach the frames quickly),
  // the rest picks the chunk size the input is fed in (incremental reading).
  size_t chunk = 1 << 20;
  if (!in.empty()) {
    const auto steer = static_cast<uint8_t>(in[0]);
    if ((steer & 1) != 0) reader.feed(encodeLiveGreeting());
    chunk = (steer >> 1) == 0 ? in.size() + 1 : (steer >> 1);
    in.remove_prefix(1);
  }
  try {
    for (size_t at = 0; at < in.size() || at == 0; at += chunk) {
      reader.feed(in.substr(at, chunk));
      while (auto m = reader.next()) checkRoundTrip(*m);
      if (in.empty()) break;
    }
  } catch (const LiveProtocolError&) {
  }
  return 0;
}
