#include "core/engine/planned_order.h"

#include <gtest/gtest.h>

#include <deque>
#include <vector>

using plumbline::engine::mergeInPlannedOrder;
using plumbline::workload::SessionPlan;

namespace {

std::deque<SessionPlan> queueAt(const std::vector<int64_t>& plannedNs, uint64_t firstId = 0) {
  std::deque<SessionPlan> q;
  for (int64_t at : plannedNs) q.emplace_back(firstId++, at);
  return q;
}

std::vector<uint64_t> idsOf(const std::deque<SessionPlan>& q) {
  std::vector<uint64_t> ids;
  for (const auto& s : q) ids.push_back(s.id);
  return ids;
}

}  // namespace

TEST(PlannedOrder, TheFeedInOrderIsAppended) {
  auto q = queueAt({10, 20});
  std::vector<size_t> landed;
  mergeInPlannedOrder(q, {SessionPlan(2, 20), SessionPlan(3, 30)},
                      [&](size_t i) { landed.push_back(i); });
  EXPECT_EQ(idsOf(q), (std::vector<uint64_t>{0, 1, 2, 3}));  // equal instants: arrival order
  EXPECT_TRUE(landed.empty());
}

// QA (D2): a dead worker's sessions were appended behind the survivor's ~1 s of look-ahead and
// went out up to 940 ms late, since the worker sends from the front only.
TEST(PlannedOrder, HandedOverSessionsFallAmongThoseQueued) {
  auto q = queueAt({10, 20, 30, 40});
  std::vector<size_t> landed;
  mergeInPlannedOrder(q, {SessionPlan(11, 35), SessionPlan(10, 5), SessionPlan(12, 50)},
                      [&](size_t i) { landed.push_back(i); });
  EXPECT_EQ(idsOf(q), (std::vector<uint64_t>{10, 0, 1, 2, 11, 3, 12}));
  EXPECT_EQ(landed, (std::vector<size_t>{0, 4}));  // 12 lands after all queued before
}

TEST(PlannedOrder, EntriesAlignedToTheFrontStayAligned) {
  auto q = queueAt({10, 20, 30, 40});
  std::deque<int64_t> prepared{10, 20};  // built for the first two, as the worker's bodies
  mergeInPlannedOrder(q, {SessionPlan(8, 15), SessionPlan(9, 25)}, [&](size_t i) {
    if (i < prepared.size()) prepared.insert(prepared.begin() + static_cast<std::ptrdiff_t>(i), -1);
  });
  ASSERT_EQ(prepared.size(), 3u);
  EXPECT_EQ(prepared, (std::deque<int64_t>{10, -1, 20}));  // 9 (at 25) falls after them
  EXPECT_EQ(q[0].plannedNs, prepared[0]);
  EXPECT_EQ(q[2].plannedNs, prepared[2]);
}
