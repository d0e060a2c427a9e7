#include "core/engine/session_frames.h"

#include "core/engine/frame_codec.h"

namespace plumbline::engine {
namespace {
constexpr size_t kSessionHeadSize = 8 + 8 + 4 * 7;
constexpr size_t kRequestMinSize = 4 + 8 + 4 + 4 + 1;
}  // namespace

std::string encodeSessionGraphs(const std::vector<workload::SessionPlan>& sessions) {
  std::string out;
  PayloadWriter w(out);
  w.u32(static_cast<uint32_t>(sessions.size()));
  for (const auto& s : sessions) {
    encodeSessionHead(w, s);
    w.u32(s.prefixGroup);
    w.u32(s.prefixTokens);
    w.u32(static_cast<uint32_t>(s.promptBlocks.size()));
    for (uint32_t id : s.promptBlocks) w.u32(id);
    w.u32(static_cast<uint32_t>(s.requests.size()));
    for (const auto& r : s.requests) {
      w.u32(static_cast<uint32_t>(r.parents.size()));
      for (uint32_t p : r.parents) w.u32(p);
      w.i64(r.delayNs);
      w.u32(r.newTokens);
      w.u32(r.outputTokens);
      w.u8(static_cast<uint8_t>(r.text));
    }
  }
  return out;
}

std::vector<workload::SessionPlan> decodeSessionGraphs(std::string_view payload) {
  PayloadReader r(payload, "session graphs frame");
  const uint32_t n = r.u32();
  r.expectAtLeast(n, kSessionHeadSize);
  std::vector<workload::SessionPlan> out(n);
  for (auto& s : out) {
    decodeSessionHead(r, s);
    s.prefixGroup = r.u32();
    s.prefixTokens = r.u32();
    const uint32_t blocks = r.u32();
    r.expectAtLeast(blocks, 4);
    s.promptBlocks.resize(blocks);
    for (uint32_t& id : s.promptBlocks) id = r.u32();
    const uint32_t m = r.u32();
    r.expectAtLeast(m, kRequestMinSize);
    s.requests.resize(m);
    for (uint32_t i = 0; i < m; ++i) {
      auto& q = s.requests[i];
      const uint32_t k = r.u32();
      r.expectAtLeast(k, 4);
      for (uint32_t j = 0; j < k; ++j) {
        const uint32_t parent = r.u32();
        if (parent >= i)
          throw ProtocolError("session graphs frame: request " + std::to_string(i) + " of session " +
                              std::to_string(s.id) + " depends on request " + std::to_string(parent) +
                              ", which is not earlier");
        q.parents.push_back(parent);
      }
      q.delayNs = r.i64();
      if (q.delayNs < 0) throw ProtocolError("session graphs frame: negative delay");
      q.newTokens = r.u32();
      q.outputTokens = r.u32();
      const uint8_t text = r.u8();
      if (text > static_cast<uint8_t>(workload::RequestText::DatasetTurn))
        throw ProtocolError("session graphs frame: unknown request text kind " + std::to_string(text));
      q.text = static_cast<workload::RequestText>(text);
    }
  }
  r.expectEnd();
  return out;
}

std::string encodeSessionProgress(const SessionProgress& p) {
  std::string out;
  PayloadWriter w(out);
  for (const auto* due : {&p.dueByWindow, &p.dueBySlice}) {
    w.u32(static_cast<uint32_t>(due->size()));
    for (const auto& [index, count] : *due) {
      w.i64(index);
      w.u64(count);
    }
  }
  w.u64(p.notSentRunEnded);
  w.u64(p.notSentParentFailed);
  return out;
}

SessionProgress decodeSessionProgress(std::string_view payload) {
  PayloadReader r(payload, "session progress frame");
  SessionProgress p;
  for (auto* due : {&p.dueByWindow, &p.dueBySlice}) {
    const uint32_t n = r.u32();
    r.expectAtLeast(n, 16);
    for (uint32_t i = 0; i < n; ++i) {
      const int64_t index = r.i64();
      if (index < 0)
        throw ProtocolError("session progress frame: a request due before the run began");
      (*due)[index] += r.u64();
    }
  }
  p.notSentRunEnded = r.u64();
  p.notSentParentFailed = r.u64();
  r.expectEnd();
  return p;
}

}  // namespace plumbline::engine
