#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/metrics/request_record.h"

namespace plumbline::tokenizer {
class Tokenizer;
}

namespace plumbline::engine {

/// The client's output-token count under the workload's prompt tokenizer: finished requests'
/// reply texts wait here and are tokenized later, in slices the worker fits between sends, so
/// tokenizing never delays a send or the reading of a stream. Each record leaves with
/// outputTokensClient = the tokenizer's count of the reply text received (streamed or whole
/// body), in the order the requests finished.
class ReplyTokenQueue {
 public:
  /// `tokenizer` outlives the queue; one thread uses both.
  explicit ReplyTokenQueue(tokenizer::Tokenizer& tokenizer);

  /// Whether a finished request carries reply text to count: any streamed content, or a
  /// non-streaming reply that succeeded. Others keep their counts as they are (-1: none).
  static bool hasReply(const metrics::RequestRecord& r, bool stream);

  /// Counts `reply` now (a session's parent: its children's context needs the count).
  int32_t countNow(std::string_view reply);
  /// Queues a record and its reply (copied into a reused buffer). `nowNs` starts its wait.
  /// `thought`: reasoning or tool-call text generated beside the reply, counted with it.
  void add(const metrics::RequestRecord& r, std::string_view reply, std::string_view thought,
           int64_t nowNs);
  void add(const metrics::RequestRecord& r, std::string_view reply, int64_t nowNs) {
    add(r, reply, {}, nowNs);
  }
  /// Counts queued replies, oldest first, while the estimated cost of the next one ends before
  /// `deadlineNs` (by `now()`); appends each counted record to `out`. At least one is counted
  /// when the oldest has waited `maxWaitNs` or more, so records are never held back forever.
  /// Returns how many were counted.
  size_t countUntil(int64_t deadlineNs, int64_t maxWaitNs, const std::function<int64_t()>& now,
                    std::vector<metrics::RequestRecord>& out);
  /// Counts everything queued (end of the run).
  void countAll(std::vector<metrics::RequestRecord>& out);

  bool empty() const { return m_queue.empty(); }
  size_t size() const { return m_queue.size(); }
  /// Estimated cost of counting the oldest queued reply, from the cost per byte seen so far.
  int64_t nextCostNs() const;

 private:
  struct Waiting {
    metrics::RequestRecord record;
    std::string reply;
    int64_t addedNs = 0;
  };
  void countFront(std::vector<metrics::RequestRecord>& out, const std::function<int64_t()>* now);

  tokenizer::Tokenizer& m_tokenizer;
  std::deque<Waiting> m_queue;
  std::vector<std::string> m_spare;  ///< reply buffers to reuse
  double m_nsPerByte = 100.0;        ///< pessimistic until measured
};

}  // namespace plumbline::engine
