#include <QChartView>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QLegend>
#include <QLineSeries>
#include <QSet>
#include <QTest>
#include <QValueAxis>
#include <map>

#include "ui/charts/metric_chart.h"
#include "ui/charts/run_charts.h"

using plumbline::live::LiveTick;
using plumbline::store::WindowRow;
using plumbline::ui::charts::MetricChart;
using plumbline::ui::charts::RunCharts;

namespace {

WindowRow window(int64_t idx, int64_t planned, int64_t sent, double ttftP99) {
  WindowRow w;
  w.idx = idx;
  w.startNs = idx * 1'000'000'000;
  w.lengthNs = 1'000'000'000;
  w.planned = planned;
  w.sent = sent;
  w.completed = sent;
  w.ttftP50Ms = ttftP99 / 2;
  w.ttftP99Ms = ttftP99;
  w.errorsJson = R"({"timeout": 3})";
  w.workerCpuMax = 0.5;
  return w;
}

LiveTick tick(int64_t atMs, double achieved, uint64_t timeouts) {
  LiveTick t;
  t.atNs = atMs * 1'000'000;
  t.requestedRps = 100;
  t.achievedRps = achieved;
  t.ttft = {10, 40, 7};
  if (timeouts) t.errors["timeout"] = timeouts;
  return t;
}

}  // namespace

class RunChartsTest : public QObject {
  Q_OBJECT
 private slots:
  void storedWindowsDrawTheirRatesAndPercentiles() {
    RunCharts charts;
    charts.setWindows({window(0, 10, 10, 80), window(1, 20, 18, 90), window(2, 30, 25, 100)});
    QCOMPARE(charts.drawnPoints(QStringLiteral("rate"), QStringLiteral("requested")),
             (QList<QPointF>{{1, 10}, {2, 20}, {3, 30}}));
    QCOMPARE(charts.drawnPoints(QStringLiteral("rate"), QStringLiteral("achieved")),
             (QList<QPointF>{{1, 10}, {2, 18}, {3, 25}}));
    QCOMPARE(charts.drawnPoints(QStringLiteral("ttft"), QStringLiteral("p99")),
             (QList<QPointF>{{1, 80}, {2, 90}, {3, 100}}));
    QCOMPARE(charts.drawnPoints(QStringLiteral("errors"), QStringLiteral("timeout")).size(), 3);
    QCOMPARE(charts.drawnPoints(QStringLiteral("cpu"), QStringLiteral("max")).first().y(), 50.0);
    // The CPU wait is drawn only where the workers could tell (-1 is unknown, not 0).
    QVERIFY(
        !charts.seriesNames(QStringLiteral("cpu")).contains(QStringLiteral("waited for a CPU")));
  }

  // QA: a non-streaming run's TTFT and inter-token charts drew a line at 0 ms; the tables
  // said "–". A window without a sample of a latency holds none.
  void aLatencyNoWindowMeasuredDrawsNoLine() {
    RunCharts charts;
    WindowRow a = window(0, 10, 10, 0), b = window(1, 10, 10, 0);
    for (WindowRow* w : {&a, &b}) {
      w->ttftP50Ms = w->ttftP99Ms = std::nullopt;
      w->e2eP50Ms = 300;
      w->e2eP99Ms = 400;
    }
    charts.setWindows({a, b});
    QVERIFY(charts.seriesNames(QStringLiteral("ttft")).isEmpty());
    QVERIFY(charts.seriesNames(QStringLiteral("itl")).isEmpty());
    QCOMPARE(charts.drawnPoints(QStringLiteral("e2e"), QStringLiteral("p99")),
             (QList<QPointF>{{1, 400}, {2, 400}}));
  }

  // QA: inter-token p50 ramped 8 → 250 ms over 9–22 s while the windows 9–20 all said 250 ms:
  // they were dropped for completing nothing, and the line was joined across them.
  void aLatencyLineKeepsWindowsWithoutCompletionsAndBreaksWhereThereWasNoSample() {
    RunCharts charts;
    std::vector<WindowRow> windows;
    for (int64_t i = 0; i < 6; ++i) {
      WindowRow w = window(i, 10, 10, 80);
      w.completed = i == 0 || i == 5 ? 3 : 0;
      w.itlP50Ms = i == 0 ? 8.0 : 250.0;
      if (i == 4) w.itlP50Ms.reset();  // streams stalled: no gap ended in the window
      if (i == 5) w.itlP50Ms = 9;
      windows.push_back(w);
    }
    charts.setWindows(windows);
    QCOMPARE(charts.drawnPieces(QStringLiteral("itl"), QStringLiteral("p50")),
             (QList<QList<QPointF>>{{{1, 8}, {2, 250}, {3, 250}, {4, 250}}, {{6, 9}}}));
    // Live: a tick whose second measured no TTFT breaks the line the same way.
    charts.clear();
    LiveTick quiet = tick(750, 100, 0);
    quiet.ttft = {};
    charts.appendTick(tick(250, 100, 0));
    charts.appendTick(tick(500, 100, 0));
    charts.appendTick(quiet);
    charts.appendTick(tick(1000, 100, 0));
    charts.flush();
    QCOMPARE(charts.drawnPieces(QStringLiteral("ttft"), QStringLiteral("p99")),
             (QList<QList<QPointF>>{{{0.25, 40}, {0.5, 40}}, {{1, 40}}}));
  }

  // QA 23b: a run 8 s behind drew "achieved" 50/s in its first second and 0 after: the sends
  // counted in the window they were planned in. Achieved is what was sent during each window;
  // a run stored before that was kept has only the other.
  void achievedIsWhatWasSentDuringEachWindow() {
    RunCharts charts;
    WindowRow a = window(0, 40, 50, 80), b = window(1, 40, 0, 80), c = window(2, 40, 0, 80);
    a.sentDuring = 5;
    b.sentDuring = 6;
    c.sentDuring = 4;
    charts.setWindows({a, b, c});
    QCOMPARE(charts.drawnPoints(QStringLiteral("rate"), QStringLiteral("achieved")),
             (QList<QPointF>{{1, 5}, {2, 6}, {3, 4}}));
    a.sentDuring = b.sentDuring = c.sentDuring = std::nullopt;
    charts.setWindows({a, b, c});
    QCOMPARE(charts.drawnPoints(QStringLiteral("rate"), QStringLiteral("achieved")),
             (QList<QPointF>{{1, 50}, {2, 0}, {3, 0}}));
  }

  // QA 23b: send lag p99 spikes over 1 ms beside a green banner, nothing on the chart saying
  // where the verdict's line was. It is drawn: the workload's, or the 1 ms default.
  void theSendLagChartDrawsTheVerdictsTolerance() {
    RunCharts charts;
    const QString sendLag = QStringLiteral("send_lag"), tolerance = QStringLiteral("p99 tolerance");
    charts.setWindows({window(0, 10, 10, 80), window(1, 10, 10, 80)}, 2.0,
                      nlohmann::json{{"verdict", {{"send_lag_tolerance_ms", 50.0}}}});
    QCOMPARE(charts.drawnPoints(sendLag, tolerance), (QList<QPointF>{{0, 50}, {1, 50}, {2, 50}}));
    charts.setWindows({window(0, 10, 10, 80)}, 1.0, nlohmann::json::object());
    QCOMPARE(charts.drawnPoints(sendLag, tolerance), (QList<QPointF>{{0, 1}, {1, 1}}));
    charts.setWindows({window(0, 10, 10, 80)});  // no workload known: no line
    QVERIFY(!charts.seriesNames(sendLag).contains(tolerance));
  }

  void theWorkersWaitForACpuIsDrawnAsAShareOfTheTime() {
    RunCharts charts;
    WindowRow a = window(0, 10, 10, 80), b = window(1, 10, 10, 80), c = window(2, 10, 10, 80);
    a.cpuWaitMaxMs = 24;  // 24 ms of a 1 s window: 2.4 %
    c.cpuWaitMaxMs = 0;   // window 1 unknown: no point
    charts.setWindows({a, b, c});
    QCOMPARE(charts.drawnPoints(QStringLiteral("cpu"), QStringLiteral("waited for a CPU")),
             (QList<QPointF>{{1, 2.4}, {3, 0}}));
    LiveTick t = tick(3250, 100, 0);
    t.cpuWaitMaxMs = 150;  // over the tick's last second: 15 %
    charts.appendTick(t);
    charts.flush();
    QCOMPARE(charts.drawnPoints(QStringLiteral("cpu"), QStringLiteral("waited for a CPU")).last(),
             QPointF(3.25, 15));
  }

  // The coordinator's late hand-outs share the send lag chart, and only once one was late:
  // a run handed out on time (or stored before they were kept) draws no line along the axis.
  void sessionsHandedOutLateAreDrawnFromTheFirstLateOne() {
    RunCharts charts;
    const QString sendLag = QStringLiteral("send_lag"), late = QStringLiteral("handed out late");
    WindowRow a = window(0, 10, 10, 80), b = window(1, 10, 10, 80), c = window(2, 10, 10, 80);
    charts.setWindows({a, b, c});  // none known
    QVERIFY(!charts.seriesNames(sendLag).contains(late));
    a.handedLateMaxMs = b.handedLateMaxMs = c.handedLateMaxMs = 0;
    charts.setWindows({a, b, c});
    QVERIFY(!charts.seriesNames(sendLag).contains(late));
    b.handedLateMaxMs = 950;
    charts.setWindows({a, b, c});
    QCOMPARE(charts.drawnPoints(sendLag, late), (QList<QPointF>{{1, 0}, {2, 950}, {3, 0}}));
    // Live: nothing until the first late tick, which rises from 0 at the tick before.
    charts.clear();
    LiveTick t = tick(250, 100, 0);
    charts.appendTick(t);
    t.atNs = 500'000'000;
    charts.appendTick(t);
    charts.flush();
    QVERIFY(!charts.seriesNames(sendLag).contains(late));
    t.atNs = 750'000'000;
    t.handedLateMaxMs = 300;
    charts.appendTick(t);
    t.atNs = 1'000'000'000;
    t.handedLateMaxMs = 0;
    charts.appendTick(t);
    charts.flush();
    QCOMPARE(charts.drawnPoints(sendLag, late), (QList<QPointF>{{0.5, 0}, {0.75, 300}, {1, 0}}));
  }

  void aStoredRunsRatesStopAtItsEndWithThePartialWindowOverItsRealLength() {
    RunCharts charts;
    // A 2.5 s run: window 2 holds its last half second of sending, window 3 only the drain
    // (7 requests still finishing, a timeout among them).
    WindowRow drain = window(3, 0, 0, 120);
    drain.completed = 7;
    charts.setWindows({window(0, 10, 10, 80), window(1, 20, 18, 90), window(2, 5, 4, 100), drain}, 2.5);
    QCOMPARE(charts.drawnPoints(QStringLiteral("rate"), QStringLiteral("requested")),
             (QList<QPointF>{{1, 10}, {2, 20}, {2.5, 10}}));  // 5 planned in 0.5 s
    QCOMPARE(charts.drawnPoints(QStringLiteral("rate"), QStringLiteral("achieved")),
             (QList<QPointF>{{1, 10}, {2, 18}, {2.5, 8}}));
    // The rates stop at the end (no drop to zero where the run simply ended); what the drain
    // brought is drawn: an overloaded run's latencies may all be there.
    for (const QString& key : {QStringLiteral("ttft"), QStringLiteral("in_flight"),
                               QStringLiteral("tokens"), QStringLiteral("errors")}) {
      for (const QString& series : charts.seriesNames(key)) {
        QCOMPARE(charts.drawnPoints(key, series).last().x(), 4.0);
      }
    }
    QCOMPARE(charts.drawnPoints(QStringLiteral("ttft"), QStringLiteral("p99")).last().y(), 120.0);
    // Without a known end (a run still going), every window is drawn at its full length.
    charts.setWindows({window(0, 10, 10, 80), window(1, 20, 18, 90), window(2, 5, 4, 100), drain});
    QCOMPARE(charts.drawnPoints(QStringLiteral("rate"), QStringLiteral("requested")).size(), 4);
  }

  void aStoredRunsTimeAxisSpansTheRunAndALiveOneStartsAtTenSeconds() {
    RunCharts charts;
    const auto xMax = [&charts] {
      QList<double> maxima;
      for (auto* c : charts.findChildren<MetricChart*>()) {
        maxima.append(static_cast<QValueAxis*>(c->chart()->axes(Qt::Horizontal).first())->max());
      }
      return maxima;
    };
    // A 2 s run with a second of drain: its charts span 0–3 s, not the live view's 0–10 s.
    charts.setWindows({window(0, 10, 10, 80), window(1, 20, 18, 90), window(2, 0, 0, 95)}, 2.0);
    QCOMPARE(xMax(), QList<double>(9, 3.0));
    charts.setWindows({window(0, 10, 10, 80), window(1, 20, 18, 90)}, 2.0);
    QCOMPARE(xMax(), QList<double>(9, 2.0));
    // Without a known end, the windows' own span (3 s).
    charts.setWindows({window(0, 10, 10, 80), window(1, 20, 18, 90), window(2, 5, 4, 100)});
    QCOMPARE(xMax(), QList<double>(9, 3.0));
    // A run longer than 10 s is unchanged: its axis covers its windows.
    std::vector<WindowRow> longRun;
    for (int64_t i = 0; i < 37; ++i) longRun.push_back(window(i, 10, 10, 80));
    charts.setWindows(longRun, 37.0);
    QCOMPARE(xMax(), QList<double>(9, 40.0));
    // Cleared for a live run, the axis is back to 10 s and grows with the ticks.
    charts.clear();
    charts.appendTick(tick(500, 100, 0));
    charts.flush();
    QCOMPARE(xMax(), QList<double>(9, 10.0));
  }

  // QA: charts of one Live grid spanned 0–10 s, 0–20 s and 0–25 s: each axis followed its own
  // lines, and a line that paused (nothing sent, no error, no completion) held it back.
  void theGridSharesOneTimeRange() {
    RunCharts charts;
    for (int i = 1; i <= 100; ++i) {
      LiveTick t = tick(i * 250, 100, 0);
      if (i > 40) t.ttft = {};  // no completion after 10 s
      charts.appendTick(t);
    }
    charts.flush();
    for (auto* c : charts.findChildren<MetricChart*>())
      QCOMPARE(static_cast<QValueAxis*>(c->chart()->axes(Qt::Horizontal).first())->max(), 25.0);
  }

  // A reasoning model's first token is thinking: the answer a user waits for (TTFA) is drawn on
  // the TTFT chart, from the first tick in which some stream thought first; a model that does
  // not think (TTFA = TTFT) or a tick without answers adds no lines repeating TTFT's.
  void theTtftChartDrawsTheAnswerOnlyWhenAStreamThoughtFirst() {
    const QString ttft = QStringLiteral("ttft"), p50 = QStringLiteral("p50 to answer"),
                  p99 = QStringLiteral("p99 to answer");
    RunCharts charts;
    LiveTick t = tick(250, 100, 0);
    charts.appendTick(t);  // no answer timed (a stream written before ticks carried ttfa)
    t.atNs = 500'000'000;
    t.ttfa = t.ttft;  // answered with its first token
    charts.appendTick(t);
    charts.flush();
    QVERIFY(!charts.seriesNames(ttft).contains(p50));
    MetricChart* ttftChart = nullptr;
    for (auto* c : charts.findChildren<MetricChart*>())
      if (c->title() == QStringLiteral("Time to first token")) ttftChart = c;
    QVERIFY(ttftChart);
    QCOMPARE(ttftChart->chart()->legend()->alignment(), Qt::AlignBottom);
    t.atNs = 750'000'000;
    t.ttfa = {90, 130, 7};
    charts.appendTick(t);
    t.atNs = 1'000'000'000;
    t.ttfa = {};  // none ended in that second: the line breaks
    charts.appendTick(t);
    t.atNs = 1'250'000'000;
    t.ttfa = t.ttft;  // from then on drawn at every tick, even where it equals TTFT
    charts.appendTick(t);
    charts.flush();
    QCOMPARE(charts.drawnPieces(ttft, p50), (QList<QList<QPointF>>{{{0.75, 90}}, {{1.25, 10}}}));
    QCOMPARE(charts.drawnPoints(ttft, p99), (QList<QPointF>{{0.75, 130}, {1.25, 40}}));
    QCOMPARE(charts.drawnPoints(ttft, QStringLiteral("p50")).size(), 5);
    // Six names in a row under the plot were elided ("p50 fr…", "p50 t…"): beside it, whole.
    QCOMPARE(ttftChart->chart()->legend()->alignment(), Qt::AlignRight);

    // A stored run: the windows' TTFA, drawn from the first window when some window's differs
    // from its TTFT; none where a window had none.
    WindowRow same = window(0, 10, 10, 80);
    same.ttfaP50Ms = same.ttftP50Ms;
    same.ttfaP99Ms = same.ttftP99Ms;
    charts.setWindows({same, window(1, 10, 10, 80)});
    QVERIFY(!charts.seriesNames(ttft).contains(p50));
    QCOMPARE(ttftChart->chart()->legend()->alignment(), Qt::AlignBottom);
    WindowRow thought = window(2, 10, 10, 80);
    thought.ttfaP50Ms = 95;
    thought.ttfaP99Ms = 125;
    charts.setWindows({same, window(1, 10, 10, 80), thought});
    QCOMPARE(charts.drawnPieces(ttft, p50), (QList<QList<QPointF>>{{{1, 40}}, {{3, 95}}}));
    QCOMPARE(charts.drawnPoints(ttft, p99), (QList<QPointF>{{1, 80}, {3, 125}}));
    QCOMPARE(ttftChart->chart()->legend()->alignment(), Qt::AlignRight);
  }

  // A server that sends several tokens an event: its inter-token gaps are per event, and the
  // time per output token is drawn beside them, from the first tick or window whose gaps carry
  // more than 1.2 tokens each; one token an event (TPOT about the gap) adds no lines.
  void theInterTokenChartDrawsTimePerTokenOnlyWhenEventsCarrySeveralTokens() {
    const QString itl = QStringLiteral("itl"), p50 = QStringLiteral("p50 per token"),
                  p99 = QStringLiteral("p99 per token");
    RunCharts charts;
    LiveTick t = tick(250, 100, 0);
    t.itl = {5, 9, 100};
    charts.appendTick(t);  // no tpot (a stream written before ticks carried it)
    t.atNs = 500'000'000;
    t.tpot = {4.5, 6, 10};  // a token an event: the gap p50 is 1.1 tpot
    charts.appendTick(t);
    charts.flush();
    QVERIFY(!charts.seriesNames(itl).contains(p50));
    t.atNs = 750'000'000;
    t.itl = {20, 24, 25};  // four tokens an event
    t.tpot = {5, 6, 10};
    charts.appendTick(t);
    t.atNs = 1'000'000'000;
    t.tpot = {};  // none ended in that second: the line breaks
    charts.appendTick(t);
    t.atNs = 1'250'000'000;
    t.itl = {5, 9, 100};
    t.tpot = {4.5, 6, 10};  // from then on drawn at every tick
    charts.appendTick(t);
    charts.flush();
    QCOMPARE(charts.drawnPieces(itl, p50), (QList<QList<QPointF>>{{{0.75, 5}}, {{1.25, 4.5}}}));
    QCOMPARE(charts.drawnPoints(itl, p99), (QList<QPointF>{{0.75, 6}, {1.25, 6}}));
    QCOMPARE(charts.drawnPoints(itl, QStringLiteral("p50")).size(), 5);

    // A stored run: from the first window when some window's gaps carry several tokens.
    WindowRow single = window(0, 10, 10, 80);
    single.itlP50Ms = 5;
    single.itlP99Ms = 9;
    single.tpotP50Ms = 5;
    single.tpotP99Ms = 7;
    charts.setWindows({single, window(1, 10, 10, 80)});
    QVERIFY(!charts.seriesNames(itl).contains(p50));
    WindowRow grouped = single;
    grouped.idx = 2;
    grouped.startNs = 2'000'000'000;
    grouped.itlP50Ms = 20;
    grouped.itlP99Ms = 30;
    charts.setWindows({single, window(1, 10, 10, 80), grouped});
    QCOMPARE(charts.drawnPieces(itl, p50), (QList<QList<QPointF>>{{{1, 5}}, {{3, 5}}}));
    QCOMPARE(charts.drawnPoints(itl, p99), (QList<QPointF>{{1, 7}, {3, 7}}));
  }

  // A studio attaching mid-run replays the windows before it from the live stream: their rows'
  // TTFA is drawn as the ticks' is, from the first window in which a stream thought first, and
  // so are TTFT and e2e from planned; the ticks after carry the lines on. Before, the replayed
  // seconds had none of these lines.
  void windowsReplayedOnAttachDrawWhatTheTicksDo() {
    const QString ttft = QStringLiteral("ttft"), p50 = QStringLiteral("p50 to answer"),
                  p99 = QStringLiteral("p99 to answer");
    RunCharts charts;
    WindowRow plain = window(0, 10, 10, 80);
    plain.ttfaP50Ms = plain.ttftP50Ms;  // answered with the first token
    plain.ttfaP99Ms = plain.ttftP99Ms;
    charts.appendWindow(plain);
    charts.appendWindow(window(1, 10, 10, 80));  // no answer timed in it
    charts.flush();
    QVERIFY(!charts.seriesNames(ttft).contains(p50));
    WindowRow thought = window(2, 10, 10, 80);
    thought.ttfaP50Ms = 90;
    thought.ttfaP99Ms = 130;
    charts.appendWindow(thought);
    LiveTick t = tick(3250, 100, 0);
    t.ttfa = {95, 135, 7};
    charts.appendTick(t);
    charts.flush();
    QCOMPARE(charts.drawnPoints(ttft, p50), (QList<QPointF>{{3, 90}, {3.25, 95}}));
    QCOMPARE(charts.drawnPoints(ttft, p99), (QList<QPointF>{{3, 130}, {3.25, 135}}));

    RunCharts attached;
    WindowRow queued = window(0, 10, 10, 80);
    queued.ttftFromPlannedP50Ms = 45;
    queued.ttftFromPlannedP99Ms = 300;
    queued.e2eP50Ms = 500;
    queued.e2eP99Ms = 900;
    queued.e2eFromPlannedP50Ms = 505;
    queued.e2eFromPlannedP99Ms = 1120;
    attached.appendWindow(queued);
    LiveTick next = tick(1250, 100, 0);
    next.ttftFromPlanned = {12, 50, 7};
    attached.appendTick(next);
    attached.flush();
    QCOMPARE(attached.drawnPoints(ttft, QStringLiteral("p99 from planned")),
             (QList<QPointF>{{1, 300}, {1.25, 50}}));
    QCOMPARE(attached.drawnPoints(QStringLiteral("e2e"), QStringLiteral("p50 from planned")),
             (QList<QPointF>{{1, 505}}));
    QCOMPARE(attached.drawnPoints(QStringLiteral("e2e"), QStringLiteral("p99 from planned")),
             (QList<QPointF>{{1, 1120}}));
  }

  // QA: "from planned" was drawn over p50/p99 in the same width (the legend listed four lines,
  // two could be seen), and a run attached to mid-way changed a line's colour where the
  // replayed windows gave way to ticks.
  void everyLatencySeriesIsVisibleAndKeepsItsColour() {
    auto pens = [](RunCharts& charts, const QString& title) {
      std::map<QString, QPen> out;
      for (auto* view : charts.findChildren<QChartView*>())
        if (view->chart()->title() == title)
          for (auto* s : view->chart()->series())
            out[s->name()] = static_cast<QLineSeries*>(s)->pen();
      return out;
    };
    LiveTick t = tick(1250, 100, 0);
    t.e2e = {300, 900, 5};
    t.e2eFromPlanned = {300, 900, 5};  // equal: the dashed line must leave the solid one visible
    RunCharts fresh;
    fresh.appendTick(t);
    RunCharts attached;
    WindowRow replayed = window(0, 10, 10, 80);
    replayed.e2eP50Ms = 280;
    replayed.e2eP99Ms = 850;
    attached.appendWindow(replayed);
    attached.appendTick(t);
    const auto a = pens(fresh, QStringLiteral("End-to-end latency"));
    const auto b = pens(attached, QStringLiteral("End-to-end latency"));
    QCOMPARE(a.size(), size_t(4));
    for (const auto& [name, pen] : a) QCOMPARE(b.at(name).color(), pen.color());
    QSet<QRgb> colours;
    for (const auto& [name, pen] : a) colours.insert(pen.color().rgb());
    QCOMPARE(colours.size(), 4);
    QCOMPARE(a.at(QStringLiteral("p99 from planned")).style(), Qt::DashLine);
    QCOMPARE(a.at(QStringLiteral("p99")).style(), Qt::SolidLine);
    QCOMPARE(pens(fresh, QStringLiteral("Time to first token")).at(QStringLiteral("p99")).color(),
             a.at(QStringLiteral("p99")).color());
  }

  void requestedIsDrawnDashedOnTopOfAchieved() {
    RunCharts charts;
    charts.setWindows({window(0, 10, 10, 80)});
    const auto* rate = charts.findChildren<QChartView*>().value(0);
    QVERIFY(rate);
    const QList<QAbstractSeries*> series = rate->chart()->series();
    QCOMPARE(series.size(), 2);
    QCOMPARE(series.at(0)->name(), QStringLiteral("achieved"));  // drawn first, underneath
    QCOMPARE(series.at(1)->name(), QStringLiteral("requested"));
    QCOMPARE(static_cast<QLineSeries*>(series.at(1))->pen().style(), Qt::DashLine);
    QCOMPARE(static_cast<QLineSeries*>(series.at(0))->pen().style(), Qt::SolidLine);
  }

  // QA 23b D6: a tick's rates are over the latest second the workers had reported in full,
  // which ends a little before the tick: drawn at that second's end, once per second's end,
  // and not before the run's first whole second.
  void aTicksRatesAreDrawnAtTheEndOfTheSecondTheyCover() {
    RunCharts charts;
    const int64_t through[] = {0, 0, 0, 0, 1'000, 1'250, 1'250, 1'750};  // the 7th: no newer second
    for (int k = 1; k <= 8; ++k) {
      LiveTick t = tick(k * 250, 90 + k, 0);
      t.ratesThroughNs = through[k - 1] * 1'000'000;
      charts.appendTick(t);
    }
    charts.flush();
    QCOMPARE(charts.drawnPoints(QStringLiteral("rate"), QStringLiteral("achieved")),
             (QList<QPointF>{{1.0, 95}, {1.25, 96}, {1.75, 98}}));
    QCOMPARE(charts.drawnPoints(QStringLiteral("ttft"), QStringLiteral("p99")).first().x(), 0.25);
  }

  void ticksDrawLiveAndWindowsOnlyFillWhatTicksDidNotCover() {
    RunCharts charts;
    charts.appendWindow(window(0, 10, 10, 80));  // attached mid-run: the replayed window draws
    charts.appendTick(tick(1250, 97, 0));
    charts.appendTick(tick(1500, 99, 2));
    charts.appendTick(tick(2000, 100, 4));
    charts.appendWindow(window(1, 20, 18, 90));  // closes behind the ticks: not drawn twice
    charts.flush();
    QCOMPARE(charts.drawnPoints(QStringLiteral("rate"), QStringLiteral("achieved")),
             (QList<QPointF>{{1, 10}, {1.25, 97}, {1.5, 99}, {2, 100}}));
    // Errors: cumulative counts become per-class rates between ticks; a class's first errors
    // rise from 0 at the tick before.
    const QList<QPointF> errors = charts.drawnPoints(QStringLiteral("errors"), QStringLiteral("timeout"));
    QCOMPARE(errors,
             (QList<QPointF>{{1, 3}, {1.25, 0}, {1.5, 8}, {2, 4}}));  // 2 in 0.25 s, 2 in 0.5 s
  }

  // QA (session 18): a stored run's error lines skipped the windows where a class had no
  // errors, joining straight across them (2, 0, 1 drawn as a 2 → 1 slope; a class seen once a
  // dot), and each run coloured its classes in the order they came.
  void storedErrorClassesAreZeroWhereAWindowHadNoneAndKeepTheirColour() {
    RunCharts charts;
    std::vector<WindowRow> windows{window(0, 10, 10, 80), window(1, 10, 10, 80),
                                   window(2, 10, 10, 80)};
    windows[1].errorsJson = "{}";
    windows[2].errorsJson = R"({"no_reply": 2})";
    charts.setWindows(windows);
    QCOMPARE(charts.drawnPoints(QStringLiteral("errors"), QStringLiteral("timeout")),
             (QList<QPointF>{{1, 3}, {2, 0}, {3, 0}}));
    QCOMPARE(charts.drawnPoints(QStringLiteral("errors"), QStringLiteral("no_reply")),
             (QList<QPointF>{{1, 0}, {2, 0}, {3, 2}}));
    auto colourOf = [&charts](const QString& cls) {
      for (auto* view : charts.findChildren<QChartView*>())
        for (auto* s : view->chart()->series())
          if (s->name() == cls && view->chart()->title() == QStringLiteral("Errors by class"))
            return static_cast<QLineSeries*>(s)->pen().color();
      return QColor();
    };
    const QColor timeout = colourOf(QStringLiteral("timeout")),
                 noReply = colourOf(QStringLiteral("no_reply"));
    QVERIFY(timeout.isValid() && noReply.isValid());
    QVERIFY(timeout != noReply);
    charts.setWindows({window(0, 10, 10, 80)});  // another run, timeouts only: its first class
    QCOMPARE(colourOf(QStringLiteral("timeout")), timeout);
  }

  void anHourOfTicksStaysBounded() {
    RunCharts charts;
    for (int i = 1; i <= 4 * 3600; ++i) charts.appendTick(tick(i * 250, i % 50, 0));
    charts.flush();
    const auto pts = charts.drawnPoints(QStringLiteral("rate"), QStringLiteral("achieved"));
    QVERIFY2(pts.size() <= static_cast<qsizetype>(2 * MetricChart::kMaxBins + 1), qPrintable(QString::number(pts.size())));
    QCOMPARE(pts.last().x(), 3600.0);
    double maxY = 0;
    for (const QPointF& p : pts) maxY = std::max(maxY, p.y());
    QCOMPARE(maxY, 49.0);  // peaks survive decimation
  }

  void anHourOfBrokenLinesStaysBounded() {
    MetricChart chart(QStringLiteral("t"), QStringLiteral("ms"));
    for (int i = 1; i <= 4 * 3600; ++i) {
      if (i % 2)
        chart.append(QStringLiteral("p99"), i * 0.25, 10);
      else
        chart.breakLine(QStringLiteral("p99"), i * 0.25);  // every other tick measured nothing
    }
    chart.flush();
    const auto pieces = chart.drawnPieces(QStringLiteral("p99"));
    qsizetype points = 0;
    for (const auto& piece : pieces) points += piece.size();
    QVERIFY2(points <= static_cast<qsizetype>(MetricChart::kMaxPoints),
             qPrintable(QString::number(points)));
    QVERIFY(pieces.size() > 100);  // still broken, at the bins' resolution
  }

  void redrawsAreCoalesced() {
    RunCharts charts;
    for (int i = 1; i <= 100; ++i) charts.appendTick(tick(i * 250, 1, 0));
    QCOMPARE(charts.redrawCount(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(charts.redrawCount(), 1, 5000);
  }

  // The chart paints its lines itself (Qt Charts' series stay empty, for the legend): a
  // flat line at y = 50 of 0..100 must colour the pixels half way up the plot area, in the
  // series' colour, and nothing else inside the plot but grid and background.
  void paintsItsLinesWhereThePointsMap() {
    MetricChart chart(QStringLiteral("test"), QStringLiteral("units"));
    chart.resize(600, 400);
    chart.setLineStyle(QStringLiteral("flat"), Qt::SolidLine);  // 2 px: robust to rounding
    chart.append(QStringLiteral("flat"), 0, 50);
    chart.append(QStringLiteral("flat"), 10, 50);
    chart.append(QStringLiteral("top"), 0, 100);  // sets the y range to 0..~105
    QVERIFY(chart.flush());
    const QImage image = chart.grab().toImage();
    const QRectF plot = chart.chart()->mapRectToScene(chart.chart()->plotArea());
    const auto* axisY = static_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).first());
    const double yPx = plot.bottom() - (50 - axisY->min()) / (axisY->max() - axisY->min()) * plot.height();
    QColor colour;
    for (QAbstractSeries* s : chart.chart()->series()) {
      auto* line = static_cast<QLineSeries*>(s);
      QCOMPARE(line->count(), 0);  // Qt Charts keeps no copy of the points
      if (line->name() == QStringLiteral("flat")) colour = line->pen().color();
    }
    QVERIFY(colour.isValid());
    int hits = 0, misses = 0;
    for (int x = static_cast<int>(plot.left()) + 10; x < static_cast<int>(plot.right()) - 10; x += 10) {
      bool found = false;
      for (int dy = -2; dy <= 2 && !found; ++dy) found = image.pixelColor(x, static_cast<int>(yPx) + dy) == colour;
      found ? ++hits : ++misses;
    }
    QVERIFY2(hits > 0 && misses == 0, qPrintable(QStringLiteral("%1 hits, %2 misses").arg(hits).arg(misses)));
    // Well away from the line (a quarter of the plot below it) the colour does not appear.
    const int below = static_cast<int>(yPx + plot.height() / 4);
    for (int x = static_cast<int>(plot.left()) + 10; x < static_cast<int>(plot.right()) - 10; x += 10)
      QVERIFY(image.pixelColor(x, below) != colour);
    // Hidden from the legend = not painted.
    for (QAbstractSeries* s : chart.chart()->series())
      if (s->name() == QStringLiteral("flat")) s->setVisible(false);
    const QImage hidden = chart.grab().toImage();
    QVERIFY(hidden.pixelColor(static_cast<int>(plot.center().x()), static_cast<int>(yPx)) != colour);
  }

  // Qt Charts' part (axes, labels, legend) is cached between ticks: a chart whose axes grew
  // after it was first painted must look exactly like one painted once with the same points,
  // and a tick that only adds points inside the axes must not render that part again.
  void cachedAxesFollowTheDataAndPlainTicksOnlyBlit() {
    MetricChart grown(QStringLiteral("test"), QStringLiteral("units"));
    MetricChart fresh(QStringLiteral("test"), QStringLiteral("units"));
    for (MetricChart* c : {&grown, &fresh}) c->resize(600, 400);
    grown.append(QStringLiteral("a"), 0, 5);
    grown.append(QStringLiteral("a"), 4, 6);
    QVERIFY(grown.flush());
    QCoreApplication::processEvents();
    grown.grab();  // the first paint lays the chart out; let that settle
    QCoreApplication::processEvents();
    const QImage before = grown.grab().toImage();
    const int rendersBefore = grown.staticLayerRenders();
    QVERIFY(rendersBefore >= 1);
    grown.append(QStringLiteral("a"), 5, 6.5);  // inside the axes (0..10, 0..~7)
    QVERIFY(grown.flush());
    QCoreApplication::processEvents();
    const QImage inside = grown.grab().toImage();
    QCOMPARE(grown.staticLayerRenders(), rendersBefore);
    QVERIFY(inside != before);  // the new segment is there
    grown.append(QStringLiteral("a"), 37, 420);  // both axes grow: new labels
    QVERIFY(grown.flush());
    QCoreApplication::processEvents();
    const QImage after = grown.grab().toImage();
    QVERIFY(grown.staticLayerRenders() > rendersBefore);
    for (auto [x, y] : {std::pair{0.0, 5.0}, {4.0, 6.0}, {5.0, 6.5}, {37.0, 420.0}})
      fresh.append(QStringLiteral("a"), x, y);
    QVERIFY(fresh.flush());
    QCoreApplication::processEvents();
    QCOMPARE(after, fresh.grab().toImage());
  }

  void exportsPngAndSvg() {
    RunCharts charts;
    charts.resize(900, 600);
    charts.setWindows({window(0, 10, 10, 80), window(1, 20, 18, 90)});
    const QString dir = QDir::tempPath();
    QVERIFY(charts.exportTo(dir + QStringLiteral("/plumbline_charts_test.png")));
    QVERIFY(charts.exportTo(dir + QStringLiteral("/plumbline_charts_test.svg")));
    QVERIFY(QFileInfo(dir + QStringLiteral("/plumbline_charts_test.svg")).size() > 1000);
    // The lines are painted by the chart, not Qt Charts: the SVG must still hold them (a
    // polyline per drawn series).
    QFile svg(dir + QStringLiteral("/plumbline_charts_test.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<polyline"));
  }
};

QTEST_MAIN(RunChartsTest)
#include "run_charts_test.moc"
