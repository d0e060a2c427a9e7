// The session frames of the worker protocol: round trips and rejected payloads.
#include <gtest/gtest.h>

#include "core/engine/frame_codec.h"
#include "core/engine/session_frames.h"

using namespace plumbline::engine;
using plumbline::workload::RequestText;
using plumbline::workload::SessionPlan;

namespace {
SessionPlan summarizeSession() {
  SessionPlan s{42, 1'000'000, 30, 10, 1};
  s.prefixGroup = 2;
  s.prefixTokens = 64;
  for (uint32_t i = 0; i < 3; ++i) s.requests.push_back({{}, 0, 30 + i, 10, RequestText::Chunk});
  s.requests.push_back({{0, 1, 2}, 5, 0, 12, RequestText::Reduce});
  s.promptBlocks = {3, 3, 90000};
  return s;
}
}  // namespace

TEST(SessionFrames, GraphsRoundTrip) {
  const auto back = decodeSessionGraphs(encodeSessionGraphs({summarizeSession(), SessionPlan{7, 9, 1, 2, 0}}));
  ASSERT_EQ(back.size(), 2u);
  const SessionPlan& s = back[0];
  EXPECT_EQ(s.id, 42u);
  EXPECT_EQ(s.plannedNs, 1'000'000);
  EXPECT_EQ(s.prefixGroup, 2u);
  EXPECT_EQ(s.prefixTokens, 64u);
  ASSERT_EQ(s.requests.size(), 4u);
  EXPECT_EQ(s.requests[2].newTokens, 32u);
  EXPECT_EQ(s.requests[3].parents, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(s.requests[3].delayNs, 5);
  EXPECT_EQ(s.requests[3].outputTokens, 12u);
  EXPECT_EQ(s.requests[3].text, RequestText::Reduce);
  EXPECT_EQ(s.promptBlocks, (std::vector<uint32_t>{3, 3, 90000}));
  EXPECT_TRUE(back[1].requests.empty());
  EXPECT_TRUE(back[1].promptBlocks.empty());
}

TEST(SessionFrames, DatasetTurnsRoundTrip) {
  SessionPlan s{1, 0, 12, 5, 0};
  s.requests.push_back({{}, 0, 12, 5, RequestText::DatasetTurn});
  s.requests.push_back({{0}, 50'000'000, 7, 9, RequestText::DatasetTurn});
  const auto back = decodeSessionGraphs(encodeSessionGraphs({s}));
  ASSERT_EQ(back.at(0).requests.size(), 2u);
  EXPECT_EQ(back[0].requests[1].text, RequestText::DatasetTurn);
  EXPECT_EQ(back[0].requests[1].newTokens, 7u);
}

TEST(SessionFrames, BadGraphsAreRejectedByName) {
  SessionPlan s = summarizeSession();
  s.requests[1].parents = {1};  // depends on itself
  EXPECT_THROW(decodeSessionGraphs(encodeSessionGraphs({s})), ProtocolError);
  std::string bytes = encodeSessionGraphs({summarizeSession()});
  bytes.back() = 9;  // unknown text kind
  EXPECT_THROW(decodeSessionGraphs(bytes), ProtocolError);
  bytes = encodeSessionGraphs({summarizeSession()});
  for (size_t cut = 0; cut < bytes.size(); ++cut)
    EXPECT_THROW(decodeSessionGraphs(std::string_view(bytes).substr(0, cut)), ProtocolError) << cut;
  EXPECT_THROW(decodeSessionGraphs(bytes + "x"), ProtocolError);
}

TEST(SessionFrames, ProgressRoundTrips) {
  SessionProgress p;
  p.dueByWindow[3] = 5;
  p.dueByWindow[4] = 1;
  p.dueBySlice[13] = 5;
  p.dueBySlice[16] = 1;
  p.notSentRunEnded = 7;
  p.notSentParentFailed = 2;
  const SessionProgress back = decodeSessionProgress(encodeSessionProgress(p));
  EXPECT_EQ(back.dueByWindow, p.dueByWindow);
  EXPECT_EQ(back.dueBySlice, p.dueBySlice);
  EXPECT_EQ(back.notSentRunEnded, 7u);
  EXPECT_EQ(back.notSentParentFailed, 2u);
  EXPECT_THROW(decodeSessionProgress("\x01"), ProtocolError);
}

TEST(SessionFrames, ProgressCountsADueRequestByWindowAndBySlice) {
  SessionProgress p;
  p.countDue(1'300'000'000, 1'000'000'000);
  p.countDue(1'900'000'000, 1'000'000'000);
  EXPECT_EQ(p.dueByWindow, (std::map<int64_t, uint64_t>{{1, 2}}));
  EXPECT_EQ(p.dueBySlice, (std::map<int64_t, uint64_t>{{5, 1}, {7, 1}}));
  p.dueBySlice[-1] = 1;  // only a damaged wire carries a request due before the run
  EXPECT_THROW(decodeSessionProgress(encodeSessionProgress(p)), ProtocolError);
}
