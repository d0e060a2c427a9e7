#pragma once
#include <cstdint>
#include <vector>

namespace plumbline::workload {

/// What the new text of a request is, which decides how its conversation is built.
enum class RequestText : uint8_t {
  UserMessage = 0,  ///< multi_turn turn, tree node, agentic task: parent's conversation + reply + this
  ToolResult = 1,   ///< agentic step: parent's conversation + reply + a tool result of this length
  Chunk = 2,        ///< summarize map: a document chunk on its own
  Reduce = 3,       ///< summarize reduce: the parents' replies (their actual texts), nothing drawn
  /// Like UserMessage, but the text is the session's ShareGPT conversation's human turn of
  /// exchange k, k = this request's index (0: the prompt; multi_turn turn k: exchange k).
  DatasetTurn = 4,
};

/// One request of a session, planned ahead (lengths and delays drawn from the seed). It is
/// sent when every parent has completed, delayNs after the last of them ended; a request
/// without parents is sent at the session's planned instant.
struct SessionRequest {
  std::vector<uint32_t> parents;  ///< indices of earlier requests of the same session
  int64_t delayNs = 0;            ///< think time or tool latency after the parents
  uint32_t newTokens = 0;         ///< length of the new text (0 for Reduce)
  uint32_t outputTokens = 0;      ///< max_tokens asked for
  RequestText text = RequestText::UserMessage;
};

}  // namespace plumbline::workload
