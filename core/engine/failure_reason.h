#pragma once
#include <cstdint>
#include <string>

#include "core/engine/transfer.h"

namespace plumbline::engine {

/// What went wrong with a failed transfer, in the client's words, for its failure sample
/// (metrics::FailureSample::reason): the client's own detail when it set one
/// (Transfer::failureDetail: "connect to 127.0.0.1:9: Connection refused (ECONNREFUSED)"),
/// otherwise what the transfer's state shows for its class ("no reply within the 60 s timeout").
/// Empty for an HTTP class, whose reply says it, unless the client set a detail (an unreadable
/// Retry-After, a body in a Content-Encoding not asked for).
std::string failureReason(const Transfer& t, int64_t timeoutNs);

/// "60 s", "1.5 s", "250 ms", "240.5 ms": a timeout exactly as the workload or a flag set it
/// (to the nanosecond), in seconds from 1 s up, else in milliseconds.
std::string describeTimeout(int64_t timeoutNs);

/// "the 1 s timeout passed before this worker could write the request (its loop was held,
/// 1004 ms past it)": a request whose connection was ready but whose worker came back to it
/// `lateNs` after its deadline (class harness_limit; both clients say it the same way).
std::string notWrittenInTime(int64_t timeoutNs, int64_t lateNs);
/// "the 1 s timeout passed while this worker was writing the request (its loop was held,
/// 1004 ms past it)": a request part written when its worker was held across its deadline
/// (class timeout: a server not reading would have stopped it the same way).
std::string heldWhileWriting(int64_t timeoutNs, int64_t lateNs);

}  // namespace plumbline::engine
