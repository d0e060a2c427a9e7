#pragma once
#include <QList>
#include <QPointF>
#include <QWidget>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/live/live_messages.h"
#include "core/store/window_row.h"

class QScrollArea;
class QTimer;

namespace plumbline::store { class RunReader; }

namespace plumbline::ui::charts {

class LatencyCdfChart;
class MetricChart;

/// The run's chart grid, shared by the live view and a run opened from history:
/// requested vs achieved rate (headline), TTFT / inter-token / end-to-end p50 and p99 over
/// time (service view and from the planned time; TTFT with the time to first answer token
/// beside it when a reasoning model thought first; inter-token with the time per output token
/// beside it when the server sent several tokens an event), output tokens/s, in-flight, errors by
/// class, send lag, worker CPU. Series are bounded (core's SeriesDecimator keeps min and
/// max per bin); redraws are coalesced by a timer (5/s), never done per message.
///
/// Live, the 250 ms ticks draw the curves; a final window is drawn only where no tick
/// covered its time yet (attaching mid-run replays the windows closed so far, then ticks
/// continue). From history, the stored windows draw the curves and the whole-run histograms
/// add a latency CDF chart below them (hidden while live: a running run has none yet).
class RunCharts : public QWidget {
  Q_OBJECT
 public:
  /// Chart keys, for drawnPoints().
  static constexpr const char* kRate = "rate";
  static constexpr const char* kTtft = "ttft";
  static constexpr const char* kItl = "itl";
  static constexpr const char* kE2e = "e2e";
  static constexpr const char* kTokens = "tokens";
  static constexpr const char* kInFlight = "in_flight";
  static constexpr const char* kErrors = "errors";
  static constexpr const char* kSendLag = "send_lag";
  static constexpr const char* kCpu = "cpu";

  explicit RunCharts(QWidget* parent = nullptr);
  /// A frameless scroll area holding charts, which fill it while it is large enough: a small
  /// window scrolls the grid rather than squeezing its charts over one another or growing
  /// itself to fit them.
  static QScrollArea* inScrollArea(RunCharts* charts, QWidget* parent);

  void clear();
  /// A stored run (history): replaces everything shown with its windows and, when the run
  /// wrote them, its whole-run latency CDFs. Throws store::StoreError when the database
  /// cannot be read.
  void loadRun(const store::RunReader& reader, int64_t runId);
  /// A whole stored run: replaces everything shown. With the run's end (its sending period,
  /// runs.duration_s), the requested and achieved rates stop there; the windows after it (the
  /// drain: requests still finishing) are drawn on the other charts. The window the end falls
  /// in is drawn at the end, its rates over the part of it the run lasted.
  /// With the run's workload (`spec`), the send lag chart draws its tolerance. Where a
  /// reasoning model thought first, the TTFT chart draws the windows' time to first answer
  /// token as "p50/p99 to answer".
  void setWindows(const std::vector<store::WindowRow>& windows,
                  std::optional<double> runEndS = std::nullopt,
                  const nlohmann::json& spec = nlohmann::json());
  /// Live: requested and achieved are drawn up to here only (the schedule's length, then the
  /// stop, then the run's recorded end), as a stored run's are; points past it are taken away.
  void setSendingEnd(double seconds);
  /// The verdict's send-lag tolerance (the workload's verdict.send_lag_tolerance_ms, 1 ms by
  /// default), drawn on the send lag chart: a p99 above it in one window can still be kept
  /// up, the verdict pooling windows of few sends. Set after clear(), before the points.
  void setSendLagTolerance(const nlohmann::json& spec);
  /// Live: a final window, and the provisional 250 ms ticks between windows.
  void appendWindow(const store::WindowRow& window);
  void appendTick(const ::plumbline::live::LiveTick& tick);
  /// Draws what was appended now instead of at the next coalesced redraw.
  void flush();
  /// Renders the whole grid to a PNG or SVG file (by extension); false on failure.
  bool exportTo(const QString& path);

  /// The points a chart draws for one series (after the last redraw).
  QList<QPointF> drawnPoints(const QString& chart, const QString& series) const;
  /// The same split into the pieces the line is drawn in (broken where there was no sample).
  QList<QList<QPointF>> drawnPieces(const QString& chart, const QString& series) const;
  QStringList seriesNames(const QString& chart) const;
  int redrawCount() const { return m_redraws; }
  /// The whole-run latency CDFs of a loaded stored run (hidden unless it had histograms).
  LatencyCdfChart* cdfChart() const { return m_cdf; }

 private:
  MetricChart* chart(const char* key) const;
  void scheduleRedraw();
  void showCdf(bool shown);
  /// From now on (or no longer) the TTFT chart draws the time to first answer token.
  void showAnswer(bool shown);
  void appendErrorRates(double x, const std::map<std::string, uint64_t>& cumulative, double dtS);
  /// Send lag's "handed out late" series: drawn from the first time the coordinator handed a
  /// session out late (rising from 0 at fromX), and then at every point.
  void appendHandedLate(double fromX, double x, double ms);

  std::map<std::string, MetricChart*> m_charts;
  LatencyCdfChart* m_cdf = nullptr;
  QTimer* m_redrawTimer = nullptr;
  void appendRequestedAchieved(double x, double requested, double achieved);

  double m_coveredUntilS = -1;  ///< time up to which something has been drawn
  double m_ratesUntilS = -1;    ///< time of the latest requested/achieved point
  std::optional<double> m_runEndS;  ///< stored runs: where the charts stop
  int64_t m_prevTickNs = -1;
  std::map<std::string, uint64_t> m_prevErrors;
  std::set<std::string>
      m_windowErrorClasses;  ///< every class a window so far (or a stored run) had
  std::optional<double> m_toleranceMs;  ///< drawn at every send lag point when known
  bool m_handedLateShown = false;  ///< a session was handed out late: the series is drawn
  /// Some stream thought before answering: TTFA is drawn apart from TTFT, from then on.
  bool m_answerShown = false;
  /// Some window's or tick's inter-token gaps carried several tokens each (a server sending
  /// tokens in groups): the inter-token chart draws the time per output token too, from then on.
  bool m_perTokenShown = false;
  int m_redraws = 0;
};

}  // namespace plumbline::ui::charts
