// What a reply's Retry-After asked for: parsed in both of RFC 9110's forms, read by the native
// HTTP/1.1 parser wherever the bytes are cut, counted by the run's aggregator and reported.
#include <gtest/gtest.h>

#include <string>

#include "core/engine/terminal_report.h"
#include "core/metrics/run_aggregator.h"
#include "core/net/http1_response_parser.h"
#include "core/net/retry_after.h"

using plumbline::net::parseRetryAfterMs;

namespace {
constexpr int64_t kNow = 784111777;  // Sun, 06 Nov 1994 08:49:37 GMT (RFC 9110's example)

void ignore(void*, const char*, size_t) {}
}  // namespace

TEST(RetryAfter, DeltaSecondsAreMilliseconds) {
  EXPECT_EQ(parseRetryAfterMs("120", kNow), 120'000);
  EXPECT_EQ(parseRetryAfterMs("0", kNow), 0);
  EXPECT_EQ(parseRetryAfterMs("9999999999", kNow), 9'999'999'999'000);  // ten digits: kept
}

TEST(RetryAfter, AnImfFixdateIsTakenFromNow) {
  EXPECT_EQ(parseRetryAfterMs("Sun, 06 Nov 1994 08:51:37 GMT", kNow), 120'000);
  EXPECT_EQ(parseRetryAfterMs("Sun, 06 Nov 1994 08:49:37 GMT", kNow), 0);
  EXPECT_EQ(parseRetryAfterMs("Sat, 05 Nov 1994 08:49:37 GMT", kNow), 0);  // already past
  EXPECT_EQ(parseRetryAfterMs("Thu, 29 Feb 2024 00:00:00 GMT", 1709164800 - 5),
            5'000);  // a leap day
  EXPECT_EQ(parseRetryAfterMs("Fri, 01 Jan 2100 00:00:01 GMT", 4102444800), 1'000);
}

TEST(RetryAfter, AnythingElseIsNone) {
  for (const char* bad :
       {"", "-5", "1.5", "12s", " 12", "soon", "99999999999", "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 UTC",
        "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 29 Feb 2023 08:49:37 GMT",
        "Sun, 06 Foo 1994 08:49:37 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT "})
    EXPECT_EQ(parseRetryAfterMs(bad, kNow), -1) << "'" << bad << "'";
}

TEST(RetryAfter, TheResponseParserReadsItAtEverySplitAndForgetsItOnReset) {
  const std::string bytes =
      "HTTP/1.1 100 Continue\r\nRetry-After: 3\r\n\r\n"  // an interim reply's header is not the
                                                         // reply's
      "HTTP/1.1 429 Too Many Requests\r\nContent-Length: 2\r\nrEtRy-AfTeR:  30 \r\n\r\n{}";
  for (size_t cut = 0; cut <= bytes.size(); ++cut) {
    plumbline::net::Http1ResponseParser p;
    size_t used = p.feed(bytes.data(), cut, &ignore, nullptr);
    used += p.feed(bytes.data() + used, bytes.size() - used, &ignore, nullptr);
    ASSERT_TRUE(p.done()) << "cut at " << cut;
    EXPECT_EQ(p.status(), 429);
    ASSERT_EQ(p.retryAfterMs(), 30'000) << "cut at " << cut;
    p.reset();
    EXPECT_EQ(p.retryAfterMs(), -1);
  }
  plumbline::net::Http1ResponseParser interimOnly;
  const std::string onlyInterim =
      "HTTP/1.1 100 Continue\r\nRetry-After: 3\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
  interimOnly.feed(onlyInterim.data(), onlyInterim.size(), &ignore, nullptr);
  ASSERT_TRUE(interimOnly.done());
  EXPECT_EQ(interimOnly.retryAfterMs(), -1);
}

TEST(RetryAfter, TheRunCountsRepliesThatAskedAndReportsTheRange) {
  plumbline::metrics::RunAggregator a;
  plumbline::metrics::RequestRecord r;
  r.plannedNs = r.sendNs = 0;
  r.endNs = 1'000'000;
  r.httpStatus = 429;
  r.error = plumbline::metrics::ErrorClass::RateLimited;
  for (int64_t ms : {-1, 2000, 0, 30'000, -1}) {
    r.retryAfterMs = ms;
    a.addRecord(r);
  }
  const plumbline::metrics::RunSummary s = a.summarize(1.0, 5.0, {});
  EXPECT_EQ(s.retryAfterResponses, 3u);
  EXPECT_EQ(s.retryAfterMinMs, 0);
  EXPECT_EQ(s.retryAfterMaxMs, 30'000);
  EXPECT_NE(plumbline::engine::formatRunReport(s, {}).find(
                "retry-after: 3 replies asked to wait 0\u201330 s (not obeyed: the plan was kept)"),
            std::string::npos)
      << plumbline::engine::formatRunReport(s, {});
  plumbline::metrics::RunAggregator none;
  EXPECT_EQ(
      plumbline::engine::formatRunReport(none.summarize(1.0, 5.0, {}), {}).find("retry-after"),
      std::string::npos);
}
