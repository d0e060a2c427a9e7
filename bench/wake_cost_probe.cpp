// What this machine charges for the things every open-loop load generator must do, measured
// with getrusage like bench/cpu_cost.sh: (1) sleep on a timer and wake up (timerfd + epoll,
// as the workers' libevent loop does), (2) wake a peer process on the other CPU and be woken by
// its answer (one request/reply over loopback TCP when both sides sleep in between: what a
// client pays per request at a rate low enough that it and the server go idle), (3) a loopback
// TCP send and receive with nobody sleeping. A harness that sends each request at its planned
// instant pays (1) once per request unless sends are closer together than it costs, or spins;
// (2) when the server is idle between requests. These are the floor under bench/cpu_cost.sh's
// per-request figure on this machine, and they differ several-fold between VM types.
// Usage: wake_cost_probe [--sleep-us N] [--count N]
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace {

int64_t nowNs() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

struct Cpu {
  double user = 0, sys = 0;
  static Cpu self() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return {static_cast<double>(u.ru_utime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec) * 1e-6,
            static_cast<double>(u.ru_stime.tv_sec) + static_cast<double>(u.ru_stime.tv_usec) * 1e-6};
  }
};

void pinTo(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  sched_setaffinity(0, sizeof set, &set);  // best effort: a machine with one CPU keeps both on it
}

double percentile(std::vector<int64_t>& v, double p) {
  if (v.empty()) return 0;
  const auto k = static_cast<size_t>(p * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return static_cast<double>(v[k]) / 1000.0;
}

void timedWakeUps(int sleepUs, int count) {
  const int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  const int ep = epoll_create1(EPOLL_CLOEXEC);
  epoll_event ev{};
  ev.events = EPOLLIN;
  epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &ev);
  std::vector<int64_t> late;
  late.reserve(static_cast<size_t>(count));
  const Cpu c0 = Cpu::self();
  for (int i = 0; i < count; ++i) {
    const int64_t due = nowNs() + sleepUs * 1000LL;
    itimerspec it{};
    it.it_value = {static_cast<time_t>(due / 1'000'000'000), static_cast<long>(due % 1'000'000'000)};
    timerfd_settime(tfd, TFD_TIMER_ABSTIME, &it, nullptr);
    epoll_event got{};
    while (epoll_wait(ep, &got, 1, -1) != 1) {
    }
    late.push_back(nowNs() - due);
    uint64_t expirations = 0;
    if (read(tfd, &expirations, sizeof expirations) < 0) {
    }
  }
  const Cpu c1 = Cpu::self();
  const double perUs = (c1.user + c1.sys - c0.user - c0.sys) / count * 1e6;
  std::printf("timed wake-up (timerfd + epoll, %d us sleeps): %.1f us CPU each (%.0f%% system); late p50 %.1f us, p99 %.1f us\n",
              sleepUs, perUs, 100.0 * (c1.sys - c0.sys) / std::max(1e-9, c1.user + c1.sys - c0.user - c0.sys),
              percentile(late, 0.5), percentile(late, 0.99));
  close(ep);
  close(tfd);
}

/// A connected loopback TCP pair (client, server), Nagle off.
bool loopbackPair(int& client, int& server) {
  const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(listener, 1) != 0 ||
      getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len) != 0)
    return false;
  client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (connect(client, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return false;
  server = accept(listener, nullptr, nullptr);
  close(listener);
  const int one = 1;
  setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  setsockopt(server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return server >= 0;
}

void exchange(int fd, char* buf, size_t out) {
  if (send(fd, buf, out, MSG_NOSIGNAL) < 0) std::exit(1);
  if (recv(fd, buf, 512, 0) <= 0) std::exit(1);
}

void crossCpuRoundTrips(int count) {
  int client = -1, server = -1;
  if (!loopbackPair(client, server)) {
    std::printf("cross-CPU round trip: could not open a loopback connection\n");
    return;
  }
  const pid_t peer = fork();
  if (peer == 0) {  // the "server": answers each request, sleeping in recv() in between
    close(client);
    pinTo(1);
    char buf[512] = {};
    for (int i = 0; i < count; ++i) {
      if (recv(server, buf, sizeof buf, 0) <= 0) _exit(1);
      if (send(server, buf, 300, MSG_NOSIGNAL) < 0) _exit(1);
    }
    _exit(0);
  }
  close(server);
  pinTo(0);
  char buf[512] = {};
  const Cpu c0 = Cpu::self();
  const int64_t t0 = nowNs();
  for (int i = 0; i < count; ++i) exchange(client, buf, 200);
  const int64_t wall = nowNs() - t0;
  const Cpu c1 = Cpu::self();
  waitpid(peer, nullptr, 0);
  close(client);
  std::printf("cross-CPU request/reply, both sides sleeping in between: %.1f us CPU per round trip on the "
              "sending side (%.0f%% system), %.1f us wall\n",
              (c1.user + c1.sys - c0.user - c0.sys) / count * 1e6,
              100.0 * (c1.sys - c0.sys) / std::max(1e-9, c1.user + c1.sys - c0.user - c0.sys),
              static_cast<double>(wall) / count / 1000.0);
}

void sameThreadSendRecv(int count) {
  int client = -1, server = -1;
  if (!loopbackPair(client, server)) return;
  char buf[512] = {};
  const Cpu c0 = Cpu::self();
  for (int i = 0; i < count; ++i) {
    if (send(client, buf, 200, MSG_NOSIGNAL) < 0 || recv(server, buf, sizeof buf, 0) <= 0) break;
    if (send(server, buf, 300, MSG_NOSIGNAL) < 0 || recv(client, buf, sizeof buf, 0) <= 0) break;
  }
  const Cpu c1 = Cpu::self();
  std::printf("loopback TCP send + receive, nobody sleeping: %.2f us CPU per pair (the client's share of a request)\n",
              (c1.user + c1.sys - c0.user - c0.sys) / (2.0 * count) * 1e6);
  close(client);
  close(server);
}

}  // namespace

int main(int argc, char** argv) {
  int sleepUs = 100, count = 20000;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const int value = std::atoi(argv[i + 1]);
    if (flag == "--sleep-us" && value > 0 && value <= 100'000) sleepUs = value;
    else if (flag == "--count" && value > 0 && value <= 10'000'000) count = value;
    else {
      std::fprintf(stderr, "usage: wake_cost_probe [--sleep-us 1..100000] [--count 1..10000000]\n");
      return 2;
    }
  }
  if (argc % 2 == 0) {
    std::fprintf(stderr, "usage: wake_cost_probe [--sleep-us 1..100000] [--count 1..10000000]\n");
    return 2;
  }
  timedWakeUps(sleepUs, count);
  crossCpuRoundTrips(count);
  sameThreadSendRecv(count);
  return 0;
}
