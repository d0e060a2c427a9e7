#include "core/engine/connection_reuse.h"

#include <gtest/gtest.h>

using plumbline::engine::ConnectionReuse;

TEST(ConnectionReuse, SmallPoolsAreAlwaysSearched) {
  EXPECT_FALSE(ConnectionReuse::wantsFresh(0, 0));
  EXPECT_FALSE(ConnectionReuse::wantsFresh(10, 10));  // nothing idle, but the walk is short
  EXPECT_FALSE(ConnectionReuse::wantsFresh(63, 63));
}

TEST(ConnectionReuse, ABusyLargePoolOpensFreshConnections) {
  EXPECT_TRUE(ConnectionReuse::wantsFresh(64, 64));
  EXPECT_TRUE(ConnectionReuse::wantsFresh(10'000, 10'000));
  EXPECT_TRUE(ConnectionReuse::wantsFresh(10'000, 9'990));  // 10 idle among 10,000: ~900 steps
}

TEST(ConnectionReuse, ALargePoolWithEnoughIdleConnectionsIsSearched) {
  // 10,000 open, 156 idle: an idle one is expected within 64 steps.
  EXPECT_FALSE(ConnectionReuse::wantsFresh(10'000, 10'000 - 156));
  EXPECT_FALSE(ConnectionReuse::wantsFresh(10'000, 0));
  EXPECT_TRUE(ConnectionReuse::wantsFresh(10'000, 10'000 - 155));
}

TEST(ConnectionReuse, MoreRequestsThanConnectionsCountsNothingIdle) {
  // Requests still connecting hold no socket yet: busy can exceed open.
  EXPECT_TRUE(ConnectionReuse::wantsFresh(1'000, 1'200));
  EXPECT_FALSE(ConnectionReuse::wantsFresh(20, 30));
}
