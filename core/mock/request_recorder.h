#pragma once
// `plumbline mock --record-requests FILE`: what the server received, for tests that check
// the harness from the other side of the wire.
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>

namespace plumbline::mock {

/// Appends one JSON line per completion request received:
///   {"arrival_ns": <CLOCK_MONOTONIC ns>, "api": "chat"|"completions", "body": <the body>}
/// (a body that is not JSON is stored as a string). Shared by every loop of the server;
/// each line is written and flushed whole under a lock (a test aid, not a hot path).
class RequestRecorder {
 public:
  /// Throws std::runtime_error when the file cannot be created.
  explicit RequestRecorder(const std::string& path);
  ~RequestRecorder();
  RequestRecorder(const RequestRecorder&) = delete;
  RequestRecorder& operator=(const RequestRecorder&) = delete;

  void record(int64_t arrivalNs, bool chat, std::string_view body);

 private:
  std::mutex m_mutex;
  std::FILE* m_file = nullptr;
};

}  // namespace plumbline::mock
