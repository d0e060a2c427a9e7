#include <gtest/gtest.h>

#include "core/engine/endpoint_url.h"
#include "core/engine/request_body.h"

using namespace plumbline::engine;
using plumbline::workload::Api;

TEST(EndpointUrl, BaseUrlsBecomeEndpoints) {
  EXPECT_EQ(completionEndpoint("http://127.0.0.1:8000", Api::Chat), "http://127.0.0.1:8000/v1/chat/completions");
  EXPECT_EQ(completionEndpoint("http://h:1/", Api::Completions), "http://h:1/v1/completions");
  EXPECT_EQ(completionEndpoint("https://h/v1", Api::Chat), "https://h/v1/chat/completions");
  EXPECT_EQ(completionEndpoint("http://h/x/v1/chat/completions", Api::Chat), "http://h/x/v1/chat/completions");
  EXPECT_THROW(completionEndpoint("ftp://h", Api::Chat), std::invalid_argument);
  EXPECT_THROW(completionEndpoint("embedded", Api::Chat), std::invalid_argument);
}

TEST(EndpointUrl, CredentialsAreRedacted) {
  EXPECT_EQ(redactUrl("http://user:secret@h:1/v1"), "http://h:1/v1");
  EXPECT_EQ(redactUrl("http://h:1/a@b"), "http://h:1/a@b");
  EXPECT_EQ(redactUrl("http://h"), "http://h");
}

TEST(RequestBody, ChatBodyHasPromptOfPlannedWordsAndSampling) {
  WorkerConfig c;
  c.model = "m\"x";
  c.stream = true;
  c.sampling.temperature = 0.5;
  c.sampling.maxTokens = 10;
  c.sampling.extra = {{"min_tokens", 3}};
  RequestBodyBuilder b(c);
  std::string body;
  b.build({7, 0, 25, 40, 0}, body);
  const auto j = nlohmann::json::parse(body);
  EXPECT_EQ(j["model"], "m\"x");
  EXPECT_EQ(j["max_tokens"], 10);  // capped by sampling.max_tokens
  EXPECT_EQ(j["temperature"], 0.5);
  EXPECT_EQ(j["min_tokens"], 3);
  EXPECT_EQ(j["stream_options"]["include_usage"], true);
  const std::string prompt = j["messages"][0]["content"];
  EXPECT_EQ(std::count(prompt.begin(), prompt.end(), ' '), 24);
  std::string again;
  b.build({7, 0, 25, 40, 0}, again);
  EXPECT_EQ(body, again);  // deterministic per session
  b.build({8, 0, 25, 40, 0}, again);
  EXPECT_NE(body, again);
}

TEST(RequestBody, CompletionsNonStreaming) {
  WorkerConfig c;
  c.api = Api::Completions;
  c.stream = false;
  RequestBodyBuilder b(c);
  std::string body;
  b.build({1, 0, 3, 16, 0}, body);
  const auto j = nlohmann::json::parse(body);
  EXPECT_EQ(j["stream"], false);
  EXPECT_FALSE(j.contains("stream_options"));
  EXPECT_EQ(j["max_tokens"], 16);
  EXPECT_TRUE(j["prompt"].is_string());
}
