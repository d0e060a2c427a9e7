// Worker ⇄ coordinator frames: round trips, and every malformed input rejected by name.
#include <gtest/gtest.h>

#include <cstring>

#include "core/engine/frame_codec.h"

using namespace plumbline::engine;
using plumbline::engine::protocol::FrameType;

namespace {
std::string stream(FrameType t, const std::string& payload) {
  std::string s = greeting();
  appendFrame(s, t, payload);
  return s;
}

plumbline::metrics::RequestRecord sampleRecord(uint64_t id) {
  plumbline::metrics::RequestRecord r;
  r.sessionId = id;
  r.turn = 2;
  r.workerId = 3;
  r.plannedNs = 100;
  r.sendNs = 120;
  r.firstByteNs = 500;
  r.firstTokenNs = 600;
  r.firstAnswerNs = 700;  // thought for 100 ns before answering
  r.lastTokenNs = 900;
  r.endNs = 950;
  r.inputTokensServer = 17;
  r.outputTokensServer = 4;
  r.inputTokensClient = 16;
  r.outputTokensClient = 4;
  r.chunks = 6;
  r.httpStatus = 200;
  r.error = plumbline::metrics::ErrorClass::StreamCut;
  r.retryAfterMs = static_cast<int64_t>(id) * 1500 - 1500;  // 0 ms for the first
  return r;
}
}  // namespace

TEST(FrameCodec, SessionsRoundTripThroughAnySplit) {
  std::vector<plumbline::workload::SessionPlan> sessions;
  for (uint64_t i = 0; i < 50; ++i) sessions.push_back({i, static_cast<int64_t>(i * 1000), 10 + uint32_t(i), 5, 1});
  const std::string bytes = stream(FrameType::Sessions, encodeSessions(sessions));
  for (size_t cut = 0; cut <= bytes.size(); cut += 7) {
    FrameReader r;
    r.feed(bytes.data(), cut);
    auto early = r.next();
    if (cut < bytes.size()) {
      EXPECT_FALSE(early.has_value());
    }
    r.feed(bytes.data() + cut, bytes.size() - cut);
    auto f = early ? early : r.next();
    ASSERT_TRUE(f.has_value());
    EXPECT_EQ(f->type, FrameType::Sessions);
    auto back = decodeSessions(f->payload);
    ASSERT_EQ(back.size(), sessions.size());
    EXPECT_EQ(back[49].id, 49u);
    EXPECT_EQ(back[49].plannedNs, 49000);
    EXPECT_EQ(back[49].inputTokens, 59u);
  }
}

TEST(FrameCodec, RecordsRoundTrip) {
  std::vector<plumbline::metrics::RequestRecord> in{sampleRecord(1), sampleRecord(2)};
  auto out = decodeRecords(encodeRecords(in));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].sessionId, 2u);
  EXPECT_EQ(out[0].firstTokenNs, 600);
  EXPECT_EQ(out[0].firstAnswerNs, 700);
  EXPECT_EQ(out[0].error, plumbline::metrics::ErrorClass::StreamCut);
  EXPECT_EQ(out[0].inputTokensServer, 17);
  EXPECT_EQ(out[0].retryAfterMs, 0);
  EXPECT_EQ(out[1].retryAfterMs, 1500);
  in[1].retryAfterMs = -1;  // none
  EXPECT_EQ(decodeRecords(encodeRecords(in))[1].retryAfterMs, -1);
  in[1].firstAnswerNs = -1;  // no answer token (non-streaming, or it never stopped thinking)
  EXPECT_EQ(decodeRecords(encodeRecords(in))[1].firstAnswerNs, -1);
  in[1].retryAfterMs = -2;  // only a damaged wire carries this
  EXPECT_THROW(decodeRecords(encodeRecords(in)), ProtocolError);
  in[1].retryAfterMs = -1;
  in[0].heldNs = 55'000'000;  // in flight across a 55 ms hold of the worker's loop
  EXPECT_EQ(decodeRecords(encodeRecords(in))[0].heldNs, 55'000'000);
  EXPECT_EQ(decodeRecords(encodeRecords(in))[1].heldNs, 0);
  in[1].heldNs = -1;  // only a damaged wire carries this
  EXPECT_THROW(decodeRecords(encodeRecords(in)), ProtocolError);
}

TEST(FrameCodec, StatsRoundTrip) {
  StatsReport s;
  s.sample.workerId = 4;
  s.sample.atNs = 123;
  s.sample.cpuFraction = 0.5;
  s.sample.cpuWaitNs = 2'345'678;
  s.connectionsOpen = 9;
  plumbline::metrics::SendReport send;
  send.windowIndex = 3;
  send.sent = 10;
  send.sendLag.record(5000);
  send.sentDuring = 7;
  s.sends.push_back(send);
  s.itl.record(10'000'000);
  StatsReport back = decodeStats(encodeStats(s));
  EXPECT_EQ(back.sample.workerId, 4u);
  EXPECT_DOUBLE_EQ(back.sample.cpuFraction, 0.5);
  ASSERT_EQ(back.sends.size(), 1u);
  EXPECT_EQ(back.sends[0].sent, 10u);
  EXPECT_EQ(back.sends[0].sendLag.count(), 1u);
  EXPECT_EQ(back.sends[0].sentDuring, 7u);
  EXPECT_EQ(back.itl.count(), 1u);
  EXPECT_EQ(back.connectionsOpen, 9u);
  EXPECT_EQ(back.sample.cpuWaitNs, 2'345'678);
  s.sample.cpuWaitNs = -1;  // the kernel did not say
  EXPECT_EQ(decodeStats(encodeStats(s)).sample.cpuWaitNs, -1);
}

TEST(FrameCodec, StatsCarryTheSendsBySliceAndRefuseOneBeforeTheRun) {
  StatsReport s;
  s.sentBySlice = {{0, 3}, {7, 250}};
  EXPECT_EQ(decodeStats(encodeStats(s)).sentBySlice, s.sentBySlice);
  s.sentBySlice = {{-1, 3}};
  try {
    decodeStats(encodeStats(s));
    ADD_FAILURE() << "a send before t0 decoded";
  } catch (const ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("negative send slice"), std::string::npos) << e.what();
  }
}

TEST(FrameCodec, RejectsBadGreeting) {
  FrameReader r;
  r.feed("HTTP/1.1", 8);
  EXPECT_THROW(r.next(), ProtocolError);
}

TEST(FrameCodec, RejectsOtherVersion) {
  std::string g = greeting();
  g[4] = 9;
  FrameReader r;
  r.feed(g.data(), g.size());
  try {
    r.next();
    FAIL();
  } catch (const ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("version 9"), std::string::npos);
  }
}

TEST(FrameCodec, RejectsUnknownTypeZeroLengthAndOversize) {
  for (auto [len, type] : {std::pair<uint32_t, uint8_t>{5, 200}, {0, 1}, {protocol::kMaxFrameSize + 1, 1}}) {
    std::string s = greeting();
    s.append(reinterpret_cast<const char*>(&len), 4);
    s.push_back(static_cast<char>(type));
    FrameReader r;
    r.feed(s.data(), s.size());
    EXPECT_THROW(r.next(), ProtocolError) << len << " " << int(type);
  }
}

TEST(FrameCodec, TruncatedAndOverlongPayloadsAreRejected) {
  const std::string sessions = encodeSessions({{1, 2, 3, 4, 0}});
  for (size_t n = 0; n < sessions.size(); ++n) EXPECT_THROW(decodeSessions(sessions.substr(0, n)), ProtocolError);
  EXPECT_THROW(decodeSessions(sessions + "x"), ProtocolError);
  std::string huge;
  PayloadWriter(huge).u32(0xFFFFFFFF);
  EXPECT_THROW(decodeSessions(huge), ProtocolError);
  EXPECT_THROW(decodeRecords(huge), ProtocolError);
  std::string rec = encodeRecords({sampleRecord(1)});
  rec[rec.size() - 25] =
      99;  // unknown error class (the byte before retry-after, first answer, hold)
  EXPECT_THROW(decodeRecords(rec), ProtocolError);
  const std::string stats = encodeStats(StatsReport{});
  for (size_t n = 0; n < stats.size(); ++n) EXPECT_THROW(decodeStats(stats.substr(0, n)), ProtocolError);
  EXPECT_THROW(decodeStop(encodeStop(-1)), ProtocolError);
  EXPECT_THROW(decodeDone("abc"), ProtocolError);
  const DoneReport done = decodeDone(encodeDone({7, 20, 12, 8}));
  EXPECT_EQ(done.sessionsReceived, 7u);
  EXPECT_EQ(done.notSent, 20u);
  EXPECT_EQ(done.notSentCapHeld, 12u);
  EXPECT_EQ(done.notSentBehind, 8u);
  EXPECT_THROW(decodeDone(encodeDone({7, 20, 12, 9})),
               ProtocolError);  // more reasons than not sent
  EXPECT_THROW(decodeDone(encodeDone({7, 20, 21, 0})), ProtocolError);
}
