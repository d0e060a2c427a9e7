// Live-protocol JSON payloads: every message round-trips, every bad field is named.
#include <gtest/gtest.h>

#include <set>

#include "core/live/live_messages.h"
#include "core/live/live_protocol.h"
#include "core/live/live_stream.h"
#include "core/store/run_export.h"
#include "live_test_support.h"

using namespace plumbline::live;
using namespace plumbline::live::testing;
using nlohmann::json;

namespace {

uint8_t typeOf(const LiveMessage& m) { return static_cast<uint8_t>(m.index() + 1); }

std::string messageErrorOf(uint8_t type, const json& payload) {
  try {
    messageFromJson(type, payload);
  } catch (const LiveProtocolError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(LiveMessages, EveryMessageRoundTripsThroughJson) {
  for (const LiveMessage& m : sampleMessages()) {
    const json j = toJson(m);
    ASSERT_TRUE(j.is_object());
    // Through text too, as on the wire.
    const LiveMessage back = messageFromJson(typeOf(m), json::parse(j.dump()));
    EXPECT_EQ(back, m) << j.dump();
  }
}

TEST(LiveMessages, DefaultMessagesRoundTrip) {
  const std::vector<LiveMessage> defaults = {LiveHello{}, LiveTick{}, plumbline::store::WindowRow{},
                                             LiveNotice{0, "info", ""}, LiveEnd{"complete", json::object(), {}}};
  for (const LiveMessage& m : defaults) EXPECT_EQ(messageFromJson(typeOf(m), toJson(m)), m);
}

TEST(LiveMessages, FieldNamesAreSnakeCase) {
  const json hello = toJson(sampleHello());
  EXPECT_EQ(hello.at("run_id"), 42);
  EXPECT_EQ(hello.at("planned_total"), 123);
  EXPECT_EQ(hello.at("spec").at("load").at("seed"), 7);
  const json tick = toJson(sampleTick());
  EXPECT_EQ(tick.at("ticks_dropped"), 3);
  EXPECT_EQ(tick.at("connections_open"), 7);
  EXPECT_DOUBLE_EQ(tick.at("cpu_wait_max_ms").get<double>(), 12.25);
  EXPECT_DOUBLE_EQ(tick.at("handed_late_max_ms").get<double>(), 950.5);
  EXPECT_DOUBLE_EQ(tick.at("ttft").at("p99").get<double>(), 40.25);
  EXPECT_EQ(tick.at("send_lag").at("count"), 20);
  EXPECT_DOUBLE_EQ(tick.at("ttfa").at("p99").get<double>(), 90.75);
  EXPECT_EQ(tick.at("errors").at("http_5xx"), 2);
  const json end = toJson(sampleEnd());
  EXPECT_EQ(end.at("status"), "incomplete");
  EXPECT_EQ(end.at("notes").size(), 2u);
}

TEST(LiveMessages, WindowPayloadIsTheExportedWindowObject) {
  const auto w = sampleWindow();
  EXPECT_EQ(toJson(w), plumbline::store::windowToJson(w));
  EXPECT_EQ(toJson(w).at("errors_by_class").at("http_5xx"), 2);
  EXPECT_EQ(toJson(w).at("connections_open"), 6);
}

// Fields added after the protocol's first version: a stream written before them still reads,
// with the field "unknown".
const std::set<std::string> kAddedLater = {"cpu_wait_max_ms",
                                           "handed_late_max_ms",
                                           "sent_during",
                                           "rates_through_ns",
                                           "ttfa",
                                           "ttfa_p50_ms",
                                           "ttfa_p99_ms",
                                           "ttft_from_planned_p50_ms",
                                           "ttft_from_planned_p99_ms",
                                           "e2e_from_planned_p50_ms",
                                           "e2e_from_planned_p99_ms",
                                           "tpot",
                                           "tpot_p50_ms",
                                           "tpot_p99_ms"};

TEST(LiveMessages, FieldsAddedLaterMayBeAbsentAndReadAsUnknown) {
  json tick = toJson(sampleTick());
  tick.erase("cpu_wait_max_ms");
  EXPECT_EQ(
      std::get<LiveTick>(messageFromJson(typeOf(LiveMessage{sampleTick()}), tick)).cpuWaitMaxMs,
      -1);
  json window = toJson(sampleWindow());
  window.erase("cpu_wait_max_ms");
  const auto w = std::get<plumbline::store::WindowRow>(
      messageFromJson(typeOf(LiveMessage{sampleWindow()}), window));
  EXPECT_EQ(w.cpuWaitMaxMs, -1);
  window["cpu_wait_max_ms"] = "soon";  // there, but not a number: still an error
  const std::string err = messageErrorOf(typeOf(LiveMessage{sampleWindow()}), window);
  EXPECT_NE(err.find("\"cpu_wait_max_ms\" is a string, expected a number"), std::string::npos)
      << err;
}

TEST(LiveMessages, RatesOfEarlierStreamsAreOverTheSecondBeforeTheTick) {
  json tick = toJson(sampleTick());
  EXPECT_EQ(tick.at("rates_through_ns"), 2'500'000'000);
  tick.erase("rates_through_ns");
  EXPECT_EQ(
      std::get<LiveTick>(messageFromJson(typeOf(LiveMessage{sampleTick()}), tick)).ratesThroughNs,
      -1);
}

TEST(LiveMessages, HandedLateIsNoneInWindowsAndZeroInTicksOfEarlierStreams) {
  json tick = toJson(sampleTick());
  tick.erase("handed_late_max_ms");
  EXPECT_EQ(
      std::get<LiveTick>(messageFromJson(typeOf(LiveMessage{sampleTick()}), tick)).handedLateMaxMs,
      0);
  json window = toJson(sampleWindow());
  EXPECT_DOUBLE_EQ(window.at("handed_late_max_ms").get<double>(), 40.75);
  window.erase("handed_late_max_ms");
  auto read = [&] {
    return std::get<plumbline::store::WindowRow>(
        messageFromJson(typeOf(LiveMessage{sampleWindow()}), window));
  };
  EXPECT_EQ(read().handedLateMaxMs, std::nullopt);  // absent: unknown, as a run stored before v8
  EXPECT_EQ(read().sentDuring, 21);
  window.erase("sent_during");
  EXPECT_EQ(read().sentDuring, std::nullopt);
  window["handed_late_max_ms"] = nullptr;
  EXPECT_EQ(read().handedLateMaxMs, std::nullopt);
  window["handed_late_max_ms"] = "late";  // there, but not a number: an error naming it
  const std::string err = messageErrorOf(typeOf(LiveMessage{sampleWindow()}), window);
  EXPECT_NE(err.find("\"handed_late_max_ms\" is a string, expected a number"), std::string::npos)
      << err;
}

// A stream written before ticks carried the time to the first answer token reads as one in
// which no request had one; a ttfa there but broken is still an error naming it.
TEST(LiveMessages, TtfaIsNoSamplesInTicksOfEarlierStreams) {
  json tick = toJson(sampleTick());
  auto read = [&] {
    return std::get<LiveTick>(messageFromJson(typeOf(LiveMessage{sampleTick()}), tick));
  };
  EXPECT_EQ(read().ttfa, (LivePercentiles{52.5, 90.75, 18}));
  tick.erase("ttfa");
  EXPECT_EQ(read().ttfa, LivePercentiles{});
  EXPECT_EQ(read().ttft, sampleTick().ttft);
  tick["ttfa"] = json{{"p50", 1.0}, {"count", 2}};
  const std::string err = messageErrorOf(typeOf(LiveMessage{sampleTick()}), tick);
  EXPECT_NE(err.find("tick frame: field \"ttfa.p99\" is missing"), std::string::npos) << err;
}

// Ticks and windows carry the time per output token; a stream written before they did reads as
// none (no samples, no percentile), and one there but broken is named.
TEST(LiveMessages, TpotIsNoneInTicksAndWindowsOfEarlierStreams) {
  json tick = toJson(sampleTick());
  EXPECT_DOUBLE_EQ(tick.at("tpot").at("p99").get<double>(), 6.5);
  auto readTick = [&] {
    return std::get<LiveTick>(messageFromJson(typeOf(LiveMessage{sampleTick()}), tick));
  };
  EXPECT_EQ(readTick().tpot, (LivePercentiles{4.25, 6.5, 17}));
  tick.erase("tpot");
  EXPECT_EQ(readTick().tpot, LivePercentiles{});
  EXPECT_EQ(readTick().itl, sampleTick().itl);
  tick["tpot"] = json{{"p50", 1.0}, {"p99", 2.0}};
  const std::string tickErr = messageErrorOf(typeOf(LiveMessage{sampleTick()}), tick);
  EXPECT_NE(tickErr.find("tick frame: field \"tpot.count\" is missing"), std::string::npos)
      << tickErr;

  json window = toJson(sampleWindow());
  EXPECT_DOUBLE_EQ(window.at("tpot_p50_ms").get<double>(), 4.5);
  EXPECT_DOUBLE_EQ(window.at("tpot_p99_ms").get<double>(), 7.25);
  auto readWindow = [&] {
    return std::get<plumbline::store::WindowRow>(
        messageFromJson(typeOf(LiveMessage{sampleWindow()}), window));
  };
  window["tpot_p50_ms"] = nullptr;  // no stream of two tokens ended in the window
  window.erase("tpot_p99_ms");      // an earlier stream
  EXPECT_EQ(readWindow().tpotP50Ms, std::nullopt);
  EXPECT_EQ(readWindow().tpotP99Ms, std::nullopt);
  EXPECT_EQ(readWindow().itlP99Ms, sampleWindow().itlP99Ms);
  window["tpot_p99_ms"] = "fast";
  const std::string err = messageErrorOf(typeOf(LiveMessage{sampleWindow()}), window);
  EXPECT_NE(err.find("\"tpot_p99_ms\" is a string, expected a number"), std::string::npos) << err;
}

// A window carries its time to first answer token and its latencies from planned, so that a
// studio attaching mid-run draws them for the windows before; a window of an earlier stream has
// none, and a broken one is named.
TEST(LiveMessages, WindowsCarryTheirTtfaAndEarlierStreamsReadAsNone) {
  json window = toJson(sampleWindow());
  EXPECT_DOUBLE_EQ(window.at("ttfa_p50_ms").get<double>(), 70.5);
  EXPECT_DOUBLE_EQ(window.at("ttfa_p99_ms").get<double>(), 95.25);
  auto read = [&] {
    return std::get<plumbline::store::WindowRow>(
        messageFromJson(typeOf(LiveMessage{sampleWindow()}), window));
  };
  EXPECT_EQ(read(), sampleWindow());
  window["ttfa_p50_ms"] = nullptr;  // no stream of the window answered
  window.erase("ttfa_p99_ms");      // an earlier stream
  EXPECT_EQ(read().ttfaP50Ms, std::nullopt);
  EXPECT_EQ(read().ttfaP99Ms, std::nullopt);
  EXPECT_DOUBLE_EQ(window.at("e2e_from_planned_p99_ms").get<double>(), 1300.5);
  for (const char* key : {"ttft_from_planned_p50_ms", "ttft_from_planned_p99_ms",
                          "e2e_from_planned_p50_ms", "e2e_from_planned_p99_ms"})
    window.erase(key);
  EXPECT_EQ(read().ttftFromPlannedP50Ms, std::nullopt);
  EXPECT_EQ(read().e2eFromPlannedP99Ms, std::nullopt);
  window["ttfa_p99_ms"] = "slow";
  const std::string err = messageErrorOf(typeOf(LiveMessage{sampleWindow()}), window);
  EXPECT_NE(err.find("\"ttfa_p99_ms\" is a string, expected a number"), std::string::npos) << err;
}

TEST(LiveMessages, EveryMissingFieldIsNamedWithItsFrame) {
  for (const LiveMessage& m : sampleMessages()) {
    const json full = toJson(m);
    const std::string frame(protocol::liveFrameTypeName(static_cast<protocol::LiveFrameType>(typeOf(m))));
    for (const auto& [key, value] : full.items()) {
      if (kAddedLater.count(key) != 0) continue;
      json cut = full;
      cut.erase(key);
      const std::string err = messageErrorOf(typeOf(m), cut);
      EXPECT_NE(err.find(frame + " frame"), std::string::npos) << err;
      EXPECT_NE(err.find("\"" + key + "\" is missing"), std::string::npos) << err;
    }
  }
}

TEST(LiveMessages, NestedPercentileFieldsAreNamedWithTheirPath) {
  json tick = toJson(sampleTick());
  tick["send_lag"].erase("p99");
  EXPECT_NE(messageErrorOf(2, tick).find("tick frame: field \"send_lag.p99\" is missing"), std::string::npos)
      << messageErrorOf(2, tick);
  tick = toJson(sampleTick());
  tick["ttft"] = 3;
  EXPECT_NE(messageErrorOf(2, tick).find("\"ttft\" is an integer, expected an object"), std::string::npos)
      << messageErrorOf(2, tick);
}

TEST(LiveMessages, MistypedFieldsAreRejectedByName) {
  struct Case {
    uint8_t type;
    const char* field;
    json value;
    const char* expected;
  };
  const std::vector<Case> cases = {
      {1, "run_id", "42", "hello frame: field \"run_id\" is a string, expected an integer"},
      {1, "requested_rps", true, "field \"requested_rps\" is a boolean, expected a number"},
      {1, "run_name", 5, "field \"run_name\" is an integer, expected a string"},
      {1, "workers", 1.5, "field \"workers\" is a number, expected an integer"},
      {1, "run_id", 18446744073709551615ull, "field \"run_id\" is out of range"},
      {2, "sent", -1, "tick frame: field \"sent\" is negative, expected a count"},
      {2, "errors", json{{"timeout", -2}}, "field \"errors\" entry \"timeout\" is an integer, expected a count"},
      {2, "errors", json::array(), "field \"errors\" is an array, expected an object"},
      {3, "worker_died", 1, "window frame: field \"worker_died\" is an integer, expected a boolean"},
      {3, "errors_by_class", "{}", "field \"errors_by_class\" is a string, expected an object"},
      {4, "level", "fatal", "notice frame: field \"level\" is \"fatal\", expected one of info, warning, error"},
      {4, "text", nullptr, "field \"text\" is null, expected a string"},
      {5, "status", "done", "end frame: field \"status\" is \"done\", expected one of complete, incomplete, failed"},
      {5, "summary", json::array(), "end frame: field \"summary\" is an array, expected an object"},
      {5, "notes", json::array({"a", 2}), "field \"notes\" item 1 is an integer, expected a string"},
      {5, "notes", "a", "field \"notes\" is a string, expected an array of strings"},
  };
  const auto messages = sampleMessages();
  for (const Case& c : cases) {
    json j = toJson(messages[c.type - 1u]);
    j[c.field] = c.value;
    const std::string err = messageErrorOf(c.type, j);
    EXPECT_NE(err.find(c.expected), std::string::npos) << "got: " << err << "\nwanted: " << c.expected;
  }
}

TEST(LiveMessages, PayloadMustBeAnObject) {
  EXPECT_EQ(messageErrorOf(2, json::array()), "tick frame: payload is an array, expected a JSON object");
  EXPECT_EQ(messageErrorOf(5, "end"), "end frame: payload is a string, expected a JSON object");
}

TEST(LiveMessages, UnknownFieldsAreIgnoredForNewerWriters) {
  json j = toJson(sampleTick());
  j["added_in_a_later_minor"] = {1, 2, 3};
  EXPECT_EQ(messageFromJson(2, j), LiveMessage(sampleTick()));
}

TEST(LiveMessages, UnknownFrameTypeIsAnError) {
  EXPECT_EQ(messageErrorOf(0, json::object()), "unknown frame type 0");
  EXPECT_EQ(messageErrorOf(9, json::object()), "unknown frame type 9");
}
