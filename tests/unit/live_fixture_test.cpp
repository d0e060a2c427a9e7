// Recorded live streams (tests/data/live, see its README): the reader decodes the real run's
// stream with the values the README promises, and names what is wrong with each invalid one.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/live/live_stream.h"

using namespace plumbline::live;
using plumbline::store::WindowRow;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(PLUMBLINE_TEST_DATA) + "/live/" + name, std::ios::binary);
  EXPECT_TRUE(in) << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<LiveMessage> decodeAll(const std::string& bytes) {
  LiveStreamReader r;
  r.feed(bytes);
  std::vector<LiveMessage> out;
  while (auto m = r.next()) out.push_back(std::move(*m));
  EXPECT_EQ(r.bytesConsumed(), bytes.size());
  return out;
}

template <typename T>
std::vector<T> all(const std::vector<LiveMessage>& ms) {
  std::vector<T> out;
  for (const auto& m : ms)
    if (const T* t = std::get_if<T>(&m)) out.push_back(*t);
  return out;
}

std::string fixtureErrorOf(const std::string& name) {
  LiveStreamReader r;
  r.feed(fixture("invalid/" + name));
  try {
    while (r.next()) {
    }
  } catch (const LiveProtocolError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(LiveFixture, QuickstartRecordingHasTheValuesItsReadmeStates) {
  const auto ms = decodeAll(fixture("quickstart_v1.plml"));
  ASSERT_GE(ms.size(), 3u);
  const auto hello = std::get<LiveHello>(ms.front());
  EXPECT_EQ(hello.runId, 1);
  EXPECT_EQ(hello.runName, "live fixture");
  EXPECT_EQ(hello.workloadName, "quickstart: a minute of chat");
  EXPECT_EQ(hello.plannedTotal, 37);
  EXPECT_DOUBLE_EQ(hello.durationS, 6);
  EXPECT_EQ(hello.workers, 1);
  EXPECT_EQ(hello.windowNs, 1'000'000'000);
  EXPECT_EQ(hello.spec["load"]["stages"][0]["rate"], 5.0);

  const auto windows = all<WindowRow>(ms);
  ASSERT_EQ(windows.size(), 7u);
  int64_t sent = 0;
  for (size_t i = 0; i < windows.size(); ++i) {
    EXPECT_EQ(windows[i].idx, static_cast<int64_t>(i));
    sent += windows[i].sent;
  }
  EXPECT_EQ(sent, 37);

  const auto ticks = all<LiveTick>(ms);
  EXPECT_GE(ticks.size(), 24u);
  for (size_t i = 1; i < ticks.size(); ++i) EXPECT_GT(ticks[i].atNs, ticks[i - 1].atNs);
  for (const auto& t : ticks) EXPECT_EQ(t.ticksDropped, 0u);
  EXPECT_EQ(ticks.back().sent, 37u);
  EXPECT_EQ(ticks.back().completed, 37u);

  const auto end = std::get<LiveEnd>(ms.back());
  EXPECT_EQ(end.status, "complete");
  EXPECT_EQ(end.summary["planned"], 37);
  EXPECT_EQ(end.summary["sent"], 37);
  EXPECT_EQ(end.summary["completed"], 37);
  EXPECT_EQ(end.summary["run_id"], 1);
  EXPECT_EQ(end.summary["verdict"], "harness_limited");
  const auto notices = all<LiveNotice>(ms);
  ASSERT_FALSE(notices.empty());
  EXPECT_EQ(notices[0].level, "warning");
  EXPECT_EQ(notices[0].text.rfind("harness limited: ", 0), 0u) << notices[0].text;
}

TEST(LiveFixture, AFrameOfAFutureTypeIsSkipped) {
  const auto good = decodeAll(fixture("quickstart_v1.plml"));
  EXPECT_EQ(decodeAll(fixture("future_frame_type_v1.plml")), good);
}

TEST(LiveFixture, EveryInvalidRecordingIsRejectedByName) {
  EXPECT_EQ(fixtureErrorOf("bad_magic.plml"),
            "bad greeting: not a Plumbline live stream (magic is not PLML) (at byte offset 0)");
  EXPECT_EQ(fixtureErrorOf("wrong_version.plml"),
            "live protocol version 2 not supported (this reader is 1) (at byte offset 4)");
  EXPECT_EQ(fixtureErrorOf("bad_json.plml"), "hello frame: payload is not valid JSON (at byte offset 8)");
  const std::string missing = fixtureErrorOf("missing_field.plml");
  EXPECT_EQ(missing.rfind("tick frame: field \"sent\" is missing (at byte offset ", 0), 0u) << missing;
  const std::string oversized = fixtureErrorOf("oversized.plml");
  EXPECT_EQ(oversized.rfind("tick frame of 5242880 bytes exceeds the limit of 4194304 (at byte offset ", 0), 0u)
      << oversized;
}

TEST(LiveFixture, ATruncatedRecordingYieldsItsCompleteFramesAndWaits) {
  const std::string bytes = fixture("invalid/truncated.plml");
  LiveStreamReader r;
  r.feed(bytes);
  std::vector<LiveMessage> got;
  while (auto m = r.next()) got.push_back(std::move(*m));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<LiveHello>(got[0]));
  EXPECT_LT(r.bytesConsumed(), bytes.size());
}
