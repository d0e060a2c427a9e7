// `plumbline mock` endpoints and wire format, through a real child process and libcurl.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/mock/embedded_target.h"
#include "tests/integration/mock_http.h"

namespace {

using nlohmann::json;
using plumbline::mock::EmbeddedTarget;
using plumbline::test::httpCall;
using plumbline::test::httpGet;
using plumbline::test::httpPost;
using plumbline::test::sseData;

EmbeddedTarget startMock(const std::string& preset = "instant") {
  return EmbeddedTarget({PLUMBLINE_BIN, preset, std::nullopt, std::nullopt, 2});
}

const std::string kChatStream =
    R"({"model":"m1","messages":[{"role":"system","content":"be brief"},{"role":"user","content":"one two  three\nfour"}],)"
    R"("max_tokens":5,"ignore_eos":true,"stream":true,"stream_options":{"include_usage":true}})";

TEST(MockApi, ListsModels) {
  auto mock = startMock();
  const auto r = httpGet(mock.baseUrl() + "/v1/models");
  ASSERT_EQ(r.status, 200);
  const auto body = json::parse(r.body);
  EXPECT_EQ(body["object"], "list");
  EXPECT_EQ(body["data"][0]["id"], "mock");
}

TEST(MockApi, ChatStreamHasOpenAiChunkFormat) {
  auto mock = startMock();
  const auto r = httpPost(mock.baseUrl() + "/v1/chat/completions", kChatStream);
  ASSERT_EQ(r.status, 200) << r.body;
  const auto data = sseData(r.body);
  ASSERT_EQ(data.size(), 5u + 2u) << r.body;  // 5 tokens, usage, [DONE]
  for (size_t i = 0; i < 5; ++i) {
    const auto chunk = json::parse(data[i]);
    EXPECT_EQ(chunk["object"], "chat.completion.chunk");
    EXPECT_EQ(chunk["model"], "m1");
    EXPECT_EQ(chunk["choices"][0]["delta"]["content"], "tok ");
    EXPECT_EQ(chunk["choices"][0]["delta"].contains("role"), i == 0);
    if (i == 0) {
      EXPECT_EQ(chunk["choices"][0]["delta"]["role"], "assistant");
    }
    if (i < 4) {
      EXPECT_TRUE(chunk["choices"][0]["finish_reason"].is_null());
    }
  }
  EXPECT_EQ(json::parse(data[4])["choices"][0]["finish_reason"], "length");
  const auto usage = json::parse(data[5]);
  EXPECT_TRUE(usage["choices"].empty());
  EXPECT_EQ(usage["usage"]["prompt_tokens"], 6);  // "be brief" + "one two three four"
  EXPECT_EQ(usage["usage"]["completion_tokens"], 5);
  EXPECT_EQ(usage["usage"]["total_tokens"], 11);
  EXPECT_EQ(data.back(), "[DONE]");
}

TEST(MockApi, CompletionsStreamWithoutUsage) {
  auto mock = startMock();
  const auto r = httpPost(mock.baseUrl() + "/v1/completions",
                          R"({"prompt":"a b c","max_tokens":3,"ignore_eos":true,"stream":true})");
  ASSERT_EQ(r.status, 200);
  const auto data = sseData(r.body);
  ASSERT_EQ(data.size(), 4u);
  for (size_t i = 0; i < 3; ++i) {
    const auto chunk = json::parse(data[i]);
    EXPECT_EQ(chunk["object"], "text_completion");
    EXPECT_EQ(chunk["choices"][0]["text"], "tok ");
  }
  EXPECT_EQ(json::parse(data[2])["choices"][0]["finish_reason"], "length");
  EXPECT_EQ(data[3], "[DONE]");
}

TEST(MockApi, NonStreamingBodies) {
  auto mock = startMock();
  const auto chat = httpPost(mock.baseUrl() + "/v1/chat/completions",
                             R"({"messages":[{"role":"user","content":"x y"}],"max_completion_tokens":4,"ignore_eos":true})");
  ASSERT_EQ(chat.status, 200);
  const auto c = json::parse(chat.body);
  EXPECT_EQ(c["object"], "chat.completion");
  EXPECT_EQ(c["choices"][0]["message"]["role"], "assistant");
  EXPECT_EQ(c["choices"][0]["message"]["content"], "tok tok tok tok ");
  EXPECT_EQ(c["choices"][0]["finish_reason"], "length");
  EXPECT_EQ(c["usage"]["prompt_tokens"], 2);
  EXPECT_EQ(c["usage"]["completion_tokens"], 4);
  const auto text = httpPost(mock.baseUrl() + "/v1/completions", R"({"prompt":"hello","max_tokens":1000000})");
  ASSERT_EQ(text.status, 200);
  const auto t = json::parse(text.body);
  EXPECT_EQ(t["object"], "text_completion");
  EXPECT_EQ(t["choices"][0]["finish_reason"], "stop");  // natural length stays far below max_tokens
  EXPECT_GE(t["usage"]["completion_tokens"].get<int>(), 1);
}

TEST(MockApi, NaturalLengthIsDeterministic) {
  auto mock = startMock();
  const std::string body = R"({"prompt":"the same prompt twice"})";
  const auto a = json::parse(httpPost(mock.baseUrl() + "/v1/completions", body).body);
  const auto b = json::parse(httpPost(mock.baseUrl() + "/v1/completions", body).body);
  EXPECT_EQ(a["usage"]["completion_tokens"], b["usage"]["completion_tokens"]);
}

TEST(MockApi, RejectsBadRequestsWithOpenAiErrors) {
  auto mock = startMock();
  const auto bad = httpPost(mock.baseUrl() + "/v1/chat/completions", R"({"messages": [)");
  EXPECT_EQ(bad.status, 400);
  EXPECT_TRUE(json::parse(bad.body)["error"].contains("message"));
  const auto missing = httpPost(mock.baseUrl() + "/v1/completions", R"({"max_tokens":3})");
  EXPECT_EQ(missing.status, 400);
  EXPECT_NE(json::parse(missing.body)["error"]["message"].get<std::string>().find("prompt"), std::string::npos);
  EXPECT_EQ(httpGet(mock.baseUrl() + "/v2/nothing").status, 404);
  EXPECT_EQ(httpGet(mock.baseUrl() + "/v1/chat/completions").status, 405);
  EXPECT_EQ(httpCall({mock.baseUrl() + "/v1/models", "", "DELETE", 5000, 0}).status, 405);
}

TEST(MockApi, StatsCountCompletionRequests) {
  auto mock = startMock();
  constexpr int kRequests = 7;
  for (int i = 0; i < kRequests; ++i) {
    const bool stream = i % 2 == 0;
    const std::string body = std::string(R"({"prompt":"p","max_tokens":3,"ignore_eos":true,"stream":)") +
                             (stream ? "true" : "false") + "}";
    ASSERT_EQ(httpPost(mock.baseUrl() + "/v1/completions", body).status, 200);
  }
  httpGet(mock.baseUrl() + "/v1/models");
  httpPost(mock.baseUrl() + "/v1/completions", "not json");
  const auto stats = json::parse(httpGet(mock.baseUrl() + "/mock/stats").body);
  EXPECT_EQ(stats["requests_received"], kRequests + 1);  // the 400 was received and answered too
  EXPECT_EQ(stats["requests_completed"], kRequests + 1);
  EXPECT_EQ(stats["tokens_sent"], 3 * kRequests);
  EXPECT_TRUE(stats["faults"].is_object());
}

}  // namespace
