#pragma once
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <vector>

#include "core/live/live_stream.h"

class QLocalSocket;
class QTimer;

namespace plumbline::ui::live {

/// Reads a run's live-telemetry socket (core/live/live_protocol.h). Bytes go into core's
/// LiveStreamReader; complete messages come out in slices of bounded work per event-loop
/// turn, one signal per slice, so a large burst (attaching to an hour-long run replays
/// every window) never blocks the UI thread. Attaching retries while the socket is not
/// there yet (the run is starting).
class LiveClient : public QObject {
  Q_OBJECT
 public:
  explicit LiveClient(QObject* parent = nullptr);
  ~LiveClient() override;

  /// Connects to SOCKET, retrying for up to retryForMs while it does not exist or refuses.
  void attach(const QString& socketPath, int retryForMs = 15000);
  void detach();
  bool isAttached() const;
  QString socketPath() const { return m_path; }

  /// Feeds raw stream bytes (greeting first) as if read from a socket: replays a recorded
  /// stream without a run.
  void feed(const QByteArray& bytes);

 signals:
  void attached();
  /// Complete messages in arrival order; connect directly (same thread).
  void messages(const std::vector<plumbline::live::LiveMessage>& batch);
  /// The stream broke the protocol; the connection is closed. Names the problem.
  void protocolError(const QString& message);
  /// Attaching gave up (socket missing or refusing for retryForMs).
  void attachFailed(const QString& message);
  /// The server closed the connection; sawEnd says whether an End frame came first.
  void detached(bool sawEnd);

 private:
  void tryConnect();
  void onReadyRead();
  void drain();

  QLocalSocket* m_socket = nullptr;
  QTimer* m_retryTimer = nullptr;
  QElapsedTimer m_sinceAttach;
  int m_retryForMs = 0;
  QString m_path;
  plumbline::live::LiveStreamReader m_reader;
  bool m_failed = false;
  bool m_sawEnd = false;
  bool m_drainScheduled = false;
  bool m_closedPending = false;
};

}  // namespace plumbline::ui::live
