// The live view fed by a recorded telemetry stream (tests/data/live/quickstart_v1.plml,
// recorded from a real quickstart run) draws the values the stream carries.
#include <cmath>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <nlohmann/json.hpp>

#include "core/live/live_stream.h"
#include "ui/charts/run_charts.h"
#include "ui/live/live_client.h"
#include "ui/live/live_view.h"
#include "ui/live/notice_model.h"
#include "ui/live/verdict_banner.h"

using namespace plumbline;
using ui::live::VerdictBanner;

namespace {

QByteArray fixture() {
  QFile f(QStringLiteral(PLUMBLINE_TEST_DATA "/live/quickstart_v1.plml"));
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

struct Recorded {
  std::vector<live::LiveTick> ticks;
  std::vector<store::WindowRow> windows;
  size_t notices = 0;
  std::optional<live::LiveEnd> end;
  std::optional<live::LiveHello> hello;
};

Recorded decode(const QByteArray& bytes) {
  Recorded r;
  live::LiveStreamReader reader;
  reader.feed(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())));
  while (auto m = reader.next()) {
    if (auto* t = std::get_if<live::LiveTick>(&*m)) r.ticks.push_back(*t);
    if (auto* w = std::get_if<store::WindowRow>(&*m)) r.windows.push_back(*w);
    if (std::holds_alternative<live::LiveNotice>(*m)) ++r.notices;
    if (auto* e = std::get_if<live::LiveEnd>(&*m)) r.end = *e;
    if (auto* h = std::get_if<live::LiveHello>(&*m)) r.hello = *h;
  }
  return r;
}

/// The drawn points at the given times (ticks), in order.
QList<QPointF> at(const QList<QPointF>& drawn, const std::vector<double>& xs) {
  QList<QPointF> out;
  for (const QPointF& p : drawn) {
    if (std::find(xs.begin(), xs.end(), p.x()) != xs.end()) out.append(p);
  }
  return out;
}

/// A stream made with core's encoder: 12 s of ticks, a window per second, a notice, End.
QByteArray synthesizedStream() {
  std::string out = live::encodeLiveGreeting();
  live::LiveHello hello;
  hello.runId = 42;
  hello.runName = "synth";
  hello.workloadName = "synth";
  hello.durationS = 12;
  hello.plannedTotal = 1200;
  hello.windowNs = 1'000'000'000;
  out += live::encodeLiveFrame(hello);
  for (int i = 1; i <= 48; ++i) {
    live::LiveTick t;
    t.atNs = int64_t{i} * 250'000'000;
    t.requestedRps = 100;
    t.achievedRps = 90 + (i % 11);
    t.inFlight = i % 7;
    t.sent = static_cast<uint64_t>(i) * 25;
    if (i % 3 != 0) t.ttft = {20.0 + i, 60.0 + i, 10};
    t.e2eFromPlanned = {300.0 + i, 900.0 + i * 2, 10};
    if (i > 20) t.errors["timeout"] = static_cast<uint64_t>(i - 20);
    out += live::encodeLiveFrame(t);
    if (i % 4 == 0) {
      store::WindowRow w;
      w.idx = i / 4 - 1;
      w.startNs = w.idx * 1'000'000'000;
      w.lengthNs = 1'000'000'000;
      w.planned = w.sent = 100;
      out += live::encodeLiveFrame(w);
    }
    if (i == 30) out += live::encodeLiveFrame(live::LiveNotice{t.atNs, "warning", "worker 1 slow"});
  }
  live::LiveEnd end;
  end.status = "complete";
  end.summary = {{"verdict", "harness_limited"}, {"verdict_reasons", {"send lag", "cpu"}}};
  end.notes = {"stored"};
  out += live::encodeLiveFrame(end);
  return QByteArray(out.data(), static_cast<qsizetype>(out.size()));
}

}  // namespace

class LiveViewReplayTest : public QObject {
  Q_OBJECT
 private slots:
  void drawsTheValuesOfAnEncodedStream() { checkReplay(synthesizedStream()); }

  void drawsTheRecordedValues() {
    const QByteArray bytes = fixture();
    if (bytes.isEmpty()) QSKIP("tests/data/live/quickstart_v1.plml not recorded yet (feat/live)");
    checkReplay(bytes);
  }

  void theBannerPutsFailuresBesideTheVerdictAndSaysWhenARunWasStopped() {
    VerdictBanner banner;
    const nlohmann::json someFailed = {{"verdict", "kept_up"},
                                       {"verdict_reasons", nlohmann::json::array()},
                                       {"sent", 14},
                                       {"completed", 10},
                                       {"errors", {{"connect", 4}}}};
    banner.showEnd(QStringLiteral("complete"), someFailed);
    QCOMPARE(banner.state(), VerdictBanner::State::KeptUp);
    QCOMPARE(banner.text(), QStringLiteral("Kept up: the harness sent the load it was asked for · "
                                           "4 of 14 sent failed (connect 4)"));
    // QA 23b: green for a target that answered nothing. The verdict stays; the colour says it.
    const nlohmann::json allFailed = {{"verdict", "kept_up"},
                                      {"verdict_reasons", nlohmann::json::array()},
                                      {"sent", 14},
                                      {"completed", 0},
                                      {"errors", {{"connect", 14}}}};
    banner.showEnd(QStringLiteral("complete"), allFailed);
    QCOMPARE(banner.state(), VerdictBanner::State::NothingCompleted);
    QCOMPARE(banner.text(), QStringLiteral("Kept up, but not one request completed: the harness "
                                           "sent the load, the target answered none of it · "
                                           "14 of 14 sent failed (connect 14)"));
    const nlohmann::json stopped = {{"verdict", "kept_up"},
                                    {"verdict_reasons", nlohmann::json::array()},
                                    {"sent", 79},
                                    {"errors", nlohmann::json::object()}};
    banner.showEnd(QStringLiteral("incomplete"), stopped);
    QCOMPARE(banner.state(), VerdictBanner::State::Stopped);  // amber, as History shows it
    QCOMPARE(banner.text(),
             QStringLiteral("Kept up until the run stopped: the harness sent what was "
                            "planned before the stop (run incomplete)"));
    // Stopped before anything came due: the summary's verdict is null, and there is none.
    const nlohmann::json nothingDue = {{"verdict", nullptr},
                                       {"verdict_reasons", nlohmann::json::array()},
                                       {"sent", 0},
                                       {"errors", nlohmann::json::object()}};
    banner.showEnd(QStringLiteral("incomplete"), nothingDue);
    QCOMPARE(banner.state(), VerdictBanner::State::Stopped);  // not the red of a failed run
    QCOMPARE(banner.text(), QStringLiteral("No verdict: stopped before the first request came "
                                           "due, so nothing was sent (run incomplete)"));
  }

  // QA: after Stop the requested and achieved rates fell to 0 at the end (History stops them
  // at the run's end); "received SIGTERM" was listed twice, as the live notice and again as
  // the end's note.
  void aStoppedRunsRatesEndWhereSendingEndedAndItsNotesAreNotRepeated() {
    ui::StudioContext ctx;
    ui::live::LiveView view(ctx);
    live::LiveHello hello;
    hello.runId = 9;
    hello.durationS = 60;
    hello.plannedTotal = 600;
    std::string batch = live::encodeLiveGreeting() + live::encodeLiveFrame(hello);
    for (int i = 1; i <= 24; ++i) {  // stopped at 4.4 s, drained until 6 s
      live::LiveTick t;
      t.atNs = int64_t{i} * 250'000'000;
      t.requestedRps = i <= 17 ? 10 : std::max(0, 10 - 3 * (i - 17));
      t.achievedRps = t.requestedRps;
      batch += live::encodeLiveFrame(t);
      if (i == 17)
        batch += live::encodeLiveFrame(live::LiveNotice{
            4'400'000'000, "warning", "received SIGTERM: stopping; requests in flight get 10.0 s"});
    }
    live::LiveEnd end;
    end.status = "incomplete";
    end.summary = {{"verdict", "kept_up"}, {"duration_s", 4.4}, {"sent", 44}, {"planned", 44}};
    end.notes = {"received SIGTERM", "stopped early at 4.4 s; windows after it were not planned"};
    batch += live::encodeLiveFrame(end);
    view.client()->feed(QByteArray(batch.data(), static_cast<qsizetype>(batch.size())));
    // The client hands messages over in time-bounded slices (8 ms each): under ASan the batch
    // takes several event-loop turns, so wait for its End before reading the charts.
    QTRY_VERIFY_WITH_TIMEOUT(view.banner()->state() != VerdictBanner::State::Running &&
                                 view.banner()->state() != VerdictBanner::State::Idle,
                             10000);
    view.charts()->flush();
    const QList<QPointF> requested =
        view.charts()->drawnPoints(QStringLiteral("rate"), QStringLiteral("requested"));
    QCOMPARE(requested.last(), QPointF(4.25, 10));
    QCOMPARE(view.charts()->drawnPoints(QStringLiteral("rate"), QStringLiteral("achieved")).last(),
             QPointF(4.25, 10));
    QStringList texts;
    for (int r = 0; r < view.notices()->rowCount(); ++r)
      texts << view.notices()->index(r).data(Qt::ToolTipRole).toString();
    QCOMPARE(texts.filter(QStringLiteral("received SIGTERM")).size(), 1);
    QVERIFY(texts.contains(
        QStringLiteral("stopped early at 4.4 s; windows after it were not planned")));
  }

  // QA: after the schedule ended the line read "remaining 0:00 · ETA 00:46:35" for the 17 s
  // the run went on waiting for its requests.
  void afterTheScheduleTheProgressSaysItWaitsForWhatIsInFlight() {
    ui::StudioContext ctx;
    ui::live::LiveView view(ctx);
    live::LiveHello hello;
    hello.runId = 10;
    hello.durationS = 2;
    hello.plannedTotal = 40;
    live::LiveTick during, after;
    during.atNs = 1'000'000'000;
    during.sent = 20;
    during.inFlight = 5;
    after.atNs = 2'750'000'000;
    after.sent = 40;
    after.inFlight = 12;
    const std::string head =
        live::encodeLiveGreeting() + live::encodeLiveFrame(hello) + live::encodeLiveFrame(during);
    view.client()->feed(QByteArray(head.data(), static_cast<qsizetype>(head.size())));
    QVERIFY(view.progressText().contains(QStringLiteral("remaining 0:01")));
    const std::string tail = live::encodeLiveFrame(after);
    view.client()->feed(QByteArray(tail.data(), static_cast<qsizetype>(tail.size())));
    QCOMPARE(
        view.progressText(),
        QStringLiteral("elapsed 0:03 · schedule done · waiting for 12 in flight · sent 40 / 40"));
    // The rates stop with the schedule, as History's do.
    view.charts()->flush();
    QCOMPARE(
        view.charts()->drawnPoints(QStringLiteral("rate"), QStringLiteral("achieved")).last().x(),
        1.0);
  }

  // QA: at 1000 × 700 the right-hand charts were clipped (their "10" cut off).
  void fitsASmallWindow() {
    ui::StudioContext ctx;
    ui::live::LiveView view(ctx);
    const std::string head = live::encodeLiveGreeting() + live::encodeLiveFrame(live::LiveHello{});
    view.client()->feed(QByteArray(head.data(), static_cast<qsizetype>(head.size())));
    const QSize min = view.minimumSizeHint();
    QVERIFY2(min.width() <= 1000 && min.height() <= 660,
             qPrintable(QStringLiteral("%1 × %2").arg(min.width()).arg(min.height())));
    view.resize(1000, 660);
    view.show();
    QCoreApplication::processEvents();
    ui::charts::RunCharts* charts = view.charts();
    QVERIFY(charts->width() >= charts->minimumSizeHint().width());
    QVERIFY(charts->height() >= charts->minimumSizeHint().height());
  }

  void aCorruptStreamIsANamedErrorNotACrash() {
    QByteArray bytes = synthesizedStream();
    bytes[0] = 'X';  // wrong magic
    ui::StudioContext ctx;
    ui::live::LiveView view(ctx);
    QSignalSpy spy(view.client(), &ui::live::LiveClient::protocolError);
    view.client()->feed(bytes);
    QCOMPARE(spy.count(), 1);
    QVERIFY(!spy.first().first().toString().isEmpty());
    QVERIFY(view.notices()->rowCount() >= 1);
    QCOMPARE(view.banner()->state(), VerdictBanner::State::NoVerdict);
  }

  // A tick changes the progress text; that must not re-lay out the view (which on screen
  // repainted the whole window four times a second): the label is sized once per run.
  void ticksDoNotReLayOutTheView() {
    ui::StudioContext ctx;
    ui::live::LiveView view(ctx);
    view.resize(1400, 900);
    view.show();
    std::string head = live::encodeLiveGreeting();
    live::LiveHello hello;
    hello.runId = 7;
    hello.runName = hello.workloadName = "relayout";
    hello.durationS = 600;
    hello.plannedTotal = 3'000'000;
    hello.windowNs = 1'000'000'000;
    head += live::encodeLiveFrame(hello);
    view.client()->feed(QByteArray(head.data(), static_cast<qsizetype>(head.size())));
    QCoreApplication::processEvents();
    struct LayoutCounter : QObject {
      int count = 0;
      bool eventFilter(QObject*, QEvent* e) override {
        if (e->type() == QEvent::LayoutRequest) ++count;
        return false;
      }
    } counter;
    view.installEventFilter(&counter);
    for (int i = 1; i <= 40; ++i) {  // elapsed 0:00 .. 9:59, sent 1 .. 3,000,000: widths vary
      live::LiveTick t;
      t.atNs = int64_t{i} * 15'000'000'000 - 1'000'000'000;
      t.requestedRps = t.achievedRps = 5000;
      t.sent = i == 40 ? 3'000'000 : static_cast<uint64_t>(std::pow(1.45, i));
      const std::string frame = live::encodeLiveFrame(t);
      view.client()->feed(QByteArray(frame.data(), static_cast<qsizetype>(frame.size())));
      QCoreApplication::processEvents();
    }
    QCOMPARE(counter.count, 0);
  }

 private:
  void checkReplay(const QByteArray& bytes) {
    const Recorded rec = decode(bytes);
    QVERIFY(rec.ticks.size() > 20);
    QVERIFY(rec.end.has_value());

    ui::StudioContext ctx;
    ui::live::LiveView view(ctx);
    view.resize(1400, 900);
    // Fed in small pieces, like a socket delivers them; frames straddle the pieces.
    for (qsizetype i = 0; i < bytes.size(); i += 777) view.client()->feed(bytes.mid(i, 777));
    QTRY_VERIFY_WITH_TIMEOUT(view.banner()->state() != VerdictBanner::State::Running &&
                                 view.banner()->state() != VerdictBanner::State::Idle, 10000);
    view.charts()->flush();

    std::vector<double> xs;
    QList<QPointF> achieved, requested, inFlight, ttftP99, e2ePlannedP99;
    // The rates are drawn for the sending period (the summary's duration), as History draws
    // them: after it they only fall to 0.
    const double sendingEnd = rec.end->summary.value("duration_s", rec.hello->durationS);
    for (const auto& t : rec.ticks) {
      const double x = static_cast<double>(t.atNs) / 1e9;
      xs.push_back(x);
      if (x <= sendingEnd + 1e-9) {
        achieved.append({x, t.achievedRps});
        requested.append({x, t.requestedRps});
      }
      inFlight.append({x, static_cast<double>(t.inFlight)});
      if (t.ttft.count > 0) ttftP99.append({x, t.ttft.p99});
      if (t.e2eFromPlanned.count > 0) e2ePlannedP99.append({x, t.e2eFromPlanned.p99});
    }
    auto drawn = [&](const char* chart, const char* series) {
      return at(view.charts()->drawnPoints(QLatin1String(chart), QLatin1String(series)), xs);
    };
    QCOMPARE(drawn("rate", "achieved"), achieved);
    QCOMPARE(drawn("rate", "requested"), requested);
    QCOMPARE(drawn("in_flight", "in flight"), inFlight);
    QCOMPARE(drawn("ttft", "p99"), ttftP99);
    QCOMPARE(drawn("e2e", "p99 from planned"), e2ePlannedP99);

    const std::string verdict = rec.end->summary.value("verdict", std::string());
    QCOMPARE(view.banner()->state(),
             verdict == "kept_up" ? VerdictBanner::State::KeptUp : VerdictBanner::State::HarnessLimited);
    QCOMPARE(static_cast<size_t>(view.banner()->reasons().size()), rec.end->summary["verdict_reasons"].size());
    QCOMPARE(static_cast<size_t>(view.notices()->rowCount()), rec.notices + rec.end->notes.size());
    QVERIFY(!view.isRunning());
  }
};

QTEST_MAIN(LiveViewReplayTest)
#include "live_view_replay_test.moc"
