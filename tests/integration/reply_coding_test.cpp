// A reply compressed although no request asks for that (no Accept-Encoding is sent, and neither
// client decodes a body): both clients fail it as malformed_stream with a reason naming the
// coding, instead of showing the compressed bytes as what the server said.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "tests/integration/driver_client.h"
#include "tests/integration/scripted_http_server.h"

namespace {

namespace dc = plumbline::test::driver_client;
using CodingReply = plumbline::test::ScriptedHttpServer::Reply;

/// The first bytes of a gzip member (magic, deflate, no flags): what such a body starts with.
const std::string kGzipBytes("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xab\x56\x4a\xcd\x2d\x00",
                             16);

void expectAnUnaskedCodingIsNamed(dc::Kind kind) {
  plumbline::test::ScriptedHttpServer server([](int, int overall, const std::string&) {
    const std::string type = overall == 0 ? "text/event-stream" : "application/json";
    const std::string coding = overall == 2 ? "Identity" : "gzip";
    const std::string body = overall == 2 ? dc::okJson() : kGzipBytes;
    return std::optional<CodingReply>(
        CodingReply{"HTTP/1.1 200 OK\r\nContent-Type: " + type + "\r\nContent-Encoding: " + coding +
                        "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body,
                    false});
  });
  const std::string want =
      "the reply is Content-Encoding: gzip, which was not asked for (the request sends no "
      "Accept-Encoding); its body cannot be read as a completion";
  dc::Client streaming(server.url(), true, 10'000, "", kind);
  streaming.send(dc::driverChatBody(true));
  ASSERT_TRUE(streaming.runUntil(1));
  EXPECT_EQ(streaming.done[0].record.error, plumbline::metrics::ErrorClass::MalformedStream);
  EXPECT_EQ(streaming.done[0].reason, want);
  EXPECT_EQ(streaming.done[0].response, "");  // no compressed bytes shown as the server's words

  dc::Client whole(server.url(), false, 10'000, "", kind);
  whole.send(dc::driverChatBody(false));
  ASSERT_TRUE(whole.runUntil(1));
  EXPECT_EQ(whole.done[0].record.error, plumbline::metrics::ErrorClass::MalformedStream);
  EXPECT_EQ(whole.done[0].reason, want);
  EXPECT_EQ(whole.done[0].response, "");
  whole.send(dc::driverChatBody(false));  // "identity" is no coding at all
  ASSERT_TRUE(whole.runUntil(2));
  EXPECT_TRUE(whole.done[1].record.ok()) << whole.done[1].reason;
}

}  // namespace

TEST(Http1Driver, AReplyInAContentEncodingNotAskedForIsMalformedSayingSo) {
  expectAnUnaskedCodingIsNamed(dc::Kind::Native);
}
TEST(HttpDriver, AReplyInAContentEncodingNotAskedForIsMalformedSayingSo) {
  expectAnUnaskedCodingIsNamed(dc::Kind::Curl);
}
