// Live-telemetry byte stream: framing, incremental reading, and every malformed input named.
#include <gtest/gtest.h>

#include "core/live/live_protocol.h"
#include "core/live/live_stream.h"
#include "live_test_support.h"

using namespace plumbline::live;
using namespace plumbline::live::testing;

namespace {

std::string fullStream() {
  std::string s = encodeLiveGreeting();
  for (const LiveMessage& m : sampleMessages()) s += encodeLiveFrame(m);
  return s;
}

std::string rawFrame(uint8_t type, const std::string& payload) {
  std::string f;
  const auto n = static_cast<uint32_t>(payload.size() + 1);
  for (int i = 0; i < 4; ++i) f.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  f.push_back(static_cast<char>(type));
  return f + payload;
}

std::vector<LiveMessage> drain(LiveStreamReader& r) {
  std::vector<LiveMessage> out;
  while (auto m = r.next()) out.push_back(std::move(*m));
  return out;
}

std::string errorReading(const std::string& bytes) {
  LiveStreamReader r;
  r.feed(bytes);
  try {
    drain(r);
  } catch (const LiveProtocolError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(LiveStream, GreetingIsMagicVersionAndTwoReservedBytes) {
  EXPECT_EQ(encodeLiveGreeting(), std::string("PLML\x01\x00\x00\x00", 8));
  EXPECT_EQ(encodeLiveGreeting().size(), protocol::kGreetingSize);
}

TEST(LiveStream, FrameIsLittleEndianLengthTypeAndJson) {
  const std::string f = encodeLiveFrame(sampleNotice());
  const std::string payload = toJson(sampleNotice()).dump();
  ASSERT_EQ(f.size(), 5 + payload.size());
  const uint32_t len = static_cast<uint8_t>(f[0]) | static_cast<uint8_t>(f[1]) << 8 |
                       static_cast<uint8_t>(f[2]) << 16 | static_cast<uint32_t>(static_cast<uint8_t>(f[3])) << 24;
  EXPECT_EQ(len, payload.size() + 1);
  EXPECT_EQ(f[4], static_cast<char>(protocol::LiveFrameType::Notice));
  EXPECT_EQ(f.substr(5), payload);
}

TEST(LiveStream, EveryMessageRoundTripsInOneFeed) {
  LiveStreamReader r;
  const std::string bytes = fullStream();
  r.feed(bytes);
  EXPECT_EQ(drain(r), sampleMessages());
  EXPECT_EQ(r.bytesConsumed(), bytes.size());
  EXPECT_FALSE(r.next().has_value());
}

TEST(LiveStream, ByteAtATimeFeedingYieldsTheSameMessages) {
  LiveStreamReader r;
  std::vector<LiveMessage> got;
  for (char c : fullStream()) {
    r.feed(std::string_view(&c, 1));
    while (auto m = r.next()) got.push_back(std::move(*m));
  }
  EXPECT_EQ(got, sampleMessages());
}

TEST(LiveStream, EverySplitPointYieldsTheSameMessages) {
  const std::string bytes = fullStream();
  for (size_t cut = 0; cut <= bytes.size(); ++cut) {
    LiveStreamReader r;
    r.feed(std::string_view(bytes).substr(0, cut));
    auto got = drain(r);
    r.feed(std::string_view(bytes).substr(cut));
    for (auto& m : drain(r)) got.push_back(std::move(m));
    ASSERT_EQ(got, sampleMessages()) << "split at " << cut;
  }
}

TEST(LiveStream, ManyFramesAcrossBufferCompaction) {
  std::string bytes = encodeLiveGreeting();
  for (int i = 0; i < 2000; ++i) bytes += encodeLiveFrame(sampleWindow(i));
  LiveStreamReader r;
  int64_t expected = 0;
  for (size_t at = 0; at < bytes.size(); at += 4093) {
    r.feed(std::string_view(bytes).substr(at, 4093));
    while (auto m = r.next()) EXPECT_EQ(std::get<plumbline::store::WindowRow>(*m).idx, expected++);
  }
  EXPECT_EQ(expected, 2000);
  EXPECT_EQ(r.bytesConsumed(), bytes.size());
}

TEST(LiveStream, TruncatedStreamYieldsOnlyCompleteFrames) {
  const std::string bytes = fullStream();
  const size_t firstTwo = 8 + encodeLiveFrame(sampleHello()).size() + encodeLiveFrame(sampleTick()).size();
  LiveStreamReader r;
  r.feed(std::string_view(bytes).substr(0, firstTwo + 10));  // cut inside the window frame
  const auto got = drain(r);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(r.bytesConsumed(), firstTwo);
  // A stream cut inside the greeting or a header also waits rather than guessing.
  LiveStreamReader g;
  g.feed(bytes.substr(0, 6));
  EXPECT_FALSE(g.next().has_value());
  EXPECT_EQ(g.bytesConsumed(), 0u);
}

TEST(LiveStream, BadMagicIsRejectedAtOffsetZeroEvenBeforeTheWholeGreeting) {
  EXPECT_EQ(errorReading("PLX"), "bad greeting: not a Plumbline live stream (magic is not PLML) (at byte offset 0)");
  EXPECT_EQ(errorReading(std::string("HTTP/1.1 200 OK\r\n")),
            "bad greeting: not a Plumbline live stream (magic is not PLML) (at byte offset 0)");
  // The worker protocol's magic is not this one.
  EXPECT_NE(errorReading(std::string("PLMW\x01\x00\x00\x00", 8)).find("bad greeting"), std::string::npos);
}

TEST(LiveStream, WrongVersionIsNamed) {
  EXPECT_EQ(errorReading(std::string("PLML\x02\x00\x00\x00", 8)),
            "live protocol version 2 not supported (this reader is 1) (at byte offset 4)");
  EXPECT_EQ(errorReading(std::string("PLML\x00\x01\x00\x00", 8)),
            "live protocol version 256 not supported (this reader is 1) (at byte offset 4)");
}

TEST(LiveStream, OversizedFrameIsRejectedBeforeItsPayloadArrives) {
  std::string bytes = encodeLiveGreeting() + encodeLiveFrame(sampleHello());
  const size_t offset = bytes.size();
  const uint32_t n = protocol::kMaxFrameSize + 1;
  for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  bytes.push_back(static_cast<char>(protocol::LiveFrameType::Tick));
  EXPECT_EQ(errorReading(bytes), "tick frame of 4194305 bytes exceeds the limit of 4194304 (at byte offset " +
                                     std::to_string(offset) + ")");
}

TEST(LiveStream, ZeroLengthFrameIsRejected) {
  EXPECT_EQ(errorReading(encodeLiveGreeting() + std::string(5, '\0')),
            "frame of length 0 (no type byte) (at byte offset 8)");
}

TEST(LiveStream, UnknownFrameTypesAreSkipped) {
  LiveStreamReader r;
  r.feed(encodeLiveGreeting() + rawFrame(6, "{\"future\":true}") + rawFrame(255, "not even json") +
         encodeLiveFrame(sampleNotice()));
  const auto got = drain(r);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], LiveMessage(sampleNotice()));
}

TEST(LiveStream, GarbledJsonNamesTheFrameAndItsOffset) {
  const std::string head = encodeLiveGreeting() + encodeLiveFrame(sampleHello());
  EXPECT_EQ(errorReading(head + rawFrame(3, "{\"idx\": 1,")),
            "window frame: payload is not valid JSON (at byte offset " + std::to_string(head.size()) + ")");
  EXPECT_EQ(errorReading(encodeLiveGreeting() + rawFrame(2, "")),
            "tick frame: payload is not valid JSON (at byte offset 8)");
  EXPECT_EQ(errorReading(encodeLiveGreeting() + rawFrame(4, "{\"text\":\"\xff\"}")),
            "notice frame: payload is not valid JSON (at byte offset 8)");
}

TEST(LiveStream, MissingFieldNamesFrameFieldAndOffset) {
  nlohmann::json tick = toJson(sampleTick());
  tick.erase("in_flight");
  EXPECT_EQ(errorReading(encodeLiveGreeting() + rawFrame(2, tick.dump())),
            "tick frame: field \"in_flight\" is missing (at byte offset 8)");
}

TEST(LiveStream, ReaderStaysFailedAfterAnError) {
  LiveStreamReader r;
  r.feed("garbage!");
  EXPECT_THROW(r.next(), LiveProtocolError);
  r.feed(fullStream());
  EXPECT_THROW(r.next(), LiveProtocolError);
}

TEST(LiveStream, InvalidUtf8InATextIsReplacedNotFatal) {
  LiveNotice n{1, "error", std::string("server said \xff\xfe")};
  LiveStreamReader r;
  r.feed(encodeLiveGreeting() + encodeLiveFrame(n));
  const auto got = drain(r);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(std::get<LiveNotice>(got[0]).text.substr(0, 12), "server said ");
}

TEST(LiveStream, EncoderRefusesAFrameOverTheLimit) {
  LiveNotice n{1, "info", std::string(protocol::kMaxFrameSize, 'x')};
  try {
    encodeLiveFrame(n);
    FAIL() << "no error";
  } catch (const LiveProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("notice frame of"), std::string::npos) << e.what();
  }
}
