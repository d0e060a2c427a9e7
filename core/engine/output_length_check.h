#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/metrics/request_record.h"
#include "core/workload/planner.h"
#include "core/workload/workload_spec.h"

namespace plumbline::engine {

/// Whether the server gave the replies the length the workload asked for. With `ignore_eos`
/// every reply should run to its max_tokens; a server that ignores it (the OpenAI API, Ollama,
/// TGI) stops early, and its latencies and token rates are then of shorter replies than
/// planned: a comparison with a run whose replies had the planned length would read as a
/// speed-up. The coordinator keeps each plain session's planned output and, per completed
/// request with server usage, adds it beside what the server said it generated.
class OutputLengthCheck {
 public:
  /// Replies averaging under this share of their planned length are said to be short.
  static constexpr double kShortShare = 0.9;
  /// Fewer requests than this say nothing.
  static constexpr uint64_t kMinRequests = 10;
  /// Sessions past this id are not checked: their planned lengths would take 4 bytes each for
  /// the whole run (400 MB for an hour at 30,000/s); a million is sample enough, in 4 MB.
  static constexpr uint64_t kMaxSessions = 1'000'000;

  explicit OutputLengthCheck(const workload::WorkloadSpec& spec);

  /// A session handed out (in id order). Shaped sessions are not checked.
  void planned(const workload::SessionPlan& s);
  void recorded(const metrics::RequestRecord& r);

  uint64_t requests() const { return m_requests; }
  uint64_t plannedTokens() const { return m_plannedTokens; }
  uint64_t serverTokens() const { return m_serverTokens; }
  /// The run's note when its replies were short, else nothing.
  std::optional<std::string> note() const;

 private:
  bool m_on = false;
  std::optional<int64_t> m_maxTokens;   ///< caps each drawn length when set
  std::vector<uint32_t> m_plannedById;  ///< 0: not checked (shaped, or not handed out)
  uint64_t m_requests = 0, m_plannedTokens = 0, m_serverTokens = 0;
};

}  // namespace plumbline::engine
