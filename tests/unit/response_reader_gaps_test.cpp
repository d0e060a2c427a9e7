// Inter-token gaps join the run's figures only for streams that completed, as TTFT and
// end-to-end do (QA: a 100 ms trickle that then timed out moved the inter-token p99 from ~10 ms
// to 100 ms, while TTFT and end-to-end counted the completed requests only).
#include <gtest/gtest.h>

#include <string>

#include "core/engine/response_reader.h"
#include "core/engine/transfer.h"
#include "core/engine/worker_config.h"

namespace plumbline::engine {
namespace {

constexpr int64_t kMs = 1'000'000;

/// A chat stream of `tokens` content events, one every `gapMs`, read by `reader`.
void streamTokens(ResponseReader& reader, Transfer& t, int tokens, int64_t gapMs) {
  t.resetForRequest();
  t.status = 200;
  t.statusKnown = true;
  const std::string event = "data: {\"choices\":[{\"delta\":{\"content\":\"tok\"}}]}\n\n";
  for (int i = 0; i < tokens; ++i)
    reader.onBody(t, event.data(), event.size(), (i + 1) * gapMs * kMs);
}

TEST(ResponseReaderGaps, ACompletedStreamsGapsAreCounted) {
  WorkerConfig config;
  config.stream = true;
  ResponseReader reader(config);
  Transfer t;
  streamTokens(reader, t, 5, 10);
  EXPECT_EQ(reader.itl().count(), 0u);  // not before the outcome is known
  const std::string done = "data: [DONE]\n\n";
  reader.onBody(t, done.data(), done.size(), 60 * kMs);
  reader.finishCompleted(t);
  ASSERT_TRUE(t.record.ok());
  reader.settleGaps(t);
  EXPECT_EQ(reader.itl().count(), 4u);
  EXPECT_NEAR(static_cast<double>(reader.itl().percentile(0.5)), 10.0 * kMs, 0.01 * 10 * kMs);
  EXPECT_TRUE(t.itlGapsNs.empty());
}

TEST(ResponseReaderGaps, AFailedStreamsGapsAreNot) {
  WorkerConfig config;
  config.stream = true;
  ResponseReader reader(config);
  Transfer t;
  streamTokens(reader, t, 30, 100);  // a trickle, then the timeout
  t.record.error = metrics::ErrorClass::Timeout;
  reader.settleGaps(t);
  EXPECT_EQ(reader.itl().count(), 0u);
  EXPECT_TRUE(t.itlGapsNs.empty());
  // The transfer's next request starts with no gaps of the last one.
  streamTokens(reader, t, 3, 5);
  EXPECT_EQ(t.itlGapsNs.size(), 2u);
}

}  // namespace
}  // namespace plumbline::engine
