#include "ui/live/live_client.h"

#include <QLocalSocket>
#include <QTimer>

namespace plumbline::ui::live {

namespace {
constexpr int kMaxMessagesPerSlice = 200;
constexpr qint64 kMaxSliceMs = 8;
constexpr int kRetryIntervalMs = 150;
}  // namespace

LiveClient::LiveClient(QObject* parent) : QObject(parent) {
  m_socket = new QLocalSocket(this);
  m_retryTimer = new QTimer(this);
  m_retryTimer->setSingleShot(true);
  m_retryTimer->setInterval(kRetryIntervalMs);
  connect(m_retryTimer, &QTimer::timeout, this, &LiveClient::tryConnect);
  connect(m_socket, &QLocalSocket::connected, this, [this] {
    m_retryTimer->stop();
    emit attached();
  });
  connect(m_socket, &QLocalSocket::readyRead, this, &LiveClient::onReadyRead);
  connect(m_socket, &QLocalSocket::errorOccurred, this, [this](QLocalSocket::LocalSocketError e) {
    const bool notThereYet = e == QLocalSocket::ServerNotFoundError ||
                             e == QLocalSocket::ConnectionRefusedError;
    if (!notThereYet || m_socket->state() == QLocalSocket::ConnectedState) return;
    if (m_sinceAttach.elapsed() < m_retryForMs) {
      m_retryTimer->start();
    } else {
      emit attachFailed(QStringLiteral("live socket %1: %2").arg(m_path, m_socket->errorString()));
    }
  });
  connect(m_socket, &QLocalSocket::disconnected, this, [this] {
    if (m_failed) return;
    // Frames may still sit in the reader: report the close after they are drained.
    m_closedPending = true;
    drain();
  });
}

LiveClient::~LiveClient() { m_socket->abort(); }

void LiveClient::attach(const QString& socketPath, int retryForMs) {
  detach();
  m_path = socketPath;
  m_retryForMs = retryForMs;
  m_reader = {};
  m_failed = m_sawEnd = m_closedPending = false;
  m_sinceAttach.start();
  tryConnect();
}

void LiveClient::detach() {
  m_retryTimer->stop();
  m_failed = true;  // whatever arrives from the old connection is not wanted
  m_socket->abort();
  m_failed = false;
}

bool LiveClient::isAttached() const { return m_socket->state() == QLocalSocket::ConnectedState; }

void LiveClient::tryConnect() {
  m_socket->abort();
  m_socket->connectToServer(m_path, QIODevice::ReadOnly);
}

void LiveClient::onReadyRead() { feed(m_socket->readAll()); }

void LiveClient::feed(const QByteArray& bytes) {
  if (m_failed) return;
  m_reader.feed(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())));
  drain();
}

void LiveClient::drain() {
  // Bounded work per event-loop turn; the rest continues on the next turn.
  m_drainScheduled = false;
  if (m_failed) return;
  std::vector<plumbline::live::LiveMessage> batch;
  QElapsedTimer slice;
  slice.start();
  bool more = false;
  try {
    while (true) {
      if (static_cast<int>(batch.size()) >= kMaxMessagesPerSlice || slice.elapsed() > kMaxSliceMs) {
        more = true;
        break;
      }
      auto m = m_reader.next();
      if (!m) break;
      if (std::holds_alternative<plumbline::live::LiveEnd>(*m)) m_sawEnd = true;
      batch.push_back(std::move(*m));
    }
  } catch (const plumbline::live::LiveProtocolError& e) {
    m_failed = true;
    if (!batch.empty()) emit messages(batch);
    m_socket->abort();
    emit protocolError(QStringLiteral("live socket %1: %2").arg(m_path, QString::fromStdString(e.what())));
    return;
  }
  if (!batch.empty()) emit messages(batch);
  if (more) {
    if (!m_drainScheduled) {
      m_drainScheduled = true;
      QTimer::singleShot(0, this, &LiveClient::drain);
    }
    return;
  }
  if (m_closedPending) {
    m_closedPending = false;
    emit detached(m_sawEnd);
  }
}

}  // namespace plumbline::ui::live
