#include "core/mock/mock_server.h"

#include <sched.h>
#include <sys/prctl.h>

#include <arpa/inet.h>
#include <event2/util.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>
#include <latch>
#include <memory>
#include <stdexcept>

#include "core/engine/harness_limit.h"
#include "core/mock/accept_shortage.h"
#include "core/mock/engine_scheduler.h"
#include "core/mock/mock_loop.h"
#include "core/mock/mock_stats.h"
#include "core/mock/request_recorder.h"
#include "core/util/scheduler_slice.h"

namespace plumbline::mock {
namespace {

constexpr int kBacklog = 4096;

int bindListener(const std::string& host, int port, bool reusePort, int& boundPort) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(std::string("mock: socket: ") + std::strerror(errno));
  const int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (reusePort) setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
  // Accepted sockets inherit it. Without it, a token written while the reply's headers wait
  // for the client's delayed ACK (up to 40 ms) is held back by Nagle: TTFTs under ~40 ms
  // came out as ~40 ms on keep-alive connections.
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, host.c_str(), &addr.sin_addr);
  socklen_t len = sizeof addr;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), len) != 0 || listen(fd, kBacklog) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    const std::string reason = std::strerror(errno);
    close(fd);
    throw std::runtime_error("mock: cannot listen on " + host + ":" + std::to_string(port) + ": " + reason);
  }
  boundPort = ntohs(addr.sin_port);
  return fd;
}

/// Puts the calling thread, and so every thread it starts later, under SCHED_FIFO at `priority`.
void runRealtime(int priority) {
  sched_param param{};
  param.sched_priority = priority;
  if (sched_setscheduler(0, SCHED_FIFO, &param) != 0) {
    const std::string reason = std::strerror(errno);
    throw std::runtime_error("mock: --realtime " + std::to_string(priority) +
                             ": the kernel refused SCHED_FIFO (" + reason +
                             "); it needs CAP_SYS_NICE or an RLIMIT_RTPRIO of at least " +
                             std::to_string(priority) + " (ulimit -r)");
  }
}

}  // namespace

MockServer::MockServer(const MockSettings& settings) : m_settings(settings) {
  m_listenFd = bindListener(settings.host, settings.port, settings.reusePort, m_port);
  m_board = std::make_unique<MockStatsBoard>(settings.threads);
  if (settings.engine) m_engine = std::make_unique<EngineScheduler>(*settings.engine, settings.threads);
  if (!settings.recordRequestsPath.empty())
    m_settings.recorder = std::make_shared<RequestRecorder>(settings.recordRequestsPath);
  if (settings.shortageFd >= 0) {
    m_shortage = std::make_unique<SharedAcceptShortage>(settings.shortageFd);
    m_settings.acceptShortage = &m_shortage->get();
  }
  for (int i = 0; i < settings.threads; ++i) {
    m_loops.push_back(std::make_unique<MockLoop>(m_settings, m_listenFd, *m_board, i, m_engine.get()));
  }
}

MockServer::~MockServer() {
  stop();
  m_loops.clear();
  m_engine.reset();
  if (m_listenFd >= 0) close(m_listenFd);
}

std::string MockServer::baseUrl() const { return "http://" + m_settings.host + ":" + std::to_string(m_port); }

void MockServer::start() {
  if (m_engine) m_engine->start();
  if (m_settings.sliceUs > 0) {
    // Each loop asks in its own thread (a slice is per thread); a refusal ends the mock, as
    // --realtime's does, before it serves anything.
    if (const std::string why = util::setSchedulerSlice(int64_t{m_settings.sliceUs} * 1000);
        !why.empty())
      throw std::runtime_error("mock: --slice-us " + std::to_string(m_settings.sliceUs) +
                               ": the kernel refused the slice (" + why + ")");
    util::setSchedulerSlice(0);  // the probe above was this thread's, not a loop's
  }
  // Started means every loop runs on its slice: the address is printed only after that.
  auto sliced = std::make_shared<std::latch>(static_cast<std::ptrdiff_t>(m_loops.size()));
  for (auto& loop : m_loops)
    m_threads.emplace_back([raw = loop.get(), sliceUs = m_settings.sliceUs, sliced] {
      if (sliceUs > 0) util::setSchedulerSlice(int64_t{sliceUs} * 1000);  // refused above if at all
      sliced->count_down();
      raw->run();
    });
  sliced->wait();
}

void MockServer::stop() {
  for (auto& loop : m_loops) loop->stop();
  for (auto& thread : m_threads) thread.join();
  m_threads.clear();
  if (m_engine) m_engine->stop();
}

int runMockServer(const MockConfig& config) {
  MockSettings settings;
  try {
    settings = resolveMockSettings(config);
  } catch (const MockConfigError& e) {
    std::cerr << "plumbline mock: " << e.what() << '\n';
    return 2;
  }
  // Block the stop signals in every loop thread; this thread waits for them below.
  sigset_t stopSignals;
  sigemptyset(&stopSignals);
  sigaddset(&stopSignals, SIGTERM);
  sigaddset(&stopSignals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);  // a vanished client must be an error code, not a death
  prctl(PR_SET_TIMERSLACK, 1UL);  // inherited by the loop threads: no 50 µs timer slack
  // One descriptor per connection, as a worker: take all the hard limit allows.
  engine::raiseFileDescriptorLimit();
  try {
    if (settings.realtimePriority > 0)
      runRealtime(settings.realtimePriority);  // before any thread starts
    MockServer server(settings);
    server.start();
    std::cout << server.baseUrl() << std::endl;
    int received = 0;
    sigwait(&stopSignals, &received);
    server.stop();
    // The final counts, after the last reply: what a script compares with the harness's.
    std::cout << server.stats().toJson() << std::endl;
  } catch (const std::runtime_error& e) {
    std::cerr << "plumbline " << e.what() << '\n';
    return 1;
  }
  return 0;
}

}  // namespace plumbline::mock
