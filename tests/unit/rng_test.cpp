#include <gtest/gtest.h>

#include "core/util/rng.h"

using plumbline::util::Rng;

TEST(Rng, SameSeedSameSequence) {
  Rng a(42), b(42);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(a.nextU64(), b.nextU64());
}

TEST(Rng, StreamsDifferAndRepeat) {
  Rng a = Rng::forStream(7, 1), b = Rng::forStream(7, 2), c = Rng::forStream(7, 1);
  uint64_t x = a.nextU64();
  EXPECT_NE(x, b.nextU64());
  EXPECT_EQ(x, c.nextU64());
}

TEST(Rng, Uniform01InRangeWithRightMean) {
  Rng r(1);
  double sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    double u = r.uniform01();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  EXPECT_NEAR(sum / n, 0.5, 0.005);
}
