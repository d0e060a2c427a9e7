#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace plumbline::net {

/// Why a response could not be read as HTTP/1.1. Every one is the server's malformed answer,
/// never a crash or a guess.
enum class Http1Error : uint8_t {
  None = 0,
  BadStatusLine,         ///< not "HTTP/1.x NNN reason" (garbage, HTTP/0.9, HTTP/2 preface...)
  BadHeader,             ///< a header line without a name and colon, or with a bad character
  HeadersTooLarge,       ///< the status line and headers exceed kMaxHeaderBytes
  BadContentLength,      ///< not a decimal number, too large, or two different values
  UnsupportedEncoding,   ///< a transfer coding other than chunked (we never ask for one)
  BadChunkSize,          ///< a chunk-size line that is not hex, or too large
  BadChunkEnd,           ///< chunk data not followed by CRLF
  UnexpectedUpgrade,     ///< 101 Switching Protocols to a POST that asked for none
};

/// A short name for logs and tests, e.g. "bad status line".
std::string_view http1ErrorText(Http1Error e);

/// Incremental HTTP/1.1 response parser for one response at a time (one request in flight
/// per connection): status line, headers (Content-Length, Transfer-Encoding: chunked,
/// Connection), then the body de-chunked and handed to a sink. Bytes may be split at any
/// point across feed() calls. Interim 1xx responses are skipped. Allocates nothing once warm.
class Http1ResponseParser {
 public:
  /// libcurl's limit on a response's headers (MAX_HTTP_RESP_HEADER_SIZE, 7.84 on), so that
  /// both clients take the same replies. Header bytes are counted, not kept.
  static constexpr size_t kMaxHeaderBytes = 300 * 1024;
  /// Receives body bytes (already de-chunked) as they arrive.
  using BodySink = void (*)(void* context, const char* p, size_t n);

  /// Parses bytes; returns how many were consumed. Stops at the end of the response (done())
  /// or at the first error (failed()); any bytes after that were not consumed.
  size_t feed(const char* p, size_t n, BodySink sink, void* context);
  /// The peer closed the connection: true when that ends the response (a body delimited by
  /// the close); otherwise the response was cut short (or never started).
  bool finishAtEof();
  /// Ready for the next response on the same connection (keeps buffer capacity).
  void reset();

  bool done() const { return m_state == State::Done; }
  bool failed() const { return m_state == State::Failed; }
  Http1Error error() const { return m_error; }
  /// True once the final (non-1xx) status line and its headers were read.
  bool headersDone() const { return m_headersDone; }
  /// True once any byte of the response (status line included) was fed.
  bool started() const { return m_started; }
  int status() const { return m_status; }
  /// The connection may carry another request after this response.
  bool keepAlive() const { return m_keepAlive; }
  /// What the response's Retry-After header asked clients to wait, in ms (retry_after.h); -1
  /// when it had none, or one that was neither delta-seconds nor an IMF-fixdate.
  int64_t retryAfterMs() const { return m_retryAfterMs; }
  /// A Retry-After value that could not be read (its first kMaxRetryAfterShown + 1 bytes, for
  /// unreadableRetryAfterText); empty when it had none or one that was read.
  const std::string& unreadableRetryAfter() const { return m_unreadableRetryAfter; }
  /// The coding a Content-Encoding header says the body is in (content_encoding.h); empty for
  /// none or identity. The parser does not decode it: no request asks for one.
  const std::string& contentCoding() const { return m_contentCoding; }
  /// The final response's Location header (a redirect's target), its first kMaxLocation bytes;
  /// empty when it had none.
  const std::string& location() const { return m_location; }
  static constexpr size_t kMaxLocation = 1024;
  /// True when the body ends only when the server closes the connection.
  bool bodyUntilClose() const { return m_state == State::UntilClose; }

 private:
  enum class State : uint8_t {
    StatusLine, Headers, Body, ChunkSize, ChunkData, ChunkDataEnd, Trailers, UntilClose, Done, Failed
  };

  size_t fail(Http1Error e, size_t consumed);
  /// Splits off the next line (without CRLF/LF); false if incomplete (the bytes are buffered).
  bool takeLine(const char*& p, const char* end, std::string_view& line);
  bool statusLine(std::string_view line);
  bool headerLine(std::string_view line);
  void endOfHeaders();
  bool chunkSizeLine(std::string_view line);

  State m_state = State::StatusLine;
  Http1Error m_error = Http1Error::None;
  std::string m_line;           ///< an unfinished line carried over from the previous feed
  size_t m_headerBytes = 0;
  int m_status = 0;
  int m_minor = 1;
  bool m_started = false;
  bool m_headersDone = false;
  bool m_keepAlive = true;
  bool m_sawKeepAliveToken = false;
  bool m_chunked = false;
  bool m_hasLength = false;
  bool m_pendingCr = false;     ///< ChunkDataEnd: the CR was seen, its LF not yet
  uint64_t m_length = 0;        ///< Content-Length
  uint64_t m_remaining = 0;     ///< bytes left in the body or the current chunk
  int64_t m_retryAfterMs = -1;
  std::string m_location;
  std::string m_unreadableRetryAfter;
  std::string m_contentCoding;
};

}  // namespace plumbline::net
