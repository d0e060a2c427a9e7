#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/net/http1_response_parser.h"

struct event;

namespace plumbline::engine {

class Http1Driver;
struct Transfer;

/// One client connection of the native HTTP/1.1 client: its socket and events, the request
/// it carries (at most one: no pipelining), how much of that request is written, and the
/// parser reading its response. Objects are reused across connections.
struct Http1Connection {
  Http1Driver* driver = nullptr;
  int fd = -1;
  event* readEvent = nullptr;   ///< watched for as long as the socket is open (idle included)
  event* writeEvent = nullptr;  ///< added only while connecting or a request is partly written
  event* timer = nullptr;       ///< the in-flight request's timeout
  Transfer* transfer = nullptr;
  net::Http1ResponseParser parser;
  std::string head;             ///< the request head being written (reused capacity)
  size_t written = 0;           ///< bytes of head + body written so far
  size_t address = 0;           ///< which of the endpoint's addresses it connects to
  bool connecting = false;
  bool warming = false;         ///< opened ahead of the first requests (preconnect), no request yet
  bool served = false;          ///< carried a request before: a keep-alive reuse
  int64_t deadlineNs = 0;       ///< the request's timeout, on the run's clock
  int64_t idleSinceNs = 0;      ///< when it last became idle
  size_t idleIndex = SIZE_MAX;  ///< position in the driver's idle list, SIZE_MAX when busy
};

}  // namespace plumbline::engine
