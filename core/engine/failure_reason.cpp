#include "core/engine/failure_reason.h"

#include "core/metrics/failure_sample.h"
#include "core/util/errno_text.h"

namespace plumbline::engine {

using metrics::ErrorClass;

namespace {
/// `value` / `unit` in decimal, without trailing zeros: 240'500'000 / 1'000'000 = "240.5".
std::string exactQuotient(int64_t value, int64_t unit, int digits) {
  std::string s = std::to_string(value / unit);
  if (int64_t rest = value % unit; rest != 0) {
    std::string frac = std::to_string(rest + unit).substr(1);  // leading zeros kept
    frac.resize(static_cast<size_t>(digits));
    while (frac.back() == '0') frac.pop_back();
    s += "." + frac;
  }
  return s;
}
}  // namespace

std::string describeTimeout(int64_t timeoutNs) {
  if (timeoutNs < 1'000'000'000) return exactQuotient(timeoutNs, 1'000'000, 6) + " ms";
  return exactQuotient(timeoutNs, 1'000'000'000, 9) + " s";
}

namespace {
/// "the 1 s timeout passed <what> the request (its loop was held, N ms past it)".
std::string timeoutPassedInHold(int64_t timeoutNs, const char* what, int64_t lateNs) {
  return "the " + describeTimeout(timeoutNs) + " timeout passed " + what +
         " the request (its loop was held, " + std::to_string(lateNs / 1'000'000) + " ms past it)";
}
}  // namespace

std::string notWrittenInTime(int64_t timeoutNs, int64_t lateNs) {
  return timeoutPassedInHold(timeoutNs, "before this worker could write", lateNs);
}

std::string heldWhileWriting(int64_t timeoutNs, int64_t lateNs) {
  return timeoutPassedInHold(timeoutNs, "while this worker was writing", lateNs);
}

std::string failureReason(const Transfer& t, int64_t timeoutNs) {
  const ErrorClass cls = t.record.error;
  // A reply's class is said by its status and body; an error sent in a 2xx reply (an error
  // event, a JSON error body) also says where it was.
  if (!t.failureDetail.empty()) return t.failureDetail;
  if (metrics::isHttpStatusClass(cls)) return {};
  const std::string osError = t.socketErrno != 0 ? util::errnoText(t.socketErrno) : std::string();
  const std::string received = std::to_string(t.bytesReceived) + " bytes";
  switch (cls) {
    case ErrorClass::Connect:
      return osError.empty() ? "could not connect" : "could not connect: " + osError;
    case ErrorClass::Timeout:
      if (t.record.firstByteNs < 0)
        return "no reply within the " + describeTimeout(timeoutNs) + " timeout";
      return "the reply was not complete within the " + describeTimeout(timeoutNs) + " timeout (" +
             received + " of its body received)";
    case ErrorClass::NoReply:
      return (osError.empty() ? "the server closed the connection" : osError) +
             " before any reply byte";
    case ErrorClass::StreamCut:
      return (osError.empty() ? "the reply ended" : osError) + " after " + received +
             " of its body";
    case ErrorClass::MalformedStream:
      return "the reply could not be read";
    default:
      return {};
  }
}

}  // namespace plumbline::engine
