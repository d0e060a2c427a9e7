// The API key path against a real OS keychain: gnome-keyring's Secret Service on a private
// D-Bus session bus, in a throwaway HOME. The key typed in the live view goes to the
// keychain and to the run's environment (the server sees it as the bearer token), and
// nowhere else: not the settings, the database, the workload copy, the run's log or argv.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QLineEdit>
#include <QComboBox>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include "ui/live/api_key_store.h"
#include "ui/live/live_view.h"
#include "ui/live/notice_model.h"
#include "ui/live/target_panel.h"

using plumbline::ui::live::ApiKeyStore;

namespace {

const QByteArray kKey = "sk-keychain-test-7d3e1b29-only-in-the-keychain";

/// A target that answers every request 401 and records its Authorization headers.
class RecordingServer : public QObject {
 public:
  RecordingServer() {
    connect(&m_server, &QTcpServer::newConnection, this, [this] {
      while (QTcpSocket* s = m_server.nextPendingConnection()) {
        connect(s, &QTcpSocket::readyRead, this, [this, s] { onData(s); });
        connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
      }
    });
  }
  bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
  QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort()); }
  const QList<QByteArray>& authorizations() const { return m_auth; }

 private:
  void onData(QTcpSocket* s) {
    QByteArray& buf = m_buffers[s];
    buf += s->readAll();
    const qsizetype end = buf.indexOf("\r\n\r\n");
    if (end < 0) return;
    QByteArray auth = "(none)";
    qsizetype length = 0;
    for (const QByteArray& line : buf.left(end).split('\n')) {
      const QByteArray l = line.trimmed();
      if (l.toLower().startsWith("authorization:")) auth = l.mid(14).trimmed();
      if (l.toLower().startsWith("content-length:")) length = l.mid(15).trimmed().toLongLong();
    }
    if (buf.size() < end + 4 + length) return;  // the body is still coming
    m_auth << auth;
    m_buffers.remove(s);
    const QByteArray body = R"({"error":{"message":"no","type":"invalid_request_error"}})";
    s->write("HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nConnection: close\r\n"
             "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
    s->disconnectFromHost();
  }

  QTcpServer m_server;
  QHash<QTcpSocket*, QByteArray> m_buffers;
  QList<QByteArray> m_auth;
};

/// Every file under DIR whose bytes contain NEEDLE.
QStringList filesContaining(const QString& dir, const QByteArray& needle) {
  QStringList hits;
  QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    QFile f(it.next());
    if (f.open(QIODevice::ReadOnly) && f.readAll().contains(needle)) hits << f.fileName();
  }
  return hits;
}

}  // namespace

class ApiKeyStoreTest : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir m_home;
  QProcess m_bus;
  QProcess m_keyring;

  static bool secretsServiceUp() {
    QProcess q;
    q.start(QStringLiteral("dbus-send"),
            {QStringLiteral("--session"), QStringLiteral("--print-reply"), QStringLiteral("--dest=org.freedesktop.DBus"),
             QStringLiteral("/org/freedesktop/DBus"), QStringLiteral("org.freedesktop.DBus.NameHasOwner"),
             QStringLiteral("string:org.freedesktop.secrets")});
    return q.waitForFinished(5000) && q.readAllStandardOutput().contains("boolean true");
  }

  /// Writes then reads through the store, waiting for each answer; returns (key, error).
  static QPair<QByteArray, QString> roundTrip(ApiKeyStore& store, const QString& url, const QByteArray* write) {
    bool done = false;
    QString error;
    QByteArray got;
    if (write) {
      store.write(url, *write, [&](const QString& e) { error = e, done = true; });
      if (!QTest::qWaitFor([&] { return done; }, 20000)) return {{}, QStringLiteral("write timed out")};
      if (!error.isEmpty()) return {{}, error};
      done = false;
    }
    store.read(url, [&](const QByteArray& k, const QString& e) { got = k, error = e, done = true; });
    if (!QTest::qWaitFor([&] { return done; }, 20000)) return {{}, QStringLiteral("read timed out")};
    return {got, error};
  }

 private slots:
  void initTestCase() {
    for (const char* tool : {"dbus-daemon", "dbus-send", "gnome-keyring-daemon", "secret-tool"})
      if (QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty())
        QFAIL(qPrintable(QStringLiteral("%1 not found: run packaging/install-deps.sh").arg(QLatin1String(tool))));
    QVERIFY(m_home.isValid());
    // A throwaway desktop session: its own HOME, XDG dirs and session bus, so neither the
    // developer's keyring nor their settings are touched.
    for (const char* sub : {"config", "data", "cache", "runtime"}) QVERIFY(QDir(m_home.path()).mkpath(QLatin1String(sub)));
    QFile::setPermissions(m_home.filePath(QStringLiteral("runtime")),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    qputenv("HOME", m_home.path().toUtf8());
    qputenv("XDG_CONFIG_HOME", m_home.filePath(QStringLiteral("config")).toUtf8());
    qputenv("XDG_DATA_HOME", m_home.filePath(QStringLiteral("data")).toUtf8());
    qputenv("XDG_CACHE_HOME", m_home.filePath(QStringLiteral("cache")).toUtf8());
    qputenv("XDG_RUNTIME_DIR", m_home.filePath(QStringLiteral("runtime")).toUtf8());
    qputenv("XDG_CURRENT_DESKTOP", "GNOME");
    m_bus.start(QStringLiteral("dbus-daemon"), {QStringLiteral("--session"), QStringLiteral("--nofork"),
                                                QStringLiteral("--print-address=1")});
    QVERIFY2(m_bus.waitForStarted(10000), qPrintable(m_bus.errorString()));
    QTRY_VERIFY_WITH_TIMEOUT(m_bus.canReadLine(), 10000);
    const QByteArray address = m_bus.readLine().trimmed();
    QVERIFY(address.startsWith("unix:"));
    qputenv("DBUS_SESSION_BUS_ADDRESS", address);
    // A new login keyring, created unlocked with this password (read from stdin).
    m_keyring.start(QStringLiteral("gnome-keyring-daemon"),
                    {QStringLiteral("--foreground"), QStringLiteral("--unlock"), QStringLiteral("--components=secrets")});
    QVERIFY2(m_keyring.waitForStarted(10000), qPrintable(m_keyring.errorString()));
    m_keyring.write("plumbline-test-login");
    m_keyring.closeWriteChannel();
    QTRY_VERIFY_WITH_TIMEOUT(secretsServiceUp(), 20000);
  }

  void cleanupTestCase() {
    for (QProcess* p : {&m_keyring, &m_bus}) {
      p->terminate();
      if (!p->waitForFinished(5000)) p->kill();
    }
  }

  void storesAndReadsTheKeyInTheOsKeychain() {
    ApiKeyStore store;
    const QString url = QStringLiteral("https://api.example.test/v1");
    const auto [key, error] = roundTrip(store, url, &kKey);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(key, kKey);
    // It is in the Secret Service itself (QtKeychain's libsecret schema), not a fallback file.
    QProcess lookup;
    lookup.start(QStringLiteral("secret-tool"), {QStringLiteral("lookup"), QStringLiteral("user"), url,
                                                 QStringLiteral("server"), ApiKeyStore::service()});
    QVERIFY(lookup.waitForFinished(10000));
    const QByteArray stored = lookup.readAllStandardOutput().trimmed();
    QVERIFY2(stored == kKey || QByteArray::fromBase64(stored) == kKey, stored.constData());
    QCOMPARE(filesContaining(m_home.path(), kKey), QStringList{});
    // One key per target URL: another URL has none.
    const auto [other, otherError] = roundTrip(store, QStringLiteral("https://other.example.test"), nullptr);
    QVERIFY(other.isEmpty());
    QVERIFY2(otherError.contains(QStringLiteral("no key for https://other.example.test")), qPrintable(otherError));
  }

  void aTypedKeyGoesToTheKeychainAndTheRunsEnvironmentOnly() {
    RecordingServer server;
    QVERIFY(server.listen());
    QTemporaryDir work;
    QVERIFY(work.isValid());
    plumbline::ui::StudioContext ctx;
    ctx.plumblineBin = QStringLiteral(PLUMBLINE_BIN);
    ctx.dbPath = work.filePath(QStringLiteral("runs.db"));
    QFile wf(QStringLiteral(PLUMBLINE_SOURCE_DIR "/workloads/quickstart.json"));
    QVERIFY(wf.open(QIODevice::ReadOnly));

    plumbline::ui::live::LiveView view(ctx);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.prepareRun(wf.readAll(), wf.fileName());
    view.targetPanel()->selectUrl(server.url(), QStringLiteral("mock"));
    auto* source = view.targetPanel()->findChild<QComboBox*>(QStringLiteral("apiKeySource"));
    auto* keyEdit = view.targetPanel()->findChild<QLineEdit*>(QStringLiteral("apiKey"));
    QVERIFY(source && keyEdit);
    source->setCurrentIndex(source->findText(QStringLiteral("key in keychain")));
    QTest::keyClicks(keyEdit, QString::fromLatin1(kKey));
    view.setLoadOverride(5, 1);

    auto runOnce = [&] {
      view.start();
      QTRY_VERIFY_WITH_TIMEOUT(view.launchedRun().has_value(), 30000);
      QTRY_VERIFY_WITH_TIMEOUT(!view.isRunning(), 90000);
    };
    runOnce();
    QVERIFY(keyEdit->text().isEmpty());  // handed on, not kept in the panel
    const QByteArray bearer = "Bearer " + kKey;
    QVERIFY2(server.authorizations().contains(bearer),
             qPrintable(QStringLiteral("%1 requests, first authorization: %2")
                            .arg(server.authorizations().size())
                            .arg(QString::fromLatin1(server.authorizations().value(0)))));
    ApiKeyStore store;
    const auto [stored, error] = roundTrip(store, server.url(), nullptr);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(stored, kKey);

    // The second run, with nothing typed, reads the key back from the keychain.
    const qsizetype firstRun = server.authorizations().size();
    runOnce();
    QVERIFY(server.authorizations().size() > firstRun);
    for (qsizetype i = firstRun; i < server.authorizations().size(); ++i)
      QCOMPARE(server.authorizations()[i], bearer);

    // Nowhere on disk: the database (and its WAL), the workload copies and logs the launcher
    // wrote under XDG_RUNTIME_DIR, any settings under the config dir.
    QVERIFY(QFile::exists(ctx.dbPath));
    QCOMPARE(filesContaining(work.path(), kKey), QStringList{});
    QVERIFY(!QDir(m_home.filePath(QStringLiteral("runtime/plumbline"))).isEmpty());
    QCOMPARE(filesContaining(m_home.path(), kKey), QStringList{});
  }
};

QTEST_MAIN(ApiKeyStoreTest)
#include "api_key_store_test.moc"
