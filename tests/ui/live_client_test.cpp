// LiveClient over a real Unix socket: attaches while the server is not up yet, decodes a
// stream delivered in bursts, reports End before the close, and names protocol errors.
#include <QLocalServer>
#include <QLocalSocket>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "core/live/live_stream.h"
#include "ui/live/live_client.h"

using namespace plumbline;
using ui::live::LiveClient;

namespace {

QByteArray stream(int ticks, bool withEnd) {
  std::string out = live::encodeLiveGreeting();
  live::LiveHello hello;
  hello.runId = 7;
  out += live::encodeLiveFrame(hello);
  for (int i = 1; i <= ticks; ++i) {
    live::LiveTick t;
    t.atNs = int64_t{i} * 250'000'000;
    t.achievedRps = i;
    out += live::encodeLiveFrame(t);
  }
  if (withEnd) {
    live::LiveEnd end;
    end.status = "complete";
    end.summary = {{"verdict", "kept_up"}, {"verdict_reasons", nlohmann::json::array()}};
    out += live::encodeLiveFrame(end);
  }
  return QByteArray(out.data(), static_cast<qsizetype>(out.size()));
}

}  // namespace

class LiveClientTest : public QObject {
  Q_OBJECT
 private slots:
  void attachesBeforeTheServerListensAndReadsEverything() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("live.sock"));
    LiveClient client;
    size_t messages = 0, batches = 0;
    double lastRate = 0;
    connect(&client, &LiveClient::messages, this, [&](const std::vector<live::LiveMessage>& batch) {
      ++batches;
      messages += batch.size();
      for (const auto& m : batch) {
        if (auto* t = std::get_if<live::LiveTick>(&m)) lastRate = t->achievedRps;
      }
    });
    QSignalSpy detached(&client, &LiveClient::detached);
    QSignalSpy errors(&client, &LiveClient::protocolError);
    client.attach(path, 20000);  // the run is still starting: nothing listens yet

    QLocalServer server;
    QTest::qWait(300);
    QVERIFY(server.listen(path));
    QTRY_VERIFY_WITH_TIMEOUT(server.hasPendingConnections(), 20000);
    QLocalSocket* peer = server.nextPendingConnection();
    const QByteArray bytes = stream(3000, true);  // a long run's replay arrives in one burst
    peer->write(bytes.left(bytes.size() / 2));
    peer->flush();
    QTest::qWait(50);
    peer->write(bytes.mid(bytes.size() / 2));
    QTRY_COMPARE_WITH_TIMEOUT(peer->bytesToWrite(), qint64{0}, 20000);
    peer->disconnectFromServer();

    QTRY_COMPARE_WITH_TIMEOUT(detached.count() + errors.count(), 1, 20000);
    QCOMPARE(errors.count(), 0);
    QCOMPARE(detached.first().first().toBool(), true);  // End came before the close
    QCOMPARE(messages, size_t{3002});
    QCOMPARE(lastRate, 3000.0);
    QVERIFY2(batches >= 15, "a burst must be handed over in bounded slices");
  }

  void aCloseWithoutEndIsReportedAsSuch() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("live.sock"));
    QLocalServer server;
    QVERIFY(server.listen(path));
    LiveClient client;
    QSignalSpy detached(&client, &LiveClient::detached);
    client.attach(path, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(server.hasPendingConnections(), 10000);
    QLocalSocket* peer = server.nextPendingConnection();
    peer->write(stream(5, false));
    peer->disconnectFromServer();
    QTRY_COMPARE_WITH_TIMEOUT(detached.count(), 1, 10000);
    QCOMPARE(detached.first().first().toBool(), false);
  }

  void aMissingSocketGivesUpWithItsPath() {
    LiveClient client;
    QSignalSpy failed(&client, &LiveClient::attachFailed);
    client.attach(QStringLiteral("/nonexistent/live.sock"), 300);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
    QVERIFY(failed.first().first().toString().contains(QStringLiteral("/nonexistent/live.sock")));
  }

  void aBadFrameIsANamedProtocolError() {
    LiveClient client;
    QSignalSpy errors(&client, &LiveClient::protocolError);
    QByteArray bytes = stream(2, false);
    bytes[8] = char(0xff);  // the first frame's length: far past the maximum
    bytes[9] = char(0xff);
    bytes[10] = char(0xff);
    bytes[11] = char(0x7f);
    client.feed(bytes);
    QCOMPARE(errors.count(), 1);
    client.feed(stream(2, true));  // a failed reader stays failed: no resync on garbage
    QCOMPARE(errors.count(), 1);
  }
};

QTEST_MAIN(LiveClientTest)
#include "live_client_test.moc"
