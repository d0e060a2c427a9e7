#pragma once
// Reads a long request body in one go. libevent 2.1 reads a socket at most 4 KB per loop turn
// (evbuffer_read's EVBUFFER_MAX_READ; the setting to raise it came in 2.2), so evhttp took ~49
// turns, each an ioctl and a readv, to read a 32k-token prompt (~190 KB). On a 2-core machine
// that kept the mock on a CPU for milliseconds at a time, holding the client it serves off it.
// The mock watches its keep-alive connections for arriving bytes anyway (RequestArrivals);
// where more than those 4 KB wait, this reads all of them into the connection's input buffer
// and runs evhttp's read callback on them, as libevent's own read would have.
#include <atomic>
#include <cstddef>
#include <cstdint>

struct bufferevent;

namespace plumbline::mock {

class BulkReader {
 public:
  /// What libevent 2.1 reads per turn; fewer bytes than this are left to it.
  static constexpr size_t kLibeventReadBytes = 4096;

  /// `bytesRead` (may be null) counts the bytes this reads instead of libevent.
  explicit BulkReader(std::atomic<uint64_t>* bytesRead) : m_bytesRead(bytesRead) {}

  /// `queued` bytes wait on `fd`, the socket of `bev` (a live connection: RequestArrivals
  /// passes only descriptors in its watch, which a socket leaves when libevent frees its
  /// bufferevent and closes it). If that is more than libevent reads in a turn and the
  /// connection is reading, reads them (up to its high watermark, if any) and lets evhttp parse
  /// them now. On an error or the end of the stream it does nothing more: libevent's own read
  /// then finds the connection's end.
  void readQueued(bufferevent* bev, int fd, size_t queued);

 private:
  std::atomic<uint64_t>* m_bytesRead;
};

}  // namespace plumbline::mock
