// The issue's reference client for target 1: a bare libcurl multi loop (socket API + epoll,
// reused easy handles, keep-alive), open loop at a fixed rate, nothing else. It reads every
// reply and counts its SSE events ("data:" lines), and does none of what Plumbline does per
// request (no JSON parse, no token timing, no histograms, no database row, no second process).
// It prints its own CPU (getrusage RUSAGE_SELF, user and system) with the requests and chunks it
// handled, from which bench/cpu_cost.sh takes its cost per request or per chunk and puts
// Plumbline's figures beside it as ratios from one run on one machine.
//
//   curl_loop --url URL [--rate R] [--duration S] [--pattern even|bursts] [--stream]
//
// even:   request i is due at i/R (one timerfd, absolute expiries; the loop sleeps in
//         epoll_wait between sends, as a precise open-loop client must).
// bursts: R/100 requests due together every 10 ms (h2load --rps's pattern).
// The body is the one cpu_cost.sh gives h2load; --stream asks for 64 tokens and the usage chunk.
// Output, one line: key=value pairs (requests, completed, errors, chunks, user_s, sys_s, wall_s,
// late_p99_us, late_max_us, connections: the new connections its transfers made), then exit 0 if
// every request completed, 1 if not; a failed run adds first_error="..." (libcurl's text or the
// HTTP status of the first transfer that failed) so that a reference which could not keep up
// says how.
#include <curl/curl.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int64_t nowNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

void armAt(int fd, int64_t atNs) {
  itimerspec spec{};
  spec.it_value.tv_sec = atNs / 1'000'000'000;
  spec.it_value.tv_nsec = atNs % 1'000'000'000;
  if (atNs <= 0) spec.it_value.tv_nsec = 1;  // 0 would disarm
  timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, nullptr);
}

void disarm(int fd) {
  itimerspec spec{};
  timerfd_settime(fd, 0, &spec, nullptr);
}

struct Loop {
  int epfd = -1;
  int sendTimer = -1;
  int curlTimer = -1;
  CURLM* multi = nullptr;
  bool kick = false;  // libcurl asked for its timeout to run now
  int64_t curlDueNs = -1;
};

/// Counts SSE events in a reply: "data:" at the start of a line, across write boundaries.
struct Reply {
  int64_t chunks = 0;
  char tail[5] = {};  // the last bytes of the previous write, to find a split "data:"
  size_t tailLen = 0;
  bool atLineStart = true;
};

size_t onData(char* p, size_t size, size_t n, void* user) {
  auto& r = *static_cast<Reply*>(user);
  const size_t len = size * n;
  for (size_t i = 0; i < len; ++i) {
    const char ch = p[i];
    if (r.atLineStart) {
      r.tailLen = 0;
      r.atLineStart = false;
    }
    if (ch == '\n') {
      r.atLineStart = true;
      continue;
    }
    if (r.tailLen < 5) {
      r.tail[r.tailLen++] = ch;
      if (r.tailLen == 5 && std::memcmp(r.tail, "data:", 5) == 0) ++r.chunks;
    }
  }
  return len;
}

int onSocket(CURL*, curl_socket_t s, int what, void* loopPtr, void* socketData) {
  auto& loop = *static_cast<Loop*>(loopPtr);
  epoll_event ev{};
  ev.data.fd = s;
  if (what == CURL_POLL_REMOVE) {
    if (socketData != nullptr) epoll_ctl(loop.epfd, EPOLL_CTL_DEL, s, nullptr);
    curl_multi_assign(loop.multi, s, nullptr);
    return 0;
  }
  ev.events = (what & CURL_POLL_IN ? EPOLLIN : 0u) | (what & CURL_POLL_OUT ? EPOLLOUT : 0u);
  if (socketData == nullptr) {
    epoll_ctl(loop.epfd, EPOLL_CTL_ADD, s, &ev);
    curl_multi_assign(loop.multi, s, &loop);  // any non-null marks "registered"
  } else {
    epoll_ctl(loop.epfd, EPOLL_CTL_MOD, s, &ev);
  }
  return 0;
}

int onTimer(CURLM*, long timeoutMs, void* loopPtr) {
  auto& loop = *static_cast<Loop*>(loopPtr);
  if (timeoutMs < 0) {
    loop.curlDueNs = -1;
    disarm(loop.curlTimer);
  } else if (timeoutMs == 0) {
    loop.kick = true;
  } else {
    loop.curlDueNs = nowNs() + int64_t{timeoutMs} * 1'000'000;
    armAt(loop.curlTimer, loop.curlDueNs);
  }
  return 0;
}

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "curl_loop: %s\nusage: curl_loop --url URL [--rate R] [--duration S] "
               "[--pattern even|bursts] [--stream]\n",
               why);
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  std::string url;
  double rate = 1000;
  double duration = 5;
  bool bursts = false;
  bool stream = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) usage(("missing value after " + a).c_str());
      return argv[++i];
    };
    if (a == "--url")
      url = next();
    else if (a == "--rate")
      rate = std::atof(next());
    else if (a == "--duration")
      duration = std::atof(next());
    else if (a == "--stream")
      stream = true;
    else if (a == "--pattern") {
      const std::string p = next();
      if (p != "even" && p != "bursts") usage("--pattern is even or bursts");
      bursts = p == "bursts";
    } else
      usage(("unknown argument " + a).c_str());
  }
  if (url.empty()) usage("--url is required");
  if (!(rate > 0 && rate <= 1e6) || !(duration > 0 && duration <= 600))
    usage("--rate in (0, 1e6], --duration in (0, 600]");
  url += "/v1/chat/completions";
  const std::string body =
      stream
          ? R"({"model":"mock","messages":[{"role":"user","content":"say ok"}],"max_tokens":64,"ignore_eos":true,)"
            R"("temperature":0,"stream":true,"stream_options":{"include_usage":true}})"
          : R"({"model":"mock","messages":[{"role":"user","content":"say ok"}],"max_tokens":1,"ignore_eos":true,"temperature":0})";

  const auto planned = static_cast<int64_t>(rate * duration);
  const int64_t perBurst =
      bursts ? std::max<int64_t>(1, static_cast<int64_t>(rate / 100 + 0.5)) : 1;
  const int64_t gapNs = bursts ? 10'000'000 : static_cast<int64_t>(1e9 / rate);

  curl_global_init(CURL_GLOBAL_DEFAULT);
  Loop loop;
  loop.epfd = epoll_create1(EPOLL_CLOEXEC);
  loop.sendTimer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  loop.curlTimer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  loop.multi = curl_multi_init();
  curl_multi_setopt(loop.multi, CURLMOPT_SOCKETFUNCTION, onSocket);
  curl_multi_setopt(loop.multi, CURLMOPT_SOCKETDATA, &loop);
  curl_multi_setopt(loop.multi, CURLMOPT_TIMERFUNCTION, onTimer);
  curl_multi_setopt(loop.multi, CURLMOPT_TIMERDATA, &loop);
  curl_multi_setopt(loop.multi, CURLMOPT_MAXCONNECTS, 20000L);
  // Timer descriptors carry negative tags so they never collide with a socket's.
  epoll_event tev{};
  tev.events = EPOLLIN;
  tev.data.fd = -1;
  epoll_ctl(loop.epfd, EPOLL_CTL_ADD, loop.sendTimer, &tev);
  tev.data.fd = -2;
  epoll_ctl(loop.epfd, EPOLL_CTL_ADD, loop.curlTimer, &tev);

  curl_slist* headers = curl_slist_append(nullptr, "content-type: application/json");
  if (stream) headers = curl_slist_append(headers, "accept: text/event-stream");
  std::vector<CURL*> pool;      // finished handles, ready for the next request
  std::vector<Reply*> replies;  // owned, one per handle ever made
  int64_t sent = 0, completed = 0, errors = 0, chunks = 0, connections = 0;
  std::string firstError;
  std::vector<int64_t> lateNs;
  lateNs.reserve(static_cast<size_t>(planned));

  const int64_t t0 = nowNs() + 20'000'000;
  armAt(loop.sendTimer, t0);
  int running = 0;
  epoll_event events[256];
  while (completed + errors < planned) {
    if (loop.kick) {
      loop.kick = false;
      curl_multi_socket_action(loop.multi, CURL_SOCKET_TIMEOUT, 0, &running);
    }
    const int n = epoll_wait(loop.epfd, events, 256, loop.kick ? 0 : 10'000);
    for (int i = 0; i < n; ++i) {
      const int tag = events[i].data.fd;
      if (tag == -1) {
        uint64_t expiries = 0;
        (void)!read(loop.sendTimer, &expiries, sizeof expiries);
        const int64_t now = nowNs();
        while (sent < planned) {
          const int64_t dueNs = t0 + (sent / perBurst) * gapNs;
          if (dueNs > now) {
            armAt(loop.sendTimer, dueNs);
            break;
          }
          lateNs.push_back(now - dueNs);
          CURL* h = nullptr;
          if (!pool.empty()) {
            h = pool.back();
            pool.pop_back();
          } else {
            h = curl_easy_init();
            auto* r = new Reply;
            replies.push_back(r);
            curl_easy_setopt(h, CURLOPT_URL, url.c_str());
            curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.c_str());
            curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
            curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
            curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, onData);
            curl_easy_setopt(h, CURLOPT_WRITEDATA, r);
            curl_easy_setopt(h, CURLOPT_PRIVATE, r);
            curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
            curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 30'000L);
          }
          curl_multi_add_handle(loop.multi, h);
          ++sent;
        }
      } else if (tag == -2) {
        uint64_t expiries = 0;
        (void)!read(loop.curlTimer, &expiries, sizeof expiries);
        curl_multi_socket_action(loop.multi, CURL_SOCKET_TIMEOUT, 0, &running);
      } else {
        const uint32_t e = events[i].events;
        const int mask = (e & EPOLLIN ? CURL_CSELECT_IN : 0) |
                         (e & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
                         (e & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);
        curl_multi_socket_action(loop.multi, tag, mask, &running);
      }
    }
    int left = 0;
    while (CURLMsg* m = curl_multi_info_read(loop.multi, &left)) {
      if (m->msg != CURLMSG_DONE) continue;
      CURL* h = m->easy_handle;
      long status = 0;
      curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
      char* priv = nullptr;
      curl_easy_getinfo(h, CURLINFO_PRIVATE, &priv);
      auto* r = reinterpret_cast<Reply*>(priv);
      long connects = 0;
      curl_easy_getinfo(h, CURLINFO_NUM_CONNECTS, &connects);
      connections += connects;
      if (m->data.result == CURLE_OK && status == 200) {
        ++completed;
      } else {
        ++errors;
        if (firstError.empty())
          firstError = m->data.result != CURLE_OK ? curl_easy_strerror(m->data.result)
                                                  : "HTTP " + std::to_string(status);
      }
      chunks += r->chunks;
      *r = Reply{};
      curl_multi_remove_handle(loop.multi, h);
      pool.push_back(h);
    }
    if (n == 0 && !loop.kick && sent == planned && running == 0) break;  // nothing left to wait for
  }
  const double wallS = static_cast<double>(nowNs() - t0) / 1e9;
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::sort(lateNs.begin(), lateNs.end());
  const auto pick = [&](double q) {
    return lateNs.empty()
               ? 0.0
               : static_cast<double>(
                     lateNs[static_cast<size_t>(q * static_cast<double>(lateNs.size() - 1))]) /
                     1e3;
  };
  std::printf(
      "requests=%lld completed=%lld errors=%lld chunks=%lld user_s=%.6f sys_s=%.6f wall_s=%.3f "
      "late_p99_us=%.1f late_max_us=%.1f connections=%lld",
      static_cast<long long>(planned), static_cast<long long>(completed),
      static_cast<long long>(errors), static_cast<long long>(chunks),
      static_cast<double>(ru.ru_utime.tv_sec) + ru.ru_utime.tv_usec / 1e6,
      static_cast<double>(ru.ru_stime.tv_sec) + ru.ru_stime.tv_usec / 1e6, wallS, pick(0.99),
      pick(1.0), static_cast<long long>(connections));
  if (!firstError.empty()) std::printf(" first_error=\"%s\"", firstError.c_str());
  std::printf("\n");
  for (CURL* h : pool) curl_easy_cleanup(h);
  for (Reply* r : replies) delete r;
  curl_slist_free_all(headers);
  curl_multi_cleanup(loop.multi);
  curl_global_cleanup();
  return completed == planned ? 0 : 1;
}
