#include "core/engine/frame_codec.h"

#include <cstring>

namespace plumbline::engine {

using protocol::FrameType;

void PayloadReader::raw(void* p, size_t n) {
  if (remaining() < n) throw ProtocolError(std::string(m_what) + ": truncated payload");
  std::memcpy(p, m_in.data() + m_pos, n);
  m_pos += n;
}
uint8_t PayloadReader::u8() { uint8_t v; raw(&v, 1); return v; }
uint16_t PayloadReader::u16() { uint16_t v; raw(&v, 2); return v; }
uint32_t PayloadReader::u32() { uint32_t v; raw(&v, 4); return v; }
uint64_t PayloadReader::u64() { uint64_t v; raw(&v, 8); return v; }
int32_t PayloadReader::i32() { int32_t v; raw(&v, 4); return v; }
int64_t PayloadReader::i64() { int64_t v; raw(&v, 8); return v; }
double PayloadReader::f64() { double v; raw(&v, 8); return v; }

std::string_view PayloadReader::bytes() {
  const uint32_t n = u32();
  if (remaining() < n) throw ProtocolError(std::string(m_what) + ": truncated byte string");
  std::string_view v = m_in.substr(m_pos, n);
  m_pos += n;
  return v;
}

void PayloadReader::expectEnd() const {
  if (remaining() != 0)
    throw ProtocolError(std::string(m_what) + ": " + std::to_string(remaining()) +
                        " unexpected trailing bytes");
}

void PayloadReader::expectAtLeast(uint64_t n, size_t itemSize) const {
  if (itemSize != 0 && n > remaining() / itemSize)
    throw ProtocolError(std::string(m_what) + ": count " + std::to_string(n) +
                        " exceeds the payload");
}

std::string greeting() {
  std::string g(protocol::kMagic, 4);
  PayloadWriter w(g);
  w.u16(protocol::kVersion);
  w.u16(0);
  return g;
}

void appendFrame(std::string& out, FrameType type, std::string_view payload) {
  PayloadWriter w(out);
  w.u32(static_cast<uint32_t>(payload.size() + 1));
  w.u8(static_cast<uint8_t>(type));
  out.append(payload);
}

std::optional<Frame> FrameReader::next() {
  if (!m_greeted) {
    if (buffered() < protocol::kGreetingSize) return std::nullopt;
    std::string_view g(m_buf.data() + m_pos, protocol::kGreetingSize);
    if (std::memcmp(g.data(), protocol::kMagic, 4) != 0)
      throw ProtocolError("bad greeting: not a Plumbline worker stream");
    uint16_t version = 0;
    std::memcpy(&version, g.data() + 4, 2);
    if (version != protocol::kVersion)
      throw ProtocolError("protocol version " + std::to_string(version) + " not supported (this is " +
                          std::to_string(protocol::kVersion) + ")");
    m_pos += protocol::kGreetingSize;
    m_greeted = true;
  }
  if (buffered() < 5) return std::nullopt;
  uint32_t length = 0;
  std::memcpy(&length, m_buf.data() + m_pos, 4);
  if (length == 0) throw ProtocolError("frame of length 0");
  if (length > protocol::kMaxFrameSize)
    throw ProtocolError("frame of " + std::to_string(length) + " bytes exceeds the limit");
  const auto type = static_cast<uint8_t>(m_buf[m_pos + 4]);
  if (!protocol::isKnownFrameType(type))
    throw ProtocolError("unknown frame type " + std::to_string(type));
  if (buffered() < 4 + static_cast<size_t>(length)) return std::nullopt;
  Frame f{static_cast<FrameType>(type), m_buf.substr(m_pos + 5, length - 1)};
  m_pos += 4 + length;
  if (m_pos > 65536 && m_pos * 2 > m_buf.size()) {  // compact now and then, not every frame
    m_buf.erase(0, m_pos);
    m_pos = 0;
  }
  return f;
}

namespace {
constexpr size_t kSessionWireSize = 8 + 8 + 4 + 4 + 4;
constexpr size_t kRecordWireSize = 8 + 4 + 4 + 7 * 8 + 4 * 4 + 4 + 4 + 1 + 8 + 8 + 8;
}  // namespace

void encodeSessionHead(PayloadWriter& w, const workload::SessionPlan& s) {
  w.u64(s.id);
  w.i64(s.plannedNs);
  w.u32(s.inputTokens);
  w.u32(s.outputTokens);
  w.u32(s.stage);
}

void decodeSessionHead(PayloadReader& r, workload::SessionPlan& s) {
  s.id = r.u64();
  s.plannedNs = r.i64();
  s.inputTokens = r.u32();
  s.outputTokens = r.u32();
  s.stage = r.u32();
}

std::string encodeSessions(const std::vector<workload::SessionPlan>& sessions) {
  std::string out;
  out.reserve(4 + sessions.size() * kSessionWireSize);
  PayloadWriter w(out);
  w.u32(static_cast<uint32_t>(sessions.size()));
  for (const auto& s : sessions) encodeSessionHead(w, s);
  return out;
}

std::vector<workload::SessionPlan> decodeSessions(std::string_view payload) {
  PayloadReader r(payload, "sessions frame");
  const uint32_t n = r.u32();
  r.expectAtLeast(n, kSessionWireSize);
  std::vector<workload::SessionPlan> out(n);
  for (auto& s : out) decodeSessionHead(r, s);
  r.expectEnd();
  return out;
}

void encodeRecord(PayloadWriter& w, const metrics::RequestRecord& r) {
  w.u64(r.sessionId);
  w.u32(r.turn);
  w.u32(r.workerId);
  for (int64_t t : {r.plannedNs, r.sendNs, r.firstByteNs, r.firstTokenNs, r.lastTokenNs, r.endNs, r.uploadEndNs})
    w.i64(t);
  w.i32(r.inputTokensServer);
  w.i32(r.outputTokensServer);
  w.i32(r.inputTokensClient);
  w.i32(r.outputTokensClient);
  w.u32(r.chunks);
  w.i32(r.httpStatus);
  w.u8(static_cast<uint8_t>(r.error));
  w.i64(r.retryAfterMs);
  w.i64(r.firstAnswerNs);
  w.i64(r.heldNs);
}

metrics::RequestRecord decodeRecord(PayloadReader& r) {
  metrics::RequestRecord rec;
  rec.sessionId = r.u64();
  rec.turn = r.u32();
  rec.workerId = r.u32();
  rec.plannedNs = r.i64();
  rec.sendNs = r.i64();
  rec.firstByteNs = r.i64();
  rec.firstTokenNs = r.i64();
  rec.lastTokenNs = r.i64();
  rec.endNs = r.i64();
  rec.uploadEndNs = r.i64();
  rec.inputTokensServer = r.i32();
  rec.outputTokensServer = r.i32();
  rec.inputTokensClient = r.i32();
  rec.outputTokensClient = r.i32();
  rec.chunks = r.u32();
  rec.httpStatus = r.i32();
  const uint8_t e = r.u8();
  if (e >= metrics::kErrorClassCount)
    throw ProtocolError("records frame: unknown error class " + std::to_string(e));
  rec.error = static_cast<metrics::ErrorClass>(e);
  rec.retryAfterMs = r.i64();
  if (rec.retryAfterMs < -1)
    throw ProtocolError("records frame: retry-after " + std::to_string(rec.retryAfterMs) + " ms");
  rec.firstAnswerNs = r.i64();
  rec.heldNs = r.i64();
  if (rec.heldNs < 0) throw ProtocolError("records frame: negative loop hold");
  return rec;
}

std::string encodeRecords(const std::vector<metrics::RequestRecord>& records) {
  std::string out;
  out.reserve(4 + records.size() * kRecordWireSize);
  PayloadWriter w(out);
  w.u32(static_cast<uint32_t>(records.size()));
  for (const auto& rec : records) encodeRecord(w, rec);
  return out;
}

std::vector<metrics::RequestRecord> decodeRecords(std::string_view payload) {
  PayloadReader r(payload, "records frame");
  const uint32_t n = r.u32();
  r.expectAtLeast(n, kRecordWireSize);
  std::vector<metrics::RequestRecord> out;
  out.reserve(n);
  for (uint32_t i = 0; i < n; ++i) out.push_back(decodeRecord(r));
  r.expectEnd();
  return out;
}

namespace {
metrics::LatencyHistogram decodeHistogram(PayloadReader& r) {
  const std::string_view blob = r.bytes();
  try {
    return metrics::LatencyHistogram::deserialize(std::string(blob));
  } catch (const std::exception& e) {
    throw ProtocolError(std::string("stats frame: bad histogram: ") + e.what());
  }
}
}  // namespace

std::string encodeStats(const StatsReport& s) {
  std::string out;
  PayloadWriter w(out);
  w.u32(s.sample.workerId);
  w.i64(s.sample.atNs);
  w.f64(s.sample.cpuFraction);
  w.i64(s.sample.loopDelayMaxNs);
  w.i64(s.sample.inFlight);
  w.i64(s.sample.inFlightCapHits);
  w.i64(s.sample.cpuWaitNs);
  w.u64(s.connectionsOpen);
  w.u32(static_cast<uint32_t>(s.sends.size()));
  for (const auto& send : s.sends) {
    w.i64(send.windowIndex);
    w.u64(send.sent);
    w.bytes(send.sendLag.serialize());
    w.u64(send.sentDuring);
  }
  w.bytes(s.itl.serialize());
  w.i64(s.sendsThroughNs);
  w.u32(static_cast<uint32_t>(s.sentBySlice.size()));
  for (const auto& [slice, count] : s.sentBySlice) {
    w.i64(slice);
    w.u64(count);
  }
  return out;
}

StatsReport decodeStats(std::string_view payload) {
  PayloadReader r(payload, "stats frame");
  StatsReport s;
  s.sample.workerId = r.u32();
  s.sample.atNs = r.i64();
  s.sample.cpuFraction = r.f64();
  s.sample.loopDelayMaxNs = r.i64();
  s.sample.inFlight = r.i64();
  s.sample.inFlightCapHits = r.i64();
  s.sample.cpuWaitNs = r.i64();
  s.connectionsOpen = r.u64();
  const uint32_t n = r.u32();
  r.expectAtLeast(n, 8 + 8 + 4);
  s.sends.resize(n);
  for (auto& send : s.sends) {
    send.windowIndex = r.i64();
    if (send.windowIndex < 0) throw ProtocolError("stats frame: negative window index");
    send.sent = r.u64();
    send.sendLag = decodeHistogram(r);
    send.sentDuring = r.u64();
  }
  s.itl = decodeHistogram(r);
  s.sendsThroughNs = r.i64();
  const uint32_t slices = r.u32();
  r.expectAtLeast(slices, 8 + 8);
  s.sentBySlice.resize(slices);
  for (auto& [slice, count] : s.sentBySlice) {
    slice = r.i64();
    if (slice < 0) throw ProtocolError("stats frame: negative send slice");
    count = r.u64();
  }
  r.expectEnd();
  return s;
}

std::string encodeDone(const DoneReport& d) {
  std::string out;
  PayloadWriter w(out);
  w.u64(d.sessionsReceived);
  w.u64(d.notSent);
  w.u64(d.notSentCapHeld);
  w.u64(d.notSentBehind);
  return out;
}

DoneReport decodeDone(std::string_view payload) {
  PayloadReader r(payload, "done frame");
  DoneReport d;
  d.sessionsReceived = r.u64();
  d.notSent = r.u64();
  d.notSentCapHeld = r.u64();
  d.notSentBehind = r.u64();
  r.expectEnd();
  if (d.notSentCapHeld > d.notSent || d.notSentBehind > d.notSent - d.notSentCapHeld)
    throw ProtocolError("done frame: " + std::to_string(d.notSentCapHeld) + " + " +
                        std::to_string(d.notSentBehind) +
                        " not sent at the schedule's end exceed " + std::to_string(d.notSent) +
                        " not sent");
  return d;
}

std::string encodeFailureSample(const FailureSampleReport& report) {
  std::string out;
  PayloadWriter w(out);
  w.u8(static_cast<uint8_t>(report.errorClass));
  w.i32(report.sample.status);
  w.i64(report.sample.sendNs);
  w.bytes(report.sample.body);
  w.bytes(report.sample.reason);
  return out;
}

namespace {
/// An excerpt (metrics::failureBodyExcerpt) as a frame may carry it: bounded, one line.
void checkExcerpt(std::string_view text, const char* what) {
  // An excerpt is at most kFailureBodyMax bytes and the "…" that says it was cut.
  if (text.size() > metrics::kFailureBodyMax + 3)
    throw ProtocolError(std::string("failure sample frame: ") + what + " of " +
                        std::to_string(text.size()) + " bytes is longer than an excerpt");
  for (const char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
      throw ProtocolError(std::string("failure sample frame: ") + what +
                          " holds a control byte (excerpts are one line)");
}
}  // namespace

FailureSampleReport decodeFailureSample(std::string_view payload) {
  PayloadReader r(payload, "failure sample frame");
  FailureSampleReport report;
  const uint8_t cls = r.u8();
  report.sample.status = r.i32();
  report.sample.sendNs = r.i64();
  const std::string_view body = r.bytes();
  const std::string_view reason = r.bytes();
  r.expectEnd();
  report.errorClass = static_cast<metrics::ErrorClass>(cls);
  if (cls >= metrics::kErrorClassCount || !metrics::carriesFailureSample(report.errorClass))
    throw ProtocolError("failure sample frame: class " + std::to_string(cls) +
                        " does not keep its first failure");
  const bool reply = metrics::isHttpStatusClass(report.errorClass);
  if ((reply || report.sample.status != 0) && (report.sample.status < metrics::kMinHttpStatus ||
                                               report.sample.status > metrics::kMaxHttpStatus))
    throw ProtocolError("failure sample frame: status " + std::to_string(report.sample.status) +
                        " is not an HTTP status");
  if (report.sample.sendNs < 0) throw ProtocolError("failure sample frame: negative send time");
  checkExcerpt(body, "body");
  checkExcerpt(reason, "reason");
  report.sample.body = std::string(body);
  report.sample.reason = std::string(reason);
  return report;
}

std::string encodeStop(int64_t graceNs) {
  std::string out;
  PayloadWriter(out).i64(graceNs);
  return out;
}

int64_t decodeStop(std::string_view payload) {
  PayloadReader r(payload, "stop frame");
  const int64_t grace = r.i64();
  r.expectEnd();
  if (grace < 0) throw ProtocolError("stop frame: negative grace period");
  return grace;
}

}  // namespace plumbline::engine
