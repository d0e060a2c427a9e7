#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace plumbline::engine {

/// The coordinator's own check that its workers still take part: a worker that sends no frame
/// for the silence limit while the run goes (it reports every 250 ms), or that has not ended by
/// the deadline a stop sets, is overdue and is to be killed. Times are on the run's clock.
class WorkerWatch {
 public:
  /// 20 reports missed. A worker's loop is held for milliseconds at most (sends, reads and
  /// reply counting are done in bounded turns), so only a stopped or wedged process stays
  /// silent this long; a run whose worker was held even 1 s is already judged harness-limited.
  static constexpr int64_t kSilenceLimitNs = 5'000'000'000;
  /// The coordinator's own loop held this long (suspended, starved of CPU): the frames its
  /// workers sent meanwhile wait unread, so their silence is not theirs.
  static constexpr int64_t kOwnHoldNs = 1'000'000'000;
  /// Until its first report a worker may still be loading what its config names (a prompt
  /// tokenizer, a dataset: under a sanitizer or on a loaded machine that can take seconds
  /// past t0, which is set from the coordinator's own load time), so its first silence may
  /// last this long. A late start shows as late sends, judged as such, not as a lost worker.
  static constexpr int64_t kFirstReportLimitNs = 30'000'000'000;
  /// Four reports missed: the worker is said to be quiet, and new sessions go to the others
  /// while another answers (a stopped worker would only hold them until it is killed).
  static constexpr int64_t kQuietNs = 1'000'000'000;

  explicit WorkerWatch(size_t workers = 0, int64_t silenceLimitNs = kSilenceLimitNs);

  void heard(size_t worker, int64_t nowNs);
  /// Done or lost: no longer watched.
  void ended(size_t worker);
  /// Every worker must have ended by then; an earlier deadline already set is kept.
  void endBy(int64_t deadlineNs);
  int64_t deadlineNs() const { return m_deadlineNs; }
  int64_t silenceLimitNs() const { return m_silenceLimitNs; }

  struct Overdue {
    size_t worker;
    bool pastDeadline;    ///< else silent for the silence limit
    int64_t lastHeardNs;  ///< its last frame (the run's start when none came since)
  };
  /// Call from every tick. Each overdue worker is named once, then no longer watched.
  std::vector<Overdue> check(int64_t nowNs);

  /// Silent for kQuietNs after its first report, and not ended.
  bool quiet(size_t worker, int64_t nowNs) const;
  struct QuietChange {
    size_t worker;
    bool quiet;  ///< else it answers again
  };
  /// Call after check: the workers that turned quiet, or answered again, since the last call.
  std::vector<QuietChange> quietChanges(int64_t nowNs);

 private:
  struct Watched {
    int64_t lastHeardNs = 0;
    bool reported = false;  ///< a frame came since the watch began
    bool ended = false;
    bool quietSaid = false;  ///< quietChanges said it turned quiet, and not yet that it answered
  };
  std::vector<Watched> m_workers;
  int64_t m_silenceLimitNs;
  int64_t m_deadlineNs = INT64_MAX;
  int64_t m_lastCheckNs = INT64_MIN;
};

}  // namespace plumbline::engine
