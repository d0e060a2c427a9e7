// Fuzzes the studio's live-telemetry reader (core/live LiveStreamReader): any bytes, split at
// an arbitrary point, end in messages or a LiveProtocolError, never a crash, another
// exception type or an unbounded allocation; every message it accepts re-encodes and reads
// back.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/live/live_stream.h"

using namespace plumbline::live;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view all(reinterpret_cast<const char*>(data) + 1, size - 1);
  const size_t cut = data[0] % (all.size() + 1);
  LiveStreamReader reader;
  // Half the inputs get a valid greeting first, so the fuzzer reaches the frames quickly.
  if ((data[0] & 0x80) != 0) reader.feed(encodeLiveGreeting());
  try {
    reader.feed(all.substr(0, cut));
    while (auto m = reader.next()) {
      LiveStreamReader again;
      again.feed(encodeLiveGreeting());
      again.feed(encodeLiveFrame(*m));
      if (!again.next()) __builtin_trap();  // what was read must read back
    }
    reader.feed(all.substr(cut));
    while (auto m = reader.next()) {
    }
  } catch (const LiveProtocolError&) {
  }
  return 0;
}
