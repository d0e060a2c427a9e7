// What a reply's headers say that the run must repeat in the reply's failure sample: a
// Retry-After that could not be read (it is recorded as none, so it must be said), and a body
// in a Content-Encoding no request asked for (which no completion can be read from).
#include <gtest/gtest.h>

#include <string>

#include "core/engine/failure_reason.h"
#include "core/engine/response_reader.h"
#include "core/engine/transfer.h"
#include "core/engine/worker_config.h"
#include "core/net/content_encoding.h"
#include "core/net/http1_response_parser.h"
#include "core/net/retry_after.h"

namespace plumbline::engine {
namespace {

void dropHeaderWordsBody(void*, const char*, size_t) {}

/// A reply read whole by the shared reader, as both clients end one.
std::string headerWordsReason(long status, const std::string& unreadableRetryAfter,
                              const std::string& coding, metrics::ErrorClass& cls) {
  WorkerConfig config;
  ResponseReader reader(config);
  Transfer t;
  t.resetForRequest();
  t.status = status;
  t.statusKnown = true;
  t.unreadableRetryAfter = unreadableRetryAfter;
  t.contentCoding = coding;
  const std::string body = "\x1f\x8b\x08 not a completion";
  t.bytesReceived = body.size();
  reader.onBody(t, body.data(), body.size(), 1);
  reader.finishCompleted(t);
  cls = t.record.error;
  EXPECT_TRUE(coding.empty() || t.response.empty())
      << "compressed bytes kept as the server's words";
  return failureReason(t, 10'000'000'000);
}

TEST(RetryAfterUnreadable, TheValueIsSaidAsItCame) {
  EXPECT_EQ(net::unreadableRetryAfterText("1.5"),
            "Retry-After: 1.5 could not be read (whole seconds or an HTTP date)");
  EXPECT_EQ(net::unreadableRetryAfterText("-5"),
            "Retry-After: -5 could not be read (whole seconds or an HTTP date)");
  EXPECT_EQ(net::unreadableRetryAfterText(""),
            "Retry-After: (empty) could not be read (whole seconds or an HTTP date)");
  const std::string longValue(100, 'x');
  EXPECT_EQ(net::unreadableRetryAfterText(longValue),
            "Retry-After: " + std::string(net::kMaxRetryAfterShown, 'x') +
                "… could not be read (whole seconds or an HTTP date)");
}

TEST(RetryAfterUnreadable, TheParserKeepsAnUnreadableValueAndOnlyThat) {
  for (const char* bad : {"1.5", "-5", "soon", "Sunday, 06-Nov-94 08:49:37 GMT"}) {
    net::Http1ResponseParser p;
    const std::string bytes = std::string("HTTP/1.1 429 Too Many Requests\r\nRetry-After: ") + bad +
                              "\r\nContent-Length: 0\r\n\r\n";
    p.feed(bytes.data(), bytes.size(), &dropHeaderWordsBody, nullptr);
    ASSERT_TRUE(p.done()) << bad;
    EXPECT_EQ(p.retryAfterMs(), -1) << bad;
    EXPECT_EQ(p.unreadableRetryAfter(), bad);
    p.reset();
    EXPECT_EQ(p.unreadableRetryAfter(), "");
  }
  net::Http1ResponseParser good;
  const std::string bytes =
      "HTTP/1.1 503 Unavailable\r\nRetry-After: 7\r\nContent-Length: 0\r\n\r\n";
  good.feed(bytes.data(), bytes.size(), &dropHeaderWordsBody, nullptr);
  EXPECT_EQ(good.retryAfterMs(), 7'000);
  EXPECT_EQ(good.unreadableRetryAfter(), "");
}

TEST(RetryAfterUnreadable, AFailedReplyWithOneSaysSoInItsReason) {
  metrics::ErrorClass cls{};
  EXPECT_EQ(headerWordsReason(429, "1.5", "", cls),
            "Retry-After: 1.5 could not be read (whole seconds or an HTTP date)");
  EXPECT_EQ(cls, metrics::ErrorClass::RateLimited);
  EXPECT_EQ(headerWordsReason(503, "-5", "", cls),
            "Retry-After: -5 could not be read (whole seconds or an HTTP date)");
  EXPECT_EQ(cls, metrics::ErrorClass::Http5xx);
  EXPECT_EQ(headerWordsReason(429, "", "", cls),
            "");  // none, or one that was read: the reply says it all
}

TEST(ContentCoding, OnlyARealCodingCounts) {
  EXPECT_EQ(net::bodyContentCoding("gzip"), "gzip");
  EXPECT_EQ(net::bodyContentCoding("  br, gzip "), "br, gzip");
  EXPECT_EQ(net::bodyContentCoding("identity"), "");
  EXPECT_EQ(net::bodyContentCoding(" IDENTITY "), "");
  EXPECT_EQ(net::bodyContentCoding(""), "");
  EXPECT_EQ(net::bodyContentCoding(std::string(200, 'z')).size(), net::kMaxContentCoding);
}

TEST(ContentCoding, TheParserReadsItAndForgetsItOnReset) {
  net::Http1ResponseParser p;
  const std::string bytes =
      "HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\nContent-Length: 2\r\n\r\n\x1f\x8b";
  p.feed(bytes.data(), bytes.size(), &dropHeaderWordsBody, nullptr);
  ASSERT_TRUE(p.done());
  EXPECT_EQ(p.contentCoding(), "gzip");
  p.reset();
  EXPECT_EQ(p.contentCoding(), "");
}

TEST(ContentCoding, ACompressedReplyIsMalformedNamingItsCoding) {
  metrics::ErrorClass cls{};
  EXPECT_EQ(headerWordsReason(200, "", "gzip", cls),
            "the reply is Content-Encoding: gzip, which was not asked for (the request sends no "
            "Accept-Encoding); "
            "its body cannot be read as a completion");
  EXPECT_EQ(cls, metrics::ErrorClass::MalformedStream);
  EXPECT_EQ(headerWordsReason(500, "", "br", cls),
            "the reply is Content-Encoding: br, which was not asked for (the request sends no "
            "Accept-Encoding); "
            "its body is not shown");
  EXPECT_EQ(cls, metrics::ErrorClass::Http5xx);
}

}  // namespace
}  // namespace plumbline::engine
