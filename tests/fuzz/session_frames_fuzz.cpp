// Fuzzes the session-frame payload decoders (core/engine/session_frames.h): any payload must
// decode or throw ProtocolError, never crash or allocate without bound; a decoded graph must
// re-encode to the same bytes, and decoded progress must survive re-encoding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/engine/frame_codec.h"
#include "core/engine/session_frames.h"

using namespace plumbline::engine;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  // The first byte picks the decoder; the rest is the payload.
  const bool graphs = (data[0] & 1) == 0;
  const std::string_view payload(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    if (graphs) {
      const auto sessions = decodeSessionGraphs(payload);
      for (const auto& s : sessions)
        for (size_t i = 0; i < s.requests.size(); ++i)
          for (uint32_t parent : s.requests[i].parents)
            if (parent >= i) __builtin_trap();  // the decoder promises parents come first
      if (encodeSessionGraphs(sessions) != payload) __builtin_trap();
    } else {
      const SessionProgress p = decodeSessionProgress(payload);
      const SessionProgress back = decodeSessionProgress(encodeSessionProgress(p));
      if (back.dueByWindow != p.dueByWindow || back.notSentRunEnded != p.notSentRunEnded ||
          back.notSentParentFailed != p.notSentParentFailed)
        __builtin_trap();
    }
  } catch (const ProtocolError&) {
  }
  return 0;
}
