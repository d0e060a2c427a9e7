#pragma once
// Encoding and decoding of protocol frames (see protocol.h).
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine/protocol.h"
#include "core/metrics/failure_sample.h"
#include "core/metrics/request_record.h"
#include "core/metrics/run_aggregator.h"
#include "core/workload/planner.h"

namespace plumbline::engine {

/// A frame or stream the reader cannot accept; what() names the problem.
class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Frame {
  protocol::FrameType type{};
  std::string payload;
};

/// Appends little-endian fields to a byte string.
class PayloadWriter {
 public:
  explicit PayloadWriter(std::string& out) : m_out(out) {}
  void u8(uint8_t v) { m_out.push_back(static_cast<char>(v)); }
  void u16(uint16_t v) { raw(&v, 2); }
  void u32(uint32_t v) { raw(&v, 4); }
  void u64(uint64_t v) { raw(&v, 8); }
  void i32(int32_t v) { raw(&v, 4); }
  void i64(int64_t v) { raw(&v, 8); }
  void f64(double v) { raw(&v, 8); }
  void bytes(std::string_view b) {
    u32(static_cast<uint32_t>(b.size()));
    m_out.append(b);
  }

 private:
  void raw(const void* p, size_t n) { m_out.append(static_cast<const char*>(p), n); }
  std::string& m_out;
};

/// Reads little-endian fields; throws ProtocolError("<what>: truncated") past the end.
class PayloadReader {
 public:
  PayloadReader(std::string_view in, const char* what) : m_in(in), m_what(what) {}
  uint8_t u8();
  uint16_t u16();
  uint32_t u32();
  uint64_t u64();
  int32_t i32();
  int64_t i64();
  double f64();
  std::string_view bytes();
  size_t remaining() const { return m_in.size() - m_pos; }
  /// Throws unless every byte was consumed.
  void expectEnd() const;
  /// Throws unless n items of itemSize bytes can still be read (guards huge counts).
  void expectAtLeast(uint64_t n, size_t itemSize) const;

 private:
  void raw(void* p, size_t n);
  std::string_view m_in;
  size_t m_pos = 0;
  const char* m_what;
};

std::string greeting();
/// Appends one frame (header + payload) to out.
void appendFrame(std::string& out, protocol::FrameType type, std::string_view payload);

/// Incremental reader: feed bytes as they arrive, take complete frames.
class FrameReader {
 public:
  void feed(const char* data, size_t n) { m_buf.append(data, n); }
  /// The next complete frame, or nullopt when more bytes are needed. The greeting is checked
  /// first. Throws ProtocolError on a bad greeting, oversize length or unknown type.
  std::optional<Frame> next();
  bool greeted() const { return m_greeted; }
  size_t buffered() const { return m_buf.size() - m_pos; }

 private:
  std::string m_buf;
  size_t m_pos = 0;
  bool m_greeted = false;
};

// Typed payloads.
/// A session's fixed fields (id, planned, input, output, stage), shared by both session frames.
void encodeSessionHead(PayloadWriter& w, const workload::SessionPlan& s);
void decodeSessionHead(PayloadReader& r, workload::SessionPlan& s);
std::string encodeSessions(const std::vector<workload::SessionPlan>& sessions);
std::vector<workload::SessionPlan> decodeSessions(std::string_view payload);

void encodeRecord(PayloadWriter& w, const metrics::RequestRecord& r);
metrics::RequestRecord decodeRecord(PayloadReader& r);
std::string encodeRecords(const std::vector<metrics::RequestRecord>& records);
std::vector<metrics::RequestRecord> decodeRecords(std::string_view payload);

/// A worker's periodic report: its sample, its sends by window, and inter-token gaps.
struct StatsReport {
  metrics::WorkerSample sample;
  std::vector<metrics::SendReport> sends;
  metrics::LatencyHistogram itl;
  uint64_t connectionsOpen = 0;
  /// Every request the worker held that was planned before this instant (run time) was sent
  /// or dropped, and is in this report or an earlier one: the windows up to it are whole.
  int64_t sendsThroughNs = 0;
  /// Sends made since the last report, by slice of their send time (kRateSliceNs), slices
  /// ascending: with every report up to sample.atNs in, the slices before it are whole.
  std::vector<std::pair<int64_t, uint64_t>> sentBySlice;
};
std::string encodeStats(const StatsReport& s);
StatsReport decodeStats(std::string_view payload);

struct DoneReport {
  uint64_t sessionsReceived = 0;
  uint64_t notSent = 0;
  /// Of notSent, those still pending when the schedule ended (+ its slack): behind the
  /// in-flight cap (the first of them waiting for a free slot), or not reached in time.
  uint64_t notSentCapHeld = 0;
  uint64_t notSentBehind = 0;
};
std::string encodeDone(const DoneReport& d);
DoneReport decodeDone(std::string_view payload);

/// A worker's first failure of one class (metrics::FailureSample): u8 class, i32 status, i64 send
/// ns, bytes body excerpt, bytes reason excerpt. Decoding checks the class keeps samples, the
/// status is 100–999 (or 0, no reply head, for a class a status does not decide), the send time
/// is not negative, and body and reason are one line no longer than an excerpt can be.
struct FailureSampleReport {
  metrics::ErrorClass errorClass = metrics::ErrorClass::None;
  metrics::FailureSample sample;
};
std::string encodeFailureSample(const FailureSampleReport& report);
FailureSampleReport decodeFailureSample(std::string_view payload);

std::string encodeStop(int64_t graceNs);
int64_t decodeStop(std::string_view payload);

}  // namespace plumbline::engine
