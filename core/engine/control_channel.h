#pragma once
#include <functional>
#include <string>
#include <string_view>

#include "core/engine/frame_codec.h"

struct event_base;
struct event;

namespace plumbline::engine {

/// One end of a worker ⇄ coordinator socket, driven by a libevent loop: non-blocking reads
/// into a FrameReader, buffered non-blocking writes. Sends the greeting on construction.
/// `fd` is a stream socket (socketpair): writes use send(MSG_NOSIGNAL).
class ControlChannel {
 public:
  using OnFrame = std::function<void(Frame&&)>;
  /// Called once when the peer closes or breaks the protocol; why says which.
  using OnClose = std::function<void(const std::string& why)>;

  ControlChannel(event_base* base, int fd, OnFrame onFrame, OnClose onClose);
  ~ControlChannel();
  ControlChannel(const ControlChannel&) = delete;
  ControlChannel& operator=(const ControlChannel&) = delete;

  void send(protocol::FrameType type, std::string_view payload);
  size_t pendingBytes() const { return m_out.size() - m_outPos; }
  /// Writes what is buffered, blocking up to timeoutMs (used when finishing).
  bool flushBlocking(int timeoutMs);
  bool closed() const { return m_closed; }
  /// The peer's greeting has arrived and was valid.
  bool peerGreeted() const { return m_reader.greeted(); }
  int fd() const { return m_fd; }

 private:
  static void onReadable(int fd, short what, void* self);
  static void onWritable(int fd, short what, void* self);
  void readSome();
  void writeSome();
  void fail(const std::string& why);

  int m_fd;
  event* m_readEv = nullptr;
  event* m_writeEv = nullptr;
  OnFrame m_onFrame;
  OnClose m_onClose;
  FrameReader m_reader;
  std::string m_out;
  size_t m_outPos = 0;
  bool m_closed = false;
};

}  // namespace plumbline::engine
