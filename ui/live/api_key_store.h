#pragma once
#include <QByteArray>
#include <QObject>
#include <QString>
#include <functional>

namespace plumbline::ui::live {

/// API keys in the OS keychain (QtKeychain), one per target URL. Never falls back to a
/// plain settings file: when no keychain is available the callback gets the error.
class ApiKeyStore : public QObject {
  Q_OBJECT
 public:
  using ReadDone = std::function<void(const QByteArray& key, const QString& error)>;
  using WriteDone = std::function<void(const QString& error)>;

  explicit ApiKeyStore(QObject* parent = nullptr);
  void read(const QString& targetUrl, ReadDone done);
  void write(const QString& targetUrl, const QByteArray& key, WriteDone done);

  static QString service() { return QStringLiteral("plumbline-studio"); }
};

}  // namespace plumbline::ui::live
