// The first reply of a failing HTTP class, as the server sent it: made one safe line (no control
// bytes, bounded, valid UTF-8, the API key never in it), carried worker → coordinator in a frame
// that refuses anything else, kept in the summary and said by the report and `runs show`.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "core/engine/frame_codec.h"
#include "core/engine/terminal_report.h"
#include "core/metrics/failure_sample.h"
#include "core/metrics/run_summary.h"

namespace metrics = plumbline::metrics;
namespace engine = plumbline::engine;

TEST(FailureSample, AnExcerptIsOneBoundedLineWithoutTheKey) {
  using metrics::failureBodyExcerpt;
  EXPECT_EQ(failureBodyExcerpt("{\"error\":\n  {\"message\":\t\"bad\"}}\r\n", ""),
            "{\"error\": {\"message\": \"bad\"}}");
  EXPECT_EQ(failureBodyExcerpt("\x1b[31mred\x1b[0m\x7f", ""), "[31mred [0m");
  EXPECT_EQ(failureBodyExcerpt("", ""), "");
  EXPECT_EQ(failureBodyExcerpt("  \n ", ""), "");
  // The key, wherever the server echoed it (even where a cut would have split it), never shows.
  const std::string key = "sk-test-0123456789abcdef";
  const std::string echoed = "Incorrect API key provided: " + key + " (and again: " + key + ")";
  EXPECT_EQ(failureBodyExcerpt(echoed, key),
            "Incorrect API key provided: [api key] (and again: [api key])");
  const std::string late = std::string(metrics::kFailureBodyMax - 5, 'a') + key;
  EXPECT_EQ(failureBodyExcerpt(late, key).find("sk-test"), std::string::npos);
  // QA: echoed JSON-escaped (PHP writes '/' as "\/") or percent-encoded, the key was whole in the
  // report, the summary and the database; and a key cut where the kept body ends (the reader
  // keeps 4 KB) left its first 12 bytes once the whitespace before it collapsed.
  const std::string slashed = "sk-QA16/with+slash_0123456789";
  EXPECT_EQ(failureBodyExcerpt(R"({"error": "bad key sk-QA16\/with+slash_0123456789"})", slashed),
            R"({"error": "bad key [api key]"})");
  EXPECT_EQ(failureBodyExcerpt("key=sk-QA16%2Fwith%2Bslash_0123456789&x=1", slashed),
            "key=[api key]&x=1");
  EXPECT_EQ(failureBodyExcerpt("<html>\n" + std::string(4000, ' ') + "key was sk-QA16SECRE",
                               "sk-QA16SECRETkey0123"),
            "<html> key was [api key]");
  EXPECT_EQ(failureBodyExcerpt("ends in sk-", "sk-QA16SECRETkey0123"), "ends in sk-");  // 3 bytes
  // QA (session 18): encoders differ in which bytes they leave alone (Python's quote keeps '/'),
  // and a server may mix forms: any byte of the key may come as itself, %XX in either case, a
  // JSON escape or \u00XX, and the key still never shows.
  const std::string mixed = "sk-test/KEY+abc=123";
  for (const std::string echoed :
       {"urlenc=sk-test/KEY%2Babc%3D123;", "urlenc=sk-test%2fKEY%2babc%3d123;",
        "urlenc=sk%2Dtest%2FKEY%2Babc%3D123;", R"(urlenc=sk-test\/KEY+abc=123;)",
        R"(urlenc=sk-test/KEY+abc=123;)"})
    EXPECT_EQ(failureBodyExcerpt(echoed, mixed), "urlenc=[api key];") << echoed;
  EXPECT_EQ(failureBodyExcerpt("cut: sk-test/KEY%2", mixed), "cut: [api key]");  // cut mid-escape
  EXPECT_EQ(failureBodyExcerpt("not it: sk-test/KEY+abc=124", mixed),
            "not it: sk-test/KEY+abc=124");
  EXPECT_EQ(failureBodyExcerpt("a space: my key", "my key"), "a space: [api key]");
  EXPECT_EQ(failureBodyExcerpt("form: my+key&", "my key"), "form: [api key]&");
  // Cut at kFailureBodyMax bytes on a UTF-8 boundary, and said to be cut.
  const std::string wide = std::string(metrics::kFailureBodyMax - 1, 'x') + "\xc3\xa9tail";
  const std::string cut = failureBodyExcerpt(wide, "");
  EXPECT_EQ(cut, std::string(metrics::kFailureBodyMax - 1, 'x') + "…");
  EXPECT_EQ(failureBodyExcerpt(std::string(metrics::kFailureBodyMax, 'y'), ""),
            std::string(metrics::kFailureBodyMax, 'y'));
  // Ill-formed UTF-8 (a lone continuation byte, a truncated sequence, an overlong form) reads
  // U+FFFD, one per maximal invalid part.
  EXPECT_EQ(failureBodyExcerpt("a\x80"
                               "b\xe2\x82"
                               "c\xc0\xaf",
                               ""),
            "a\ufffd"
            "b\ufffd"
            "c\ufffd\ufffd");
  EXPECT_EQ(failureBodyExcerpt("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", ""),
            "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
}

TEST(FailureSample, ReplyClassesAndTransportClassesCarryOne) {
  using metrics::ErrorClass;
  for (auto c :
       {ErrorClass::Http4xx, ErrorClass::Http5xx, ErrorClass::RateLimited, ErrorClass::HttpOther}) {
    EXPECT_TRUE(metrics::isHttpStatusClass(c)) << metrics::errorClassName(c);
    EXPECT_TRUE(metrics::carriesFailureSample(c)) << metrics::errorClassName(c);
  }
  for (auto c : {ErrorClass::Connect, ErrorClass::Timeout, ErrorClass::StreamCut,
                 ErrorClass::MalformedStream, ErrorClass::NoReply}) {
    EXPECT_FALSE(metrics::isHttpStatusClass(c)) << metrics::errorClassName(c);
    EXPECT_TRUE(metrics::carriesFailureSample(c)) << metrics::errorClassName(c);
  }
  // Nothing is known of a cancelled or lost request; a harness limit has its own notice.
  for (auto c : {ErrorClass::None, ErrorClass::Cancelled, ErrorClass::WorkerLost,
                 ErrorClass::HarnessLimit}) {
    EXPECT_FALSE(metrics::isHttpStatusClass(c)) << metrics::errorClassName(c);
    EXPECT_FALSE(metrics::carriesFailureSample(c)) << metrics::errorClassName(c);
  }
}

TEST(FailureSample, ATransportFailureSaysWhatTheClientSaw) {
  const metrics::FailureSample refused{0, 1'000'000, "",
                                       "connect to 127.0.0.1:9: Connection refused (ECONNREFUSED)"};
  EXPECT_EQ(metrics::describeFirstFailure("connect", refused),
            "first connect failure: connect to 127.0.0.1:9: Connection refused (ECONNREFUSED)");
  const metrics::FailureSample html{200, 1'000'000, "<html><body>It works</body></html>",
                                    "no server-sent event in the 36-byte reply"};
  EXPECT_EQ(metrics::describeFirstFailure("malformed_stream", html),
            "first malformed_stream failure: HTTP 200, no server-sent event in the 36-byte reply: "
            "<html><body>It works</body></html>");
  // A reply's class reads as before.
  EXPECT_EQ(metrics::describeFirstFailure("http_5xx", {503, 0, "", ""}),
            "first http_5xx reply: HTTP 503 (empty body)");

  // In the summary: "status" only when a head was read, "reason" only when there is one.
  metrics::FailureSamples samples{{"connect", refused}, {"malformed_stream", html}};
  const nlohmann::json j = metrics::failureSamplesJson(samples);
  EXPECT_EQ(j.at("connect"),
            (nlohmann::json{{"sent_at_s", 0.001}, {"reason", refused.reason}, {"body", ""}}));
  EXPECT_EQ(j.at("malformed_stream").at("status"), 200);
  EXPECT_EQ(metrics::failureSamplesFromJson(j), samples);
  nlohmann::json bad = j;
  bad["connect"]["status"] = 0;  // written as absent, never as 0
  EXPECT_THROW(metrics::failureSamplesFromJson(bad), std::invalid_argument);
  bad = j;
  bad["connect"]["reason"] = 7;
  try {
    metrics::failureSamplesFromJson(bad);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "failure_samples.connect.reason: expected a string");
  }
  bad = j;
  bad["cancelled"] = j["connect"];
  EXPECT_THROW(metrics::failureSamplesFromJson(bad), std::invalid_argument);

  // On the wire: a transport class without a status, one with (a 200 that was no stream).
  engine::FailureSampleReport report{metrics::ErrorClass::Connect, refused};
  EXPECT_EQ(engine::decodeFailureSample(engine::encodeFailureSample(report)).sample, refused);
  report = {metrics::ErrorClass::MalformedStream, html};
  EXPECT_EQ(engine::decodeFailureSample(engine::encodeFailureSample(report)).sample, html);
  report.sample.reason = "two\nlines";
  EXPECT_THROW(engine::decodeFailureSample(engine::encodeFailureSample(report)),
               engine::ProtocolError);
  report.sample.reason = std::string(metrics::kFailureBodyMax + 4, 'r');
  EXPECT_THROW(engine::decodeFailureSample(engine::encodeFailureSample(report)),
               engine::ProtocolError);
  report.sample = refused;
  report.sample.status = 42;
  EXPECT_THROW(engine::decodeFailureSample(engine::encodeFailureSample(report)),
               engine::ProtocolError);
}

TEST(FailureSample, TheFrameCarriesOneAndRefusesWhatNoWorkerSends) {
  engine::FailureSampleReport report;
  report.errorClass = metrics::ErrorClass::RateLimited;
  report.sample = {429, 1'500'000'000, R"({"error":"slow down"})", ""};
  const engine::FailureSampleReport back =
      engine::decodeFailureSample(engine::encodeFailureSample(report));
  EXPECT_EQ(back.errorClass, report.errorClass);
  EXPECT_EQ(back.sample, report.sample);

  auto refused = [](engine::FailureSampleReport r) {
    try {
      engine::decodeFailureSample(engine::encodeFailureSample(r));
    } catch (const engine::ProtocolError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  auto bad = report;
  bad.errorClass = metrics::ErrorClass::Cancelled;
  EXPECT_EQ(refused(bad), "failure sample frame: class 8 does not keep its first failure");
  bad = report;
  bad.errorClass = static_cast<metrics::ErrorClass>(200);
  EXPECT_EQ(refused(bad), "failure sample frame: class 200 does not keep its first failure");
  bad = report;
  bad.sample.status = 0;  // a reply's class always has its status
  EXPECT_EQ(refused(bad), "failure sample frame: status 0 is not an HTTP status");
  bad = report;
  bad.sample.status = 1000;
  EXPECT_EQ(refused(bad), "failure sample frame: status 1000 is not an HTTP status");
  bad.sample.status = 99;
  EXPECT_EQ(refused(bad), "failure sample frame: status 99 is not an HTTP status");
  bad = report;  // a status past 599 is one a server can send (class http_other)
  bad.errorClass = metrics::ErrorClass::HttpOther;
  bad.sample.status = 600;
  EXPECT_EQ(refused(bad), "accepted");
  bad = report;
  bad.sample.sendNs = -1;
  EXPECT_EQ(refused(bad), "failure sample frame: negative send time");
  bad = report;
  bad.sample.body = std::string(metrics::kFailureBodyMax + 4, 'z');
  EXPECT_EQ(refused(bad), "failure sample frame: body of 304 bytes is longer than an excerpt");
  bad = report;
  bad.sample.body = "two\nlines";
  EXPECT_EQ(refused(bad),
            "failure sample frame: body holds a control byte (excerpts are one line)");
  std::string truncated = engine::encodeFailureSample(report);
  truncated.pop_back();
  EXPECT_THROW(engine::decodeFailureSample(truncated), engine::ProtocolError);
  EXPECT_THROW(engine::decodeFailureSample(engine::encodeFailureSample(report) + "x"),
               engine::ProtocolError);
}

TEST(FailureSample, TheSummaryKeepsThemAndTheReportSaysThem) {
  metrics::RunSummary s;
  s.sent = 10;
  s.errors = {{"http_4xx", 4}, {"rate_limited", 2}};
  s.failureSamples["http_4xx"] = {404, 12'000'000, R"({"error":{"message":"no such model"}})", ""};
  s.failureSamples["rate_limited"] = {429, 20'000'000, "", ""};
  const nlohmann::json j = s.toJson();
  EXPECT_EQ(j.at("failure_samples").at("http_4xx"),
            (nlohmann::json{{"status", 404},
                            {"sent_at_s", 0.012},
                            {"body", R"({"error":{"message":"no such model"}})"}}));
  EXPECT_EQ(metrics::RunSummary::fromJson(j).failureSamples, s.failureSamples);
  // A summary stored before samples were kept reads as none.
  nlohmann::json older = j;
  older.erase("failure_samples");
  EXPECT_TRUE(metrics::RunSummary::fromJson(older).failureSamples.empty());
  // A damaged one is an error naming it, as every other key is.
  nlohmann::json damaged = j;
  damaged["failure_samples"]["cancelled"] = {{"status", 500}, {"sent_at_s", 0}, {"body", ""}};
  EXPECT_THROW(metrics::RunSummary::fromJson(damaged), std::invalid_argument);
  damaged = j;
  damaged["failure_samples"]["http_4xx"]["status"] = "404";
  try {
    metrics::RunSummary::fromJson(damaged);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "failure_samples.http_4xx.status: expected an HTTP status");
  }

  const std::string report = engine::formatRunReport(s, {});
  EXPECT_NE(report.find("  failed by class: http_4xx 4 rate_limited 2\n"
                        "    first http_4xx reply: HTTP 404: {\"error\":{\"message\":\"no such "
                        "model\"}}\n"
                        "    first rate_limited reply: HTTP 429 (empty body)\n"),
            std::string::npos)
      << report;
  EXPECT_EQ(engine::formatRunReport(metrics::RunSummary{}, {}).find("first "), std::string::npos);
}
