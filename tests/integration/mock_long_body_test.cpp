// Long request bodies on kept-alive connections: the mock reads what waits at once (BulkReader,
// instead of libevent 2.1's 4 KB per loop turn) and evhttp parses it as if it had read it
// itself: whole, in pieces, pipelined, and the connection goes on serving afterwards.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/mock/embedded_target.h"
#include "tests/integration/keep_alive_client.h"
#include "tests/integration/mock_http.h"

namespace {

using nlohmann::json;
using plumbline::mock::EmbeddedTarget;
using plumbline::test::httpGet;
using plumbline::test::KeepAliveClient;

/// A completions body whose prompt is `words` words (~6 bytes each).
std::string longBody(int words) {
  std::string prompt;
  prompt.reserve(static_cast<size_t>(words) * 6);
  for (int i = 0; i < words; ++i)
    prompt += (i % 3 == 0) ? "alpha " : (i % 3 == 1) ? "beta\\n" : "gamma ";
  return R"({"prompt":")" + prompt + R"(","max_tokens":2,"ignore_eos":true})";
}

/// The prompt_tokens of a reply read by KeepAliveClient, or -1 when it is not a 200 with usage.
int64_t promptTokensOf(const std::string& reply) {
  if (reply.find("HTTP/1.1 200") != 0) return -1;
  const json body = json::parse(reply.substr(reply.find("\r\n\r\n") + 4), nullptr, false);
  if (body.is_discarded() || !body.contains("usage")) return -1;
  return body["usage"]["prompt_tokens"].get<int64_t>();
}

uint64_t bulkBytes(const EmbeddedTarget& mock) {
  return json::parse(httpGet(mock.baseUrl() + "/mock/stats").body)["request_bytes_read_in_bulk"]
      .get<uint64_t>();
}

const std::string kSmall = R"({"prompt":"x y","max_tokens":1,"ignore_eos":true})";

/// A mock and one connection to it that has carried its first request (which libevent reads
/// alone: the arrival watch, and with it BulkReader, starts after it).
class MockLongBody : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(client.ok());
    ASSERT_TRUE(client.send(kSmall));
    ASSERT_EQ(promptTokensOf(client.reply()), 2);
  }

  EmbeddedTarget mock{plumbline::mock::EmbeddedTargetOptions{PLUMBLINE_BIN, "", 0.0, 0.0, 1}};
  KeepAliveClient client{mock.baseUrl()};
};

TEST_F(MockLongBody, AKeptAliveConnectionReadsALongPromptWholeAndGoesOn) {
  EXPECT_EQ(bulkBytes(mock), 0u);
  constexpr int kWords = 32768;  // ~190 KB
  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(client.send(longBody(kWords)));
    EXPECT_EQ(promptTokensOf(client.reply()), kWords) << "round " << round;
    ASSERT_TRUE(client.send(kSmall));
    EXPECT_EQ(promptTokensOf(client.reply()), 2) << "round " << round;
  }
  EXPECT_GT(bulkBytes(mock), 100'000u) << "the long prompts were read 4 KB per loop turn";
}

TEST_F(MockLongBody, ABodyThatArrivesInPiecesIsParsedWhenItIsWhole) {
  const std::string request = KeepAliveClient::request(longBody(20000));
  const size_t cuts[] = {30, request.size() / 3, request.size() / 3 + 5000, request.size() - 7};
  size_t from = 0;
  for (size_t cut : cuts) {
    ASSERT_TRUE(client.sendRaw(request.substr(from, cut - from)));
    from = cut;
    std::this_thread::sleep_for(
        std::chrono::milliseconds(30));  // each piece is read before the next comes
  }
  ASSERT_TRUE(client.sendRaw(request.substr(from)));
  EXPECT_EQ(promptTokensOf(client.reply()), 20000);
  ASSERT_TRUE(client.send(kSmall));
  EXPECT_EQ(promptTokensOf(client.reply()), 2);
}

TEST_F(MockLongBody, PipelinedLongRequestsAreAnsweredInOrder) {
  ASSERT_TRUE(client.sendRaw(KeepAliveClient::request(longBody(12000)) +
                             KeepAliveClient::request(longBody(9000)) +
                             KeepAliveClient::request(kSmall)));
  EXPECT_EQ(promptTokensOf(client.reply()), 12000);
  EXPECT_EQ(promptTokensOf(client.reply()), 9000);
  EXPECT_EQ(promptTokensOf(client.reply()), 2);
}

}  // namespace
