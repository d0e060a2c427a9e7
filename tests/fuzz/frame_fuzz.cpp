// Fuzzes the worker ⇄ coordinator frame reader and every payload decoder: any input must end
// in frames or a ProtocolError, never a crash or an unbounded allocation.
#include <cstddef>
#include <cstdint>

#include "core/engine/frame_codec.h"
#include "core/engine/session_frames.h"

using namespace plumbline::engine;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FrameReader reader;
  // Half the inputs get a valid greeting first, so the fuzzer reaches the frames quickly.
  if (size > 0 && (data[0] & 1) != 0) {
    const std::string g = greeting();
    reader.feed(g.data(), g.size());
  }
  reader.feed(reinterpret_cast<const char*>(data), size);
  try {
    while (auto f = reader.next()) {
      switch (f->type) {
        case protocol::FrameType::Sessions: decodeSessions(f->payload); break;
        case protocol::FrameType::Records: decodeRecords(f->payload); break;
        case protocol::FrameType::Stats: decodeStats(f->payload); break;
        case protocol::FrameType::Done: decodeDone(f->payload); break;
        case protocol::FrameType::Stop: decodeStop(f->payload); break;
        case protocol::FrameType::SessionGraphs: decodeSessionGraphs(f->payload); break;
        case protocol::FrameType::SessionProgress: decodeSessionProgress(f->payload); break;
        case protocol::FrameType::FailureSample:
          decodeFailureSample(f->payload);
          break;
        default: break;
      }
    }
  } catch (const ProtocolError&) {
  }
  return 0;
}
