#include "core/engine/worker_ledger.h"

#include <gtest/gtest.h>

using namespace plumbline;
using engine::WorkerLedger;

namespace {

metrics::RequestRecord finished(uint64_t session, uint32_t turn = 0) {
  metrics::RequestRecord r;
  r.sessionId = session;
  r.turn = turn;
  return r;
}

}  // namespace

TEST(WorkerLedger, SentAndUnfinishedAreLostInFlightOldestFirst) {
  WorkerLedger l;
  for (uint64_t id = 0; id < 10; ++id) l.handedOut(workload::SessionPlan(id, static_cast<int64_t>(id) * 100));
  l.reportedSent(6);  // sessions 0..5 went out
  l.recorded(finished(0));
  l.recorded(finished(2));
  l.forgetPlansDueBy(650);
  const auto s = l.settle(4, 650);  // 0..6 were due; 7, 8, 9 were not
  ASSERT_EQ(s.lostInFlight.size(), 4u);  // 6 sent − 2 finished
  std::vector<uint64_t> lost;
  for (const auto& r : s.lostInFlight) {
    lost.push_back(r.sessionId);
    EXPECT_EQ(r.error, metrics::ErrorClass::WorkerLost);
    EXPECT_EQ(r.workerId, 4u);
    EXPECT_EQ(r.endNs, 650);
    EXPECT_EQ(r.sendNs, -1);  // when it was sent died with the worker
  }
  EXPECT_EQ(lost, (std::vector<uint64_t>{1, 3, 4, 5}));
  EXPECT_EQ(s.dueNotReportedSent, 1u);  // session 6: due, never reported sent
  ASSERT_EQ(s.notYetDue.size(), 3u);
  EXPECT_EQ(s.notYetDue.front().id, 7u);
  EXPECT_EQ(s.sentUnreported, 0u);
}

TEST(WorkerLedger, RecordsAheadOfTheirSendReportCountAsSent) {
  WorkerLedger l;
  for (uint64_t id = 0; id < 3; ++id) l.handedOut(workload::SessionPlan(id, 0));
  l.reportedSent(1);
  l.recorded(finished(0));
  l.recorded(finished(1));  // its send was not reported yet when the worker died
  const auto s = l.settle(1, 10);
  EXPECT_EQ(s.sentUnreported, 1u);
  EXPECT_TRUE(s.lostInFlight.empty());
  EXPECT_EQ(s.dueNotReportedSent, 1u);  // session 2
}

TEST(WorkerLedger, SessionsWithSeveralRequestsStayOpenUntilEachFinished) {
  WorkerLedger l;
  workload::SessionPlan chat(5, 0);
  chat.requests.resize(3);
  l.handedOut(chat);
  l.reportedSent(2);
  l.recorded(finished(5, 0));
  const auto s = l.settle(2, 1000);
  ASSERT_EQ(s.lostInFlight.size(), 1u);
  EXPECT_EQ(s.lostInFlight[0].sessionId, 5u);
  EXPECT_EQ(s.lostInFlight[0].turn, 1u);
  EXPECT_EQ(s.dueNotReportedSent, 1u);  // turn 2 never came due
}

// QA (D2): sessions handed over from a dead worker were appended behind the survivor's own, and
// forgetPlansDueBy pops from the front: if the survivor died in turn, handed-over sessions that
// had come due were handed on again as "not yet due".
TEST(WorkerLedger, HandedOverSessionsComeDueAmongItsOwn) {
  WorkerLedger l;
  for (uint64_t id = 0; id < 5; ++id)
    l.handedOut(workload::SessionPlan(id, static_cast<int64_t>(id) * 100 + 50));
  l.handedOver({workload::SessionPlan(10, 100), workload::SessionPlan(11, 300),
                workload::SessionPlan(12, 600)});
  l.forgetPlansDueBy(320);
  const auto s = l.settle(1, 320);
  std::vector<uint64_t> notYetDue;
  for (const auto& p : s.notYetDue) notYetDue.push_back(p.id);
  EXPECT_EQ(notYetDue, (std::vector<uint64_t>{3, 4, 12}));
  EXPECT_EQ(s.dueNotReportedSent, 5u);  // 0, 10, 1, 2, 11: due, never reported sent
}
