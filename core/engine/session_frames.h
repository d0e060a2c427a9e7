#pragma once
// Payloads of the session frames (protocol.h: SessionGraphs, SessionProgress).
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine/protocol.h"
#include "core/workload/planner.h"

namespace plumbline::engine {

/// SessionGraphs: u32 n, then per session: u64 id, i64 planned, u32 input, u32 output,
/// u32 stage, u32 prefix group, u32 prefix tokens, u32 b, b × u32 prompt block hash id,
/// u32 m, then m requests:
/// u32 k, k × u32 parent (each < its own index), i64 delay ns, u32 new tokens,
/// u32 output tokens, u8 text kind.
std::string encodeSessionGraphs(const std::vector<workload::SessionPlan>& sessions);
/// Throws ProtocolError naming what is wrong (truncated, parent out of order, bad kind).
std::vector<workload::SessionPlan> decodeSessionGraphs(std::string_view payload);

/// Why a planned request of a session was not sent.
enum class NotSentReason : uint8_t { RunEnded = 0, ParentFailed = 1 };

/// What a worker's sessions did since its last report: dependent requests that became due
/// (by window of the instant they became due: their planned time), and requests given up.
struct SessionProgress {
  std::map<int64_t, uint64_t> dueByWindow;
  /// The same requests by slice of their planned time (protocol::kRateSliceNs), for live rates.
  std::map<int64_t, uint64_t> dueBySlice;
  uint64_t notSentRunEnded = 0;
  uint64_t notSentParentFailed = 0;
  void countDue(int64_t plannedNs, int64_t windowNs) {
    ++dueByWindow[plannedNs / windowNs];
    ++dueBySlice[plannedNs / protocol::kRateSliceNs];
  }
  bool empty() const { return dueByWindow.empty() && notSentRunEnded == 0 && notSentParentFailed == 0; }
};
std::string encodeSessionProgress(const SessionProgress& p);
SessionProgress decodeSessionProgress(std::string_view payload);

}  // namespace plumbline::engine
