// What a reply that a real OpenAI-compatible server can send ends as: completed (with its
// tokens timed) or failed in the class and with the reason a person can act on. Found by a QA
// pass against servers imitating vLLM, SGLang, llama.cpp, FastChat, TGI and reasoning models:
// error events counted as completions, "error": null failing good replies, reasoning tokens
// left out of TTFT, a stream's end taken from the HTTP body instead of its "[DONE]".
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/engine/failure_reason.h"
#include "core/engine/response_reader.h"
#include "core/engine/transfer.h"
#include "core/engine/worker_config.h"

namespace plumbline::engine {
namespace {

using metrics::ErrorClass;
constexpr int64_t kOneMs = 1'000'000;

struct Reading {
  WorkerConfig config;
  ResponseReader reader{config};
  Transfer t;

  explicit Reading(bool stream) {
    config.stream = stream;
    reader.keepAllReplies(true);
    t.resetForRequest();
    t.status = 200;
    t.statusKnown = true;
  }
  /// Body bytes arriving `atMs` after t0.
  void body(const std::string& bytes, int64_t atMs) {
    t.bytesReceived += bytes.size();  // as the drivers count them
    reader.onBody(t, bytes.data(), bytes.size(), atMs * kOneMs);
  }
  /// One SSE event per string, 10 ms apart from 100 ms.
  void events(const std::vector<std::string>& data) {
    int64_t at = 100;
    for (const auto& d : data) body("data: " + d + "\n\n", (at += 10) - 10);
  }
  /// The body ended cleanly at `atMs`.
  void end(int64_t atMs) {
    t.record.endNs = atMs * kOneMs;
    reader.finishCompleted(t);
  }
  std::string reason() const { return failureReason(t, 10'000'000'000); }
};

const std::string kDone = "[DONE]";
std::string token(const std::string& text) {
  return R"({"choices":[{"index":0,"delta":{"content":")" + text + R"("},"finish_reason":null}]})";
}
std::string finish(const std::string& why) {
  return R"({"choices":[{"index":0,"delta":{},"finish_reason":")" + why + R"("}]})";
}

TEST(ResponseReaderOutcome, AnErrorEventIsAFailureClassedByItsCodeNeverACompletion) {
  struct Case {
    std::string event;
    ErrorClass cls;
  };
  for (
      const Case& c : std::vector<Case>{
          // FastChat's openai_api_server, then "[DONE]"
          {R"({"text": "**NETWORK ERROR DUE TO HIGH TRAFFIC.**", "error_code": 50001})",
           ErrorClass::Http5xx},
          // vLLM / SGLang error object
          {R"({"object":"error","message":"Internal error","type":"InternalServerError","code":500})",
           ErrorClass::Http5xx},
          // vLLM's mid-stream error, a bad request
          {R"({"error":{"message":"too long","type":"BadRequestError","code":400}})",
           ErrorClass::Http4xx},
          {R"({"error":{"message":"slow down","code":"429"}})", ErrorClass::RateLimited},
          // TGI: a string
          {R"({"error":"Input validation error","error_type":"validation"})",
           ErrorClass::Http5xx}}) {
    Reading r(true);
    r.events({token("a"), c.event, kDone});
    r.end(200);
    EXPECT_EQ(r.t.record.error, c.cls) << c.event;
    EXPECT_EQ(r.reason(), "an error event in the stream") << c.event;
    EXPECT_EQ(r.t.response, c.event);  // the failure sample shows the event
  }
}

TEST(ResponseReaderOutcome, ANullOrFalseErrorIsNoError) {
  Reading r(true);
  r.events({R"({"choices":[{"delta":{"content":"a"}}],"error":null})",
            R"({"choices":[{"delta":{"content":"b"}}],"error":false,"error_code":0})",
            R"({"choices":[{"delta":{"content":""}}],"error":""})", kDone});
  r.end(200);
  EXPECT_TRUE(r.t.record.ok()) << r.reason();
  EXPECT_EQ(r.t.reply, "ab");

  Reading body(false);
  body.body(R"({"choices":[{"message":{"content":"hi"},"finish_reason":"stop"}],"error":null,)"
            R"("usage":{"prompt_tokens":3,"completion_tokens":1}})",
            50);
  body.end(50);
  EXPECT_TRUE(body.t.record.ok()) << body.reason();
}

TEST(ResponseReaderOutcome, AStreamWithNoChoiceIsNoCompletion) {
  Reading r(true);
  r.events({R"({"id":"x","object":"chat.completion.chunk"})",
            R"({"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":0}})", kDone});
  r.end(200);
  EXPECT_EQ(r.t.record.error, ErrorClass::MalformedStream);
  EXPECT_EQ(r.reason(), "3 events, none with a choice: no completion in the stream");
}

TEST(ResponseReaderOutcome, ABodyWithNoChoiceOrAnErrorIsNoCompletion) {
  struct Case {
    std::string body;
    ErrorClass cls;
    std::string reason;
  };
  for (
      const Case& c : std::vector<Case>{
          {R"({"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":8}})",
           ErrorClass::MalformedStream, "a completion with no choice"},
          {R"({"object":"chat.completion","usage":{"prompt_tokens":3,"completion_tokens":8}})",
           ErrorClass::MalformedStream, "a completion with no choice"},
          {R"({"object":"error","message":"The model is overloaded","code":503,"usage":{"prompt_tokens":0}})",
           ErrorClass::Http5xx, "an error in place of the completion"},
          {R"({"choices":[{"message":{"content":"hal"},"finish_reason":"abort"}]})",
           ErrorClass::StreamCut, "the server gave the reply up (finish_reason \"abort\")"},
          {R"({"choices":5})", ErrorClass::MalformedStream,
           "a body that is not a completion (\"choices\" is not an array)"},
          {"<html>", ErrorClass::MalformedStream,
           "a body that is not a completion (not valid JSON)"}}) {
    Reading r(false);
    r.body(c.body, 50);
    r.end(50);
    EXPECT_EQ(r.t.record.error, c.cls) << c.body;
    EXPECT_EQ(r.reason(), c.reason) << c.body;
  }
}

TEST(ResponseReaderOutcome, ReasoningAndToolCallTokensAreGeneratedTokensButNotTheAnswer) {
  Reading r(true);
  r.events(
      {R"({"choices":[{"delta":{"role":"assistant","content":""}}]})",
       R"({"choices":[{"delta":{"content":null,"reasoning_content":"Let"}}]})",
       R"({"choices":[{"delta":{"reasoning":" me"}}]})",
       R"({"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":"f","arguments":""}}]}}]})",
       R"({"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}}]})",
       token("ok"), finish("stop"), kDone});
  r.end(300);
  ASSERT_TRUE(r.t.record.ok()) << r.reason();
  EXPECT_EQ(r.t.record.firstTokenNs, 110 * kOneMs);  // the first reasoning token, not the answer's
  EXPECT_EQ(r.t.record.lastTokenNs, 150 * kOneMs);
  EXPECT_EQ(r.t.record.outputTokensClient, 5);
  EXPECT_EQ(r.t.answerTokensClient, 1);  // what a next turn resends (QA 24 D4)
  EXPECT_EQ(r.t.itlGapsNs.size(), 4u);
  EXPECT_EQ(r.t.reply, "ok");  // what a next turn sends back is the answer
  EXPECT_EQ(r.t.thought, "Let mef{}");  // counted with it under a tokenizer

  Reading body(false);  // the same, not streamed
  body.body(R"({"choices":[{"message":{"content":"4","reasoning_content":"2 and 2"},)"
            R"("finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":9}})",
            50);
  body.end(50);
  ASSERT_TRUE(body.t.record.ok()) << body.reason();
  EXPECT_EQ(body.t.reply, "4");
  EXPECT_EQ(body.t.thought, "2 and 2");
}

TEST(ResponseReaderOutcome, TheFirstAnswerTokenIsStampedApartFromTheFirstThinkingToken) {
  Reading thinker(true);
  thinker.events({R"({"choices":[{"delta":{"role":"assistant","content":""}}]})",
                  R"({"choices":[{"delta":{"reasoning_content":"Let"}}]})",
                  R"({"choices":[{"delta":{"reasoning_content":" me"}}]})",
                  R"({"choices":[{"delta":{"content":null,"reasoning":" see"}}]})", token("Yes"),
                  token("."), finish("stop"), kDone});
  thinker.end(300);
  ASSERT_TRUE(thinker.t.record.ok()) << thinker.reason();
  EXPECT_EQ(thinker.t.record.firstTokenNs, 110 * kOneMs);   // "Let"
  EXPECT_EQ(thinker.t.record.firstAnswerNs, 140 * kOneMs);  // "Yes", not the empty content
  EXPECT_EQ(thinker.t.record.ttfaNs(), -1);                 // no send stamp in this reading

  Reading answerer(true);
  answerer.events({token("Yes"), token("."), finish("stop"), kDone});
  answerer.end(300);
  ASSERT_TRUE(answerer.t.record.ok()) << answerer.reason();
  EXPECT_EQ(answerer.t.record.firstAnswerNs, 100 * kOneMs);
  EXPECT_EQ(answerer.t.record.firstAnswerNs, answerer.t.record.firstTokenNs);

  Reading stillThinking(true);  // ended by length while thinking: no answer token
  stillThinking.events(
      {R"({"choices":[{"delta":{"reasoning_content":"Hm"}}]})", finish("length"), kDone});
  stillThinking.end(300);
  ASSERT_TRUE(stillThinking.t.record.ok()) << stillThinking.reason();
  EXPECT_EQ(stillThinking.t.record.firstTokenNs, 100 * kOneMs);
  EXPECT_EQ(stillThinking.t.record.firstAnswerNs, -1);

  Reading body(false);  // not streamed: neither token is timed
  body.body(R"({"choices":[{"message":{"content":"4","reasoning_content":"2 and 2"},)"
            R"("finish_reason":"stop"}]})",
            50);
  body.end(50);
  ASSERT_TRUE(body.t.record.ok()) << body.reason();
  EXPECT_EQ(body.t.record.firstTokenNs, -1);
  EXPECT_EQ(body.t.record.firstAnswerNs, -1);
}

// QA 24 D5: a 0.2405 s timeout was said as "the 240 ms timeout".
TEST(ResponseReaderOutcome, ATimeoutIsSaidExactlyAsItWasSet) {
  EXPECT_EQ(describeTimeout(240'500'000), "240.5 ms");
  EXPECT_EQ(describeTimeout(250'000'000), "250 ms");
  EXPECT_EQ(describeTimeout(1'500), "0.0015 ms");
  EXPECT_EQ(describeTimeout(60'000'000'000), "60 s");
  EXPECT_EQ(describeTimeout(1'500'000'000), "1.5 s");
  EXPECT_EQ(describeTimeout(2'000'000'001), "2.000000001 s");
  Reading late(true);
  late.t.record.error = ErrorClass::Timeout;
  EXPECT_EQ(failureReason(late.t, 240'500'000), "no reply within the 240.5 ms timeout");
}

// A hold of the worker's loop across a request's deadline is named, with how far past it.
TEST(ResponseReaderOutcome, ATimeoutPassedInAHoldSaysWhereTheRequestWas) {
  EXPECT_EQ(notWrittenInTime(1'000'000'000, 1'004'900'000),
            "the 1 s timeout passed before this worker could write the request (its loop was "
            "held, 1004 ms past it)");
  EXPECT_EQ(heldWhileWriting(100'000'000, 300'000'000),
            "the 100 ms timeout passed while this worker was writing the request (its loop was "
            "held, 300 ms past it)");
}

TEST(ResponseReaderOutcome, AStreamEndsAtItsDoneEvent) {
  Reading r(true);
  r.events({token("a"), token("b"), kDone});
  r.end(1250);  // the server held the body open a second after "[DONE]"
  ASSERT_TRUE(r.t.record.ok());
  EXPECT_EQ(r.t.record.endNs, 120 * kOneMs);
  // Events after it are not read, as a client has stopped reading.
  Reading after(true);
  after.events({token("a"), kDone, token("late"), "{not json"});
  after.end(200);
  EXPECT_TRUE(after.t.record.ok()) << after.reason();
  EXPECT_EQ(after.t.reply, "a");
  // "[DONE] " as the OpenAI client libraries accept it.
  Reading spaced(true);
  spaced.events({token("a"), "[DONE] "});
  spaced.end(200);
  EXPECT_TRUE(spaced.t.record.ok()) << spaced.reason();
}

TEST(ResponseReaderOutcome, AFailureAfterDoneTakesNothingFromTheReply) {
  WorkerConfig config;
  config.stream = true;
  ResponseReader reader(config);
  Transfer t;
  t.resetForRequest();
  t.status = 200;
  const std::string bytes = "data: " + token("a") + "\n\ndata: [DONE]\n\n";
  reader.onBody(t, bytes.data(), bytes.size(), 100 * kOneMs);
  EXPECT_TRUE(reader.endedAtDone(t));
  t.status = 503;
  EXPECT_FALSE(reader.endedAtDone(t));
  Transfer cut;
  cut.resetForRequest();
  cut.status = 200;
  const std::string half = "data: " + token("a") + "\n\n";
  reader.onBody(cut, half.data(), half.size(), 100 * kOneMs);
  EXPECT_FALSE(reader.endedAtDone(cut));
}

TEST(ResponseReaderOutcome, WithoutDoneAFinishReasonAndACleanEndAreWhole) {
  Reading whole(true);  // llama.cpp's server before it sent [DONE], ik_llama.cpp
  whole.events({token("a"), finish("stop"),
                R"({"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":1}})"});
  whole.end(200);
  EXPECT_TRUE(whole.t.record.ok()) << whole.reason();
  EXPECT_EQ(whole.t.record.outputTokensServer, 1);

  Reading cut(true);
  cut.events({token("a"), token("b")});
  cut.end(200);
  EXPECT_EQ(cut.t.record.error, ErrorClass::StreamCut);
  EXPECT_EQ(cut.reason(),
            "the stream ended without \"data: [DONE]\" or a finish_reason after 2 events");

  Reading aborted(true);  // SGLang preemption, vLLM aborts
  aborted.events({token("a"), token("b"), finish("abort"), kDone});
  aborted.end(200);
  EXPECT_EQ(aborted.t.record.error, ErrorClass::StreamCut);
  EXPECT_EQ(aborted.reason(),
            "the server gave the reply up (finish_reason \"abort\") after 2 tokens");
}

TEST(ResponseReaderOutcome, ALastEventWithoutItsBlankLineIsReadAtTheCleanEnd) {
  Reading r(true);
  r.body("data: " + token("a") + "\n\ndata: [DONE]\n", 100);
  r.end(200);
  EXPECT_TRUE(r.t.record.ok()) << r.reason();
  EXPECT_EQ(r.t.record.endNs, 200 * kOneMs);
}

TEST(ResponseReaderOutcome, AByteOrderMarkOpeningTheStreamIsSkipped) {
  Reading r(true);
  r.body(
      "\xEF\xBB\xBF"
      "data: " +
          token("a") + "\n\n",
      100);
  r.events({token("b"), kDone});
  r.end(200);
  ASSERT_TRUE(r.t.record.ok()) << r.reason();
  EXPECT_EQ(r.t.record.firstTokenNs, 100 * kOneMs);
  EXPECT_EQ(r.t.reply, "ab");
}

TEST(ResponseReaderOutcome, WhatWasWrongWithABadEventIsSaid) {
  struct Case {
    std::string event;
    std::string reason;
  };
  for (const Case& c : std::vector<Case>{
           {"", "an event that is not a completion chunk (an event with empty data)"},
           {R"({"choices":[{"delta":{"content":")"
            "\xFF\xFE"
            R"("}}]})",
            "an event that is not a completion chunk (not valid UTF-8)"},
           {"{\"choices\":[1]}",
            "an event that is not a completion chunk (a choice that is not an object)"},
           {"Internal Server Error", "an event that is not a completion chunk (not valid JSON)"}}) {
    Reading r(true);
    r.events({token("a"), c.event, kDone});
    r.end(200);
    EXPECT_EQ(r.t.record.error, ErrorClass::MalformedStream) << c.event;
    EXPECT_EQ(r.reason(), c.reason) << c.event;
  }
  // A null "choices" (some servers' usage chunk) is no choice, not a broken chunk.
  Reading nullChoices(true);
  nullChoices.events(
      {token("a"), R"({"choices":null,"usage":{"prompt_tokens":3,"completion_tokens":1}})", kDone});
  nullChoices.end(200);
  EXPECT_TRUE(nullChoices.t.record.ok()) << nullChoices.reason();
}

TEST(ResponseReaderOutcome, APlainJsonErrorInPlaceOfAStreamIsTheServersError) {
  Reading r(true);
  r.body(R"({"error":{"message":"Rate limit reached","code":429}})", 50);
  r.end(50);
  EXPECT_EQ(r.t.record.error, ErrorClass::RateLimited);
  EXPECT_EQ(r.reason(), "an error in place of the stream");
  Reading html(true);
  html.body("<html>hello</html>", 50);
  html.end(50);
  EXPECT_EQ(html.t.record.error, ErrorClass::MalformedStream);
  EXPECT_EQ(html.reason(), "no server-sent event in the 18-byte reply");
}

TEST(ResponseReaderOutcome, ARunawayEventIsCutAndSaid) {
  Reading r(true);
  r.events({token("a")});
  const std::string mib(1u << 20, 'x');
  r.body("data: ", 150);
  for (int i = 0; i < 9; ++i) r.body(mib, 150 + i);  // one line, no end
  EXPECT_TRUE(r.t.sse.overflowed());
  EXPECT_FALSE(r.t.sse.midEvent());  // its bytes were let go
  r.end(300);
  EXPECT_EQ(r.t.record.error, ErrorClass::MalformedStream);
  EXPECT_EQ(r.reason(),
            "an event longer than 8 MiB (a worker reads at most that much of one event)");
  // The transfer's next request parses as usual.
  r.t.resetForRequest();
  r.t.status = 200;
  r.events({token("b"), kDone});
  r.end(200);
  EXPECT_TRUE(r.t.record.ok()) << r.reason();
}

TEST(ResponseReaderOutcome, ABodyLongerThanTheReaderKeepsIsSaidToBeSo) {
  Reading r(false);
  const std::string mib(1u << 20, ' ');
  r.body(R"({"choices":[{"message":{"content":"hi"},"finish_reason":"stop"}],"logprobs":")", 10);
  for (int i = 0; i < 65; ++i) r.body(mib, 10 + i);
  r.body(R"("})", 80);
  r.end(80);
  EXPECT_EQ(r.t.record.error, ErrorClass::MalformedStream);
  EXPECT_EQ(r.reason(), "a body longer than 64 MiB (a worker reads at most that much of a reply)");
  r.t.resetForRequest();
  EXPECT_LE(r.t.response.capacity(), 1u << 20);  // the next request does not keep 64 MiB
}

}  // namespace
}  // namespace plumbline::engine
