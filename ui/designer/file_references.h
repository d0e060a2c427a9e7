#pragma once
#include <QString>
#include <QStringList>

#include "ui/designer/json_path.h"

namespace plumbline::ui::designer {

/// The workload keys that name a file (trace, ShareGPT dataset, tokenizer). Core's loader
/// resolves a relative one against the workload file's folder; these helpers keep that true
/// when the document moves (saved elsewhere) or runs from a copy (an unsaved workload).
class FileReferences {
 public:
  /// The loader paths of the keys ("load.trace.file", …).
  static const std::vector<std::string>& keys();
  /// The files `document` names, as written ("traces/a.csv"), in the order of keys().
  static QStringList named(const OrderedJson& document);
  /// Rewrites every relative file reference of `document` as an absolute path under `baseDir`.
  /// Returns whether anything changed; an empty baseDir changes nothing.
  static bool makeAbsolute(OrderedJson& document, const QString& baseDir);
};

}  // namespace plumbline::ui::designer
