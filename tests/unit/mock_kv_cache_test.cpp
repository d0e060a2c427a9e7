// The simulated KV cache: block accounting, prefix reuse, LRU eviction of cached blocks.
#include <gtest/gtest.h>

#include "core/mock/kv_cache.h"

namespace {

using plumbline::mock::KvCache;

TEST(KvCache, AllocatesAllOrNothing) {
  KvCache kv(10, true);
  std::vector<int32_t> a;
  EXPECT_TRUE(kv.allocate(6, a));
  EXPECT_EQ(kv.usedBlocks(), 6);
  std::vector<int32_t> b;
  EXPECT_FALSE(kv.allocate(5, b));
  EXPECT_TRUE(b.empty());
  kv.release(a);
  EXPECT_EQ(kv.usedBlocks(), 0);
  EXPECT_TRUE(kv.allocate(10, b));
}

TEST(KvCache, PublishedBlocksAreReusedByTheSamePrefix) {
  KvCache kv(10, true);
  std::vector<int32_t> a;
  ASSERT_TRUE(kv.allocate(3, a));
  kv.publish(a[0], 11);
  kv.publish(a[1], 12);
  const std::vector<int32_t> first = a;
  kv.release(a);
  EXPECT_EQ(kv.cachedBlocks(), 2);
  EXPECT_EQ(kv.availableBlocks(), 10);  // cached blocks are still available to allocation
  std::vector<int32_t> b;
  const std::vector<uint64_t> same{11, 12, 13};
  EXPECT_EQ(kv.takeCachedPrefix(same, b), 2);
  EXPECT_EQ(b[0], first[0]);
  EXPECT_EQ(b[1], first[1]);
  EXPECT_EQ(kv.usedBlocks(), 2);
  std::vector<int32_t> c;
  const std::vector<uint64_t> other{12};  // not a prefix: chained hashes differ by position
  EXPECT_EQ(kv.takeCachedPrefix(std::vector<uint64_t>{99, 12}, c), 0);
  EXPECT_EQ(kv.takeCachedPrefix(other, c), 1);  // shared with b
  EXPECT_EQ(kv.usedBlocks(), 2);
}

TEST(KvCache, EvictsTheLeastRecentlyReleasedCachedBlockFirst) {
  KvCache kv(3, true);
  std::vector<int32_t> a;
  std::vector<int32_t> b;
  ASSERT_TRUE(kv.allocate(1, a));
  ASSERT_TRUE(kv.allocate(1, b));
  kv.publish(a[0], 1);
  kv.publish(b[0], 2);
  kv.release(a);  // released first: evicted first
  kv.release(b);
  std::vector<int32_t> c;
  ASSERT_TRUE(kv.allocate(2, c));  // the free block, then hash 1's block
  std::vector<int32_t> d;
  EXPECT_EQ(kv.takeCachedPrefix(std::vector<uint64_t>{1}, d), 0);
  EXPECT_EQ(kv.takeCachedPrefix(std::vector<uint64_t>{2}, d), 1);
}

TEST(KvCache, WithoutPrefixCachingNothingIsReused) {
  KvCache kv(4, false);
  std::vector<int32_t> a;
  ASSERT_TRUE(kv.allocate(1, a));
  kv.publish(a[0], 7);
  kv.release(a);
  EXPECT_EQ(kv.takeCachedPrefix(std::vector<uint64_t>{7}, a), 0);
  EXPECT_EQ(kv.cachedBlocks(), 0);
}

}  // namespace
