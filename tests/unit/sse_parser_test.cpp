// The SSE parser and chunk decoder fed recorded streams at every possible split point.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/engine/chunk_decoder.h"
#include "core/engine/sse_parser.h"

using plumbline::engine::ChunkDecoder;
using plumbline::engine::ChunkInfo;
using plumbline::engine::SseParser;

namespace {

std::string readFixture(const std::string& name) {
  std::ifstream in(std::string(PLUMBLINE_TEST_DATA) + "/sse/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct StreamSummary {
  std::vector<std::string> events;
  int contentChunks = 0;
  int malformed = 0;
  bool done = false;
  int promptTokens = -1;
  int completionTokens = -1;
  bool operator==(const StreamSummary&) const = default;
};

StreamSummary parse(const std::string& bytes, const std::vector<size_t>& cuts) {
  SseParser p;
  ChunkDecoder d;
  StreamSummary s;
  auto onData = [&](const std::string& data) {
    EXPECT_GE(data.capacity() - data.size(), SseParser::kPadding);
    s.events.push_back(data);
    const ChunkInfo info = d.decodeChunk(data);
    if (info.done) s.done = true;
    if (info.malformed) ++s.malformed;
    if (info.hasContent) ++s.contentChunks;
    if (info.promptTokens >= 0) s.promptTokens = info.promptTokens;
    if (info.completionTokens >= 0) s.completionTokens = info.completionTokens;
  };
  size_t prev = 0;
  for (size_t c : cuts) {
    p.feed(bytes.data() + prev, c - prev, onData);
    prev = c;
  }
  p.feed(bytes.data() + prev, bytes.size() - prev, onData);
  EXPECT_FALSE(p.midEvent());
  return s;
}

void checkEverySplit(const std::string& fixture, const StreamSummary& expected) {
  const std::string bytes = readFixture(fixture);
  ASSERT_FALSE(bytes.empty()) << fixture;
  const StreamSummary whole = parse(bytes, {});
  EXPECT_EQ(whole.contentChunks, expected.contentChunks);
  EXPECT_EQ(whole.done, expected.done);
  EXPECT_EQ(whole.promptTokens, expected.promptTokens);
  EXPECT_EQ(whole.completionTokens, expected.completionTokens);
  EXPECT_EQ(whole.malformed, 0);
  for (size_t i = 1; i < bytes.size(); ++i) {
    ASSERT_EQ(parse(bytes, {i}), whole) << fixture << " split at " << i;
  }
  // Two cuts at a stride, and byte by byte.
  for (size_t i = 1; i + 7 < bytes.size(); i += 5) ASSERT_EQ(parse(bytes, {i, i + 7}), whole);
  std::vector<size_t> each;
  for (size_t i = 1; i < bytes.size(); ++i) each.push_back(i);
  EXPECT_EQ(parse(bytes, each), whole);
}

}  // namespace

TEST(SseParser, OpenAiChatStreamAtEverySplitPoint) {
  checkEverySplit("openai_chat.sse", {{}, 11, 0, true, 12, 11});
}

TEST(SseParser, VllmCompletionsWithCrlfCommentsAndEventsAtEverySplitPoint) {
  checkEverySplit("vllm_completions_crlf.sse", {{}, 4, 0, true, 5, 4});
}

TEST(SseParser, MultiLineDataAndLoneCarriageReturns) {
  const auto s = parse(readFixture("multiline_cr.sse"), {});
  ASSERT_EQ(s.events.size(), 2u);
  EXPECT_EQ(s.events[0], "{\"choices\":[{\"delta\":\n{\"content\":\"x\"}}]}");
  EXPECT_EQ(s.contentChunks, 1);
  EXPECT_TRUE(s.done);
  checkEverySplit("multiline_cr.sse", {{}, 1, 0, true, -1, -1});
}

TEST(SseParser, CutStreamIsMidEvent) {
  SseParser p;
  int events = 0;
  const std::string partial = "data: {\"choices\":[]}\n\ndata: {\"cho";
  p.feed(partial.data(), partial.size(), [&](const std::string&) { ++events; });
  EXPECT_EQ(events, 1);
  EXPECT_TRUE(p.midEvent());
  p.reset();
  EXPECT_FALSE(p.midEvent());
}

TEST(SseParser, EventWithoutDataIsNotDispatched) {
  SseParser p;
  int events = 0;
  const std::string s = "event: ping\n\n: comment\n\nid: 3\n\n";
  p.feed(s.data(), s.size(), [&](const std::string&) { ++events; });
  EXPECT_EQ(events, 0);
}

TEST(ChunkDecoder, MalformedAndErrorChunks) {
  ChunkDecoder d;
  auto decode = [&](std::string s) {
    s.reserve(s.size() + 64);
    return d.decodeChunk(s);
  };
  EXPECT_TRUE(decode("{not json").malformed);
  EXPECT_TRUE(decode("<html>502 Bad Gateway</html>").malformed);
  EXPECT_TRUE(decode("[1,2,3]").malformed);
  EXPECT_TRUE(decode("{\"choices\": 5}").malformed);
  EXPECT_TRUE(decode("{\"error\":{\"message\":\"overloaded\"}}").serverError);
  EXPECT_FALSE(decode("{\"choices\":[{\"delta\":{\"content\":null}}]}").hasContent);
  EXPECT_FALSE(decode("{\"choices\":[{\"delta\":{\"content\":\"\"}}]}").hasContent);
  EXPECT_TRUE(decode("{\"choices\":[{\"delta\":{\"content\":\"a\"}}]}").hasContent);
  EXPECT_TRUE(decode("{\"choices\":[{\"text\":\"a\"}]}").hasContent);
  const auto u = decode("{\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":null}}");
  EXPECT_EQ(u.promptTokens, 3);
  EXPECT_EQ(u.completionTokens, -1);
  EXPECT_TRUE(decode("[DONE]").done);
}

TEST(ChunkDecoder, NonStreamingBody) {
  ChunkDecoder d;
  std::string body =
      R"({"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hi there"},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":2,"total_tokens":11}})";
  const auto info = d.decodeBody(body);
  EXPECT_FALSE(info.malformed);
  EXPECT_TRUE(info.hasContent);
  EXPECT_EQ(info.promptTokens, 9);
  EXPECT_EQ(info.completionTokens, 2);
}

TEST(ChunkDecoder, FuzzRegressionsNeitherThrowNorCrash) {
  // Inputs libFuzzer found (tests/fuzz/sse_chunk_fuzz.cpp): first byte = split point.
  for (const char* name : {"sse_chunk_type_error.bin"}) {
    std::ifstream in(std::string(PLUMBLINE_TEST_DATA) + "/fuzz_regressions/" + name, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string bytes = ss.str();
    ASSERT_FALSE(bytes.empty()) << name;
    SseParser p;
    ChunkDecoder d;
    EXPECT_NO_THROW(p.feed(bytes.data() + 1, bytes.size() - 1, [&](const std::string& data) { d.decodeChunk(data); }))
        << name;
    std::string body = bytes;
    EXPECT_NO_THROW(d.decodeBody(body)) << name;
  }
}
