#pragma once
#include <cstdint>

struct evhttp_request;

namespace plumbline::mock {

class CompletionFormatter;
struct MockStats;

/// Answers a non-streaming completion with its whole JSON body and counts it (tokens sent,
/// completed, TTFT and e2e = elapsedNs, the time since the request arrived). The caller has
/// released its connection close callback; `request` is handed to libevent and must not be
/// used afterwards.
void sendFullBodyReply(evhttp_request* request, const CompletionFormatter& formatter, MockStats& stats,
                       int64_t elapsedNs);

}  // namespace plumbline::mock
