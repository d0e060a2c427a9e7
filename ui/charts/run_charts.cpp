#include "ui/charts/run_charts.h"

#include <QColor>
#include <QGridLayout>
#include <QScrollArea>
#include <QTimer>
#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/compare/stored_histograms.h"
#include "core/metrics/error_class.h"
#include "core/metrics/run_summary.h"
#include "core/store/run_reader.h"
#include "ui/charts/latency_cdf_chart.h"
#include "ui/charts/metric_chart.h"
#include "ui/common/widget_image_export.h"

namespace plumbline::ui::charts {

namespace {

constexpr int kRedrawIntervalMs = 200;  // 5 redraws/s: ≥ 4 updates/s, far from the 25/s cap

double seconds(int64_t ns) { return static_cast<double>(ns) / 1e9; }

/// Worker CPU's third series: where the worker wanted its core and something else had it.
const QString kWaitedForCpu = QStringLiteral("waited for a CPU");
/// Send lag's third series: the latest a session reached its worker after it was due.
const QString kHandedLate = QStringLiteral("handed out late");
/// And the p99 the verdict allows (QA 23b: spikes over 1 ms beside a green banner, with nothing
/// on the chart to say where the line was or that windows of few sends are pooled).
const QString kTolerance = QStringLiteral("p99 tolerance");
/// TTFT's third pair, for a reasoning model: its first token is thinking, and the answer a user
/// waits for (TTFA) comes later. Drawn only when some stream thought first, or it repeats TTFT.
const QString kToAnswer = QStringLiteral(" to answer");
const QString kFromPlanned = QStringLiteral(" from planned");
/// Inter-token's second pair, for a server that sends several tokens an event: its gaps are
/// per event, and the time per output token (TPOT) is what decoding speed is. Drawn only when
/// the gaps carry more than one token, or it repeats the inter-token line.
const QString kPerToken = QStringLiteral(" per token");
/// Whether inter-token gaps of p50 `itlP50` carry several tokens of `tpotP50` each (an
/// inter-token p50 that many TPOT p50s long, as the report says "tokens per event").
bool gapsCarryTokens(std::optional<double> itlP50, std::optional<double> tpotP50) {
  return itlP50 && tpotP50 && *tpotP50 > 0 &&
         *itlP50 >= ::plumbline::metrics::kSeveralTokensPerEvent * *tpotP50;
}

/// Whether a window's time to first answer token is not its TTFT's: some stream thought first.
bool answerApart(const store::WindowRow& w) {
  return w.ttfaP50Ms && (w.ttfaP50Ms != w.ttftP50Ms || w.ttfaP99Ms != w.ttftP99Ms);
}

void plotOrBreak(MetricChart* c, const QString& series, double x, const std::optional<double>& y) {
  if (y)
    c->append(series, x, *y);
  else
    c->breakLine(series, x);
}

/// A latency's p50 and p99 at x ("p50" + suffix…); with no sample, a break in both lines.
void plotPercentiles(MetricChart* c, double x, const std::optional<double>& p50,
                     const std::optional<double>& p99, const QString& suffix = {}) {
  plotOrBreak(c, QStringLiteral("p50") + suffix, x, p50);
  plotOrBreak(c, QStringLiteral("p99") + suffix, x, p99);
}

struct ChartSpec {
  const char* key;
  const char* title;
  const char* unit;
};

constexpr ChartSpec kSpecs[] = {
    {RunCharts::kRate, "Requested vs achieved rate", "requests/s"},
    {RunCharts::kTtft, "Time to first token", "ms"},
    {RunCharts::kItl, "Inter-token latency", "ms"},
    {RunCharts::kE2e, "End-to-end latency", "ms"},
    {RunCharts::kTokens, "Output tokens/s", "tokens/s"},
    {RunCharts::kInFlight, "In-flight requests", "requests"},
    {RunCharts::kErrors, "Errors by class", "errors/s"},
    {RunCharts::kSendLag, "Send lag (send − planned)", "ms"},
    {RunCharts::kCpu, "Worker CPU", "% of one core"},
};

}  // namespace

RunCharts::RunCharts(QWidget* parent) : QWidget(parent) {
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(2);
  int i = 0;
  for (const ChartSpec& spec : kSpecs) {
    auto* c = new MetricChart(QString::fromUtf8(spec.title), QString::fromUtf8(spec.unit), this);
    m_charts[spec.key] = c;
    // 4 × 3 grid: the headline chart takes the top-left 2 × 2; the other 8 fill the rest.
    static constexpr int kCells[][2] = {{0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 0}, {2, 1}, {2, 2}, {2, 3}};
    if (i == 0) {
      grid->addWidget(c, 0, 0, 2, 2);
    } else {
      grid->addWidget(c, kCells[i - 1][0], kCells[i - 1][1]);
    }
    ++i;
  }
  // A stored run's whole-run CDFs: shown by loadRun under the headline chart, which then
  // takes one row instead of two, so the grid keeps its three rows and needs no scrolling.
  m_cdf = new LatencyCdfChart(this);
  m_cdf->hide();
  for (int r = 0; r < 3; ++r) grid->setRowStretch(r, 1);
  for (int col = 0; col < 4; ++col) grid->setColumnStretch(col, 1);
  // Requested is drawn dashed on top of achieved: when they agree both stay visible.
  chart(kRate)->setLineStyle(QStringLiteral("requested"), Qt::DashLine);
  // Every series keeps one colour whichever comes first (a run attached mid-way replays
  // windows before the ticks). "From planned" is dashed over the service latency: where no
  // request waited to be sent they coincide, and both stay visible.
  static const std::pair<const char*, const char*> kSeriesColors[] = {
      {"achieved", "#1f77b4"},
      {"requested", "#2ca02c"},
      {"p50", "#1f77b4"},
      {"p99", "#2ca02c"},
      {"p50 from planned", "#ff7f0e"},
      {"p99 from planned", "#9467bd"},
      {"p50 to answer", "#d62728"},
      {"p99 to answer", "#8c564b"},
      {"p50 per token", "#ff7f0e"},
      {"p99 per token", "#9467bd"},
      {"output tokens/s", "#1f77b4"},
      {"in flight", "#1f77b4"},
      {"max", "#1f77b4"},
      {"mean", "#2ca02c"}};
  for (auto& [key, c] : m_charts) {
    if (key == kErrors) continue;
    for (const auto& [series, color] : kSeriesColors)
      c->setLineColor(QString::fromLatin1(series), QColor(QString::fromLatin1(color)));
  }
  chart(kCpu)->setLineColor(kWaitedForCpu, QColor(QStringLiteral("#ff7f0e")));
  chart(kSendLag)->setLineColor(kHandedLate, QColor(QStringLiteral("#ff7f0e")));
  chart(kSendLag)->setLineColor(kTolerance,
                                QColor(QStringLiteral("#7f7f7f")));  // a limit, not data
  chart(kSendLag)->setLineStyle(kTolerance, Qt::DashLine);
  for (const char* key : {kTtft, kE2e}) {
    chart(key)->setLineStyle(QStringLiteral("p50 from planned"), Qt::DashLine);
    chart(key)->setLineStyle(QStringLiteral("p99 from planned"), Qt::DashLine);
  }
  chart(kItl)->setLineStyle(QStringLiteral("p50 per token"), Qt::DashLine);
  chart(kItl)->setLineStyle(QStringLiteral("p99 per token"), Qt::DashLine);
  // Each error class keeps its colour from run to run (the theme's order would give the first
  // class of each run the same colour, whichever it is).
  static const char* const kClassColors[metrics::kErrorClassCount] = {
      "#000000", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
      "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#ad494a"};
  for (size_t i = 1; i < metrics::kErrorClassCount; ++i)
    chart(kErrors)->setLineColor(
        QString::fromUtf8(metrics::kErrorClassNames[i].data(),
                          static_cast<qsizetype>(metrics::kErrorClassNames[i].size())),
        QColor(QString::fromLatin1(kClassColors[i])));
  m_redrawTimer = new QTimer(this);
  m_redrawTimer->setSingleShot(true);
  m_redrawTimer->setInterval(kRedrawIntervalMs);
  connect(m_redrawTimer, &QTimer::timeout, this, &RunCharts::flush);
}

QScrollArea* RunCharts::inScrollArea(RunCharts* charts, QWidget* parent) {
  auto* scroll = new QScrollArea(parent);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidgetResizable(true);
  scroll->setWidget(charts);
  return scroll;
}

MetricChart* RunCharts::chart(const char* key) const { return m_charts.at(key); }

void RunCharts::clear() {
  for (auto& [key, c] : m_charts) {
    c->clear();
    c->setMinimumXSpan(MetricChart::kLiveXSpanS);
  }
  m_coveredUntilS = -1;
  m_ratesUntilS = -1;
  m_runEndS.reset();
  m_prevTickNs = -1;
  m_prevErrors.clear();
  m_windowErrorClasses.clear();
  m_handedLateShown = false;
  showAnswer(false);
  m_perTokenShown = false;
  m_toleranceMs.reset();
  m_cdf->clear();
  showCdf(false);
}

void RunCharts::showCdf(bool shown) {
  auto* grid = static_cast<QGridLayout*>(layout());
  if (shown == !m_cdf->isHidden()) return;
  grid->removeWidget(chart(kRate));
  grid->removeWidget(m_cdf);
  if (shown) {
    grid->addWidget(chart(kRate), 0, 0, 1, 2);
    grid->addWidget(m_cdf, 1, 0, 1, 2);
  } else {
    grid->addWidget(chart(kRate), 0, 0, 2, 2);
  }
  m_cdf->setVisible(shown);
}

void RunCharts::loadRun(const store::RunReader& reader, int64_t runId) {
  const auto run = reader.getRun(runId);
  setWindows(::plumbline::compare::windowsWithStoredPercentiles(reader, runId),
             run ? run->durationS : std::nullopt,
             run ? nlohmann::json::parse(run->specJson, nullptr, false) : nlohmann::json());
  showCdf(m_cdf->loadRun(reader, runId) > 0);
}

void RunCharts::setWindows(const std::vector<store::WindowRow>& windows,
                           std::optional<double> runEndS, const nlohmann::json& spec) {
  clear();
  m_runEndS = runEndS;
  if (spec.is_object()) setSendLagTolerance(spec);
  // Every class the run had is drawn in every window, 0 where it had none: a line joined
  // straight across a window without errors would show errors there.
  for (const store::WindowRow& w : windows) {
    const nlohmann::json errors = nlohmann::json::parse(w.errorsJson, nullptr, false);
    if (errors.is_object())
      for (const auto& [cls, n] : errors.items()) m_windowErrorClasses.insert(cls);
    m_handedLateShown |= w.handedLateMaxMs.value_or(0) > 0;  // then drawn from the first window
    if (answerApart(w)) showAnswer(true);                    // and so is the answer
    m_perTokenShown |= gapsCarryTokens(w.itlP50Ms, w.tpotP50Ms);  // and the time per token
  }
  for (const store::WindowRow& w : windows) appendWindow(w);
  // A stored run's time axis spans its windows, drain included, not the live view's 10 s: a
  // 2 s run fills the charts' width.
  if (!windows.empty()) {
    const double lastEnd = seconds(windows.back().startNs + windows.back().lengthNs);
    for (auto& [key, c] : m_charts)
      c->setMinimumXSpan(std::max(1.0, std::min(lastEnd, m_coveredUntilS)));
  }
  flush();
}

void RunCharts::appendWindow(const store::WindowRow& w) {
  const double start = seconds(w.startNs);
  // Drawn only where nothing is drawn yet: ticks already inside this window (a live run's
  // last, partial window) keep their finer points, and the tick after it still lands.
  if (start < m_coveredUntilS || w.lengthNs <= 0) return;
  const double len = seconds(w.lengthNs);
  // After a stored run's end only the drain is left: requests still finishing (an overloaded
  // run's may take a minute), whose latencies, tokens and errors are drawn; its requested and
  // achieved rates are not, which would show the rate falling to zero where the run had simply
  // ended. The window the run ended in: nothing was planned or sent after the end, so its rates
  // are over the part of it the run lasted, and it is drawn at the end.
  const std::optional<double> sending = w.sendingSeconds(m_runEndS);
  const double sendingLen = sending.value_or(len);
  const double end = start + sendingLen;
  m_coveredUntilS = end;
  if (sending) {
    // Achieved: what was sent during the window (QA 23b: a run 8 s behind drew 50/s in its
    // first second, then 0, from the sends of each window's planned requests).
    appendRequestedAchieved(end, static_cast<double>(w.planned) / sendingLen,
                            static_cast<double>(w.achievedSends()) / sendingLen);
  }
  // A latency the window has no sample of (none without streaming, none where nothing ended)
  // gets no point and breaks its line; inter-token gaps arrive without completions.
  // A window replayed as a studio attaches mid-run draws what the ticks after it do: the
  // latencies from planned, and (as the ticks do, from the first window in which some stream
  // thought before answering) the time to first answer token.
  plotPercentiles(chart(kTtft), end, w.ttftP50Ms, w.ttftP99Ms);
  plotPercentiles(chart(kTtft), end, w.ttftFromPlannedP50Ms, w.ttftFromPlannedP99Ms, kFromPlanned);
  if (answerApart(w)) showAnswer(true);
  if (m_answerShown) plotPercentiles(chart(kTtft), end, w.ttfaP50Ms, w.ttfaP99Ms, kToAnswer);
  plotPercentiles(chart(kItl), end, w.itlP50Ms, w.itlP99Ms);
  m_perTokenShown |= gapsCarryTokens(w.itlP50Ms, w.tpotP50Ms);
  if (m_perTokenShown) plotPercentiles(chart(kItl), end, w.tpotP50Ms, w.tpotP99Ms, kPerToken);
  plotPercentiles(chart(kE2e), end, w.e2eP50Ms, w.e2eP99Ms);
  plotPercentiles(chart(kE2e), end, w.e2eFromPlannedP50Ms, w.e2eFromPlannedP99Ms, kFromPlanned);
  plotPercentiles(chart(kSendLag), end, w.sendLagP50Ms, w.sendLagP99Ms);
  if (m_toleranceMs) chart(kSendLag)->append(kTolerance, end, *m_toleranceMs);
  if (w.handedLateMaxMs) appendHandedLate(start, end, *w.handedLateMaxMs);
  // Completions go on past the end, through the whole window: these rates use its full length.
  chart(kTokens)->append(QStringLiteral("output tokens/s"), end, static_cast<double>(w.outputTokens) / len);
  chart(kInFlight)->append(QStringLiteral("in flight"), end, static_cast<double>(w.inFlight));
  chart(kCpu)->append(QStringLiteral("max"), end, w.workerCpuMax * 100);
  chart(kCpu)->append(QStringLiteral("mean"), end, w.workerCpuMean * 100);
  // The most one worker waited, runnable, for a CPU others held, as a share of the window.
  if (w.cpuWaitMaxMs >= 0)
    chart(kCpu)->append(kWaitedForCpu, end, w.cpuWaitMaxMs / (len * 1000) * 100);
  const nlohmann::json errors = nlohmann::json::parse(w.errorsJson, nullptr, false);
  if (errors.is_object())
    for (const auto& [cls, n] : errors.items()) m_windowErrorClasses.insert(cls);
  for (const std::string& cls : m_windowErrorClasses) {
    const auto n = errors.is_object() ? errors.find(cls) : errors.end();
    const double count = n != errors.end() && n->is_number() ? n->get<double>() : 0;
    chart(kErrors)->append(QString::fromStdString(cls), end, count / len);
  }
  scheduleRedraw();
}

void RunCharts::appendTick(const ::plumbline::live::LiveTick& t) {
  const double x = seconds(t.atNs);
  if (x <= m_coveredUntilS) return;
  const double dtS = m_prevTickNs >= 0 ? seconds(t.atNs - m_prevTickNs) : 0;
  m_prevTickNs = t.atNs;
  m_coveredUntilS = x;
  // The rates are over the latest second the workers had reported in full, drawn at its end
  // (a little before the tick); none before the first whole second, and one point per second's
  // end. After the sending ends they only fall to 0: a stored run's stop at its end, and so do
  // these.
  const int64_t ratesThroughNs = t.ratesThroughNs < 0 ? t.atNs : t.ratesThroughNs;
  const double ratesX = seconds(ratesThroughNs);
  if (ratesThroughNs > 0 && ratesX > m_ratesUntilS && (!m_runEndS || ratesX <= *m_runEndS + 1e-9))
    appendRequestedAchieved(ratesX, t.requestedRps, t.achievedRps);
  // A latency no request of the tick's second measured: no point, and its line breaks.
  auto pct = [x](MetricChart* c, const ::plumbline::live::LivePercentiles& p,
                 const QString& suffix = {}) {
    const bool some = p.count > 0;
    plotPercentiles(c, x, some ? std::optional(p.p50) : std::nullopt,
                    some ? std::optional(p.p99) : std::nullopt, suffix);
  };
  pct(chart(kTtft), t.ttft);
  pct(chart(kTtft), t.ttftFromPlanned, kFromPlanned);
  // From the first tick in which some stream thought before answering, then at every tick.
  if (t.ttfa.count > 0 && (t.ttfa.p50 != t.ttft.p50 || t.ttfa.p99 != t.ttft.p99)) showAnswer(true);
  if (m_answerShown) pct(chart(kTtft), t.ttfa, kToAnswer);
  pct(chart(kItl), t.itl);
  // From the first tick whose gaps carried several tokens each, then at every tick.
  if (t.itl.count > 0 && t.tpot.count > 0)
    m_perTokenShown |= gapsCarryTokens(t.itl.p50, t.tpot.p50);
  if (m_perTokenShown) pct(chart(kItl), t.tpot, kPerToken);
  pct(chart(kE2e), t.e2e);
  pct(chart(kE2e), t.e2eFromPlanned, kFromPlanned);
  pct(chart(kSendLag), t.sendLag);
  if (m_toleranceMs) chart(kSendLag)->append(kTolerance, x, *m_toleranceMs);
  appendHandedLate(dtS > 0 ? x - dtS : -1, x, t.handedLateMaxMs);
  chart(kTokens)->append(QStringLiteral("output tokens/s"), x, t.outputTokensPerS);
  chart(kInFlight)->append(QStringLiteral("in flight"), x, static_cast<double>(t.inFlight));
  chart(kCpu)->append(QStringLiteral("max"), x, t.workerCpuMax * 100);
  chart(kCpu)->append(QStringLiteral("mean"), x, t.workerCpuMean * 100);
  if (t.cpuWaitMaxMs >= 0)
    chart(kCpu)->append(kWaitedForCpu, x, t.cpuWaitMaxMs / 1000 * 100);  // of 1 s
  appendErrorRates(x, t.errors, dtS);
  scheduleRedraw();
}

void RunCharts::showAnswer(bool shown) {
  if (shown == m_answerShown) return;
  m_answerShown = shown;
  // Six series under a chart of the grid elide to "p50 fr…" and "p50 t…": beside it, each
  // name is whole.
  chart(kTtft)->setLegendBeside(shown);
}

void RunCharts::appendRequestedAchieved(double x, double requested, double achieved) {
  m_ratesUntilS = x;
  // Achieved first: the series made later is drawn on top, and requested is the dashed one.
  chart(kRate)->append(QStringLiteral("achieved"), x, achieved);
  chart(kRate)->append(QStringLiteral("requested"), x, requested);
}

void RunCharts::appendHandedLate(double fromX, double x, double ms) {
  if (!m_handedLateShown) {
    if (ms <= 0) return;  // never late: no line lying along the axis under the send lag's
    m_handedLateShown = true;
    if (fromX >= 0) chart(kSendLag)->append(kHandedLate, fromX, 0);
  }
  chart(kSendLag)->append(kHandedLate, x, ms);
}

void RunCharts::appendErrorRates(double x, const std::map<std::string, uint64_t>& cumulative, double dtS) {
  // Ticks carry cumulative counts; the chart shows each class's rate between two ticks.
  if (dtS > 0) {
    for (const auto& [cls, n] : cumulative) {
      const auto prev = m_prevErrors.find(cls);
      const uint64_t before = prev == m_prevErrors.end() ? 0 : prev->second;
      // A class's first errors rise from 0 at the tick before, not from mid-air.
      if (prev == m_prevErrors.end())
        chart(kErrors)->append(QString::fromStdString(cls), x - dtS, 0);
      chart(kErrors)->append(QString::fromStdString(cls), x, static_cast<double>(n - before) / dtS);
    }
    for (const auto& [cls, n] : m_prevErrors) {
      if (cumulative.count(cls) == 0) chart(kErrors)->append(QString::fromStdString(cls), x, 0);
    }
  }
  m_prevErrors = cumulative;
}

void RunCharts::scheduleRedraw() {
  if (!m_redrawTimer->isActive()) m_redrawTimer->start();
}

void RunCharts::flush() {
  m_redrawTimer->stop();
  bool changed = false;
  for (auto& [key, c] : m_charts) changed = c->flush() || changed;
  if (!changed) return;
  ++m_redraws;
  // One time range for the grid: a chart whose lines paused (no errors, nothing sent, no
  // completion) kept a shorter axis than its neighbours.
  double xMax = 0;
  for (auto& [key, c] : m_charts) xMax = std::max(xMax, c->dataXMax());
  for (auto& [key, c] : m_charts) c->setSharedXMax(xMax);
}

void RunCharts::setSendLagTolerance(const nlohmann::json& spec) {
  double ms = 1.0;  // the verdict's default
  if (spec.is_object())
    if (const auto v = spec.find("verdict"); v != spec.end() && v->is_object())
      if (const auto t = v->find("send_lag_tolerance_ms"); t != v->end() && t->is_number())
        ms = t->get<double>();
  m_toleranceMs = ms;
  chart(kSendLag)->append(kTolerance, 0, ms);
}

void RunCharts::setSendingEnd(double seconds) {
  if (!(seconds > 0)) return;
  m_runEndS = seconds;
  chart(kRate)->setDrawnUntil(seconds);
  scheduleRedraw();
}

bool RunCharts::exportTo(const QString& path) {
  setWindowTitle(QStringLiteral("Plumbline run charts"));  // the SVG's title
  return exportWidgetImage(this, path).isEmpty();
}

QList<QPointF> RunCharts::drawnPoints(const QString& chartKey, const QString& series) const {
  auto it = m_charts.find(chartKey.toStdString());
  return it == m_charts.end() ? QList<QPointF>{} : it->second->drawnPoints(series);
}

QList<QList<QPointF>> RunCharts::drawnPieces(const QString& chartKey, const QString& series) const {
  auto it = m_charts.find(chartKey.toStdString());
  return it == m_charts.end() ? QList<QList<QPointF>>{} : it->second->drawnPieces(series);
}

QStringList RunCharts::seriesNames(const QString& chartKey) const {
  auto it = m_charts.find(chartKey.toStdString());
  return it == m_charts.end() ? QStringList{} : it->second->seriesNames();
}

}  // namespace plumbline::ui::charts
