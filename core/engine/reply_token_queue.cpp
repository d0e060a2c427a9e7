#include "core/engine/reply_token_queue.h"

#include <algorithm>
#include <climits>

#include "core/tokenizer/tokenizer.h"

namespace plumbline::engine {

namespace {
constexpr int64_t kFixedCostNs = 2'000;  ///< per reply, on top of the per-byte cost
constexpr size_t kMaxSpareBuffers = 256;
}  // namespace

ReplyTokenQueue::ReplyTokenQueue(tokenizer::Tokenizer& tokenizer) : m_tokenizer(tokenizer) {}

bool ReplyTokenQueue::hasReply(const metrics::RequestRecord& r, bool stream) {
  return stream ? r.firstTokenNs >= 0 : r.ok();
}

int32_t ReplyTokenQueue::countNow(std::string_view reply) {
  return static_cast<int32_t>(std::min<size_t>(m_tokenizer.countTokens(reply), INT32_MAX));
}

void ReplyTokenQueue::add(const metrics::RequestRecord& r, std::string_view reply,
                          std::string_view thought, int64_t nowNs) {
  Waiting w{r, {}, nowNs};
  if (!m_spare.empty()) {
    w.reply = std::move(m_spare.back());
    m_spare.pop_back();
  }
  w.reply.assign(reply);
  if (!thought.empty()) {  // a word boundary, so that neither text's last token merges
    w.reply.push_back('\n');
    w.reply.append(thought);
  }
  m_queue.push_back(std::move(w));
}

int64_t ReplyTokenQueue::nextCostNs() const {
  if (m_queue.empty()) return 0;
  return kFixedCostNs + static_cast<int64_t>(m_nsPerByte * static_cast<double>(m_queue.front().reply.size()));
}

void ReplyTokenQueue::countFront(std::vector<metrics::RequestRecord>& out, const std::function<int64_t()>* now) {
  Waiting& w = m_queue.front();
  const int64_t start = now ? (*now)() : 0;
  w.record.outputTokensClient = countNow(w.reply);
  if (now != nullptr && w.reply.size() >= 64) {
    // Learn the cost per byte (an average that follows changes in reply text and machine load).
    const double sample = static_cast<double>((*now)() - start) / static_cast<double>(w.reply.size());
    m_nsPerByte = 0.8 * m_nsPerByte + 0.2 * sample;
  }
  out.push_back(w.record);
  if (m_spare.size() < kMaxSpareBuffers) {
    w.reply.clear();
    m_spare.push_back(std::move(w.reply));
  }
  m_queue.pop_front();
}

size_t ReplyTokenQueue::countUntil(int64_t deadlineNs, int64_t maxWaitNs, const std::function<int64_t()>& now,
                                   std::vector<metrics::RequestRecord>& out) {
  size_t counted = 0;
  while (!m_queue.empty()) {
    const int64_t t = now();
    const bool overdue = t - m_queue.front().addedNs >= maxWaitNs;
    if (!overdue && t + nextCostNs() > deadlineNs) break;
    countFront(out, &now);
    ++counted;
    if (overdue && t >= deadlineNs) break;  // one overdue reply per call past the deadline
  }
  return counted;
}

void ReplyTokenQueue::countAll(std::vector<metrics::RequestRecord>& out) {
  while (!m_queue.empty()) countFront(out, nullptr);
}

}  // namespace plumbline::engine
