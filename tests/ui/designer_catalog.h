#pragma once
// The shipped catalog and small file helpers the designer's QtTests share.
#include <QByteArray>
#include <QFile>
#include <QString>

#include "ui/common/studio_context.h"

namespace plumbline::ui::designer::testing {

inline const QString kCatalog = QStringLiteral(PLUMBLINE_SOURCE_DIR "/workloads");

inline QString catalogFile(const char* name) {
  return kCatalog + QLatin1Char('/') + QLatin1String(name);
}

/// The studio's folders for a designer under test: the shipped catalog, and `userDir` as yours.
inline StudioContext contextWith(const QString& userDir) {
  StudioContext context;
  context.catalogDir = kCatalog;
  context.userWorkloadDir = userDir;
  return context;
}

inline QByteArray fileText(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace plumbline::ui::designer::testing
