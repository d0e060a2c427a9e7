#include "ui/live/api_key_store.h"

#include <qt6keychain/keychain.h>

namespace plumbline::ui::live {

ApiKeyStore::ApiKeyStore(QObject* parent) : QObject(parent) {}

void ApiKeyStore::read(const QString& targetUrl, ReadDone done) {
  auto* job = new QKeychain::ReadPasswordJob(service(), this);
  job->setInsecureFallback(false);
  job->setKey(targetUrl);
  connect(job, &QKeychain::Job::finished, this, [done = std::move(done), targetUrl](QKeychain::Job* j) {
    auto* r = static_cast<QKeychain::ReadPasswordJob*>(j);
    if (r->error() != QKeychain::NoError) {
      done({}, QStringLiteral("keychain: no key for %1 (%2)").arg(targetUrl, r->errorString()));
    } else {
      done(r->binaryData(), {});
    }
  });
  job->start();
}

void ApiKeyStore::write(const QString& targetUrl, const QByteArray& key, WriteDone done) {
  auto* job = new QKeychain::WritePasswordJob(service(), this);
  job->setInsecureFallback(false);
  job->setKey(targetUrl);
  job->setBinaryData(key);
  connect(job, &QKeychain::Job::finished, this, [done = std::move(done), targetUrl](QKeychain::Job* j) {
    done(j->error() == QKeychain::NoError
             ? QString()
             : QStringLiteral("keychain: cannot store the key for %1 (%2)").arg(targetUrl, j->errorString()));
  });
  job->start();
}

}  // namespace plumbline::ui::live
