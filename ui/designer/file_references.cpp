#include "ui/designer/file_references.h"

#include <QDir>

namespace plumbline::ui::designer {

const std::vector<std::string>& FileReferences::keys() {
  static const std::vector<std::string> kKeys = {"load.trace.file", "requests.prompt.file",
                                                 "requests.prompt.tokenizer"};
  return kKeys;
}

QStringList FileReferences::named(const OrderedJson& document) {
  QStringList files;
  for (const std::string& key : keys()) {
    const OrderedJson* value = JsonPath(key).find(document);
    if (value && value->is_string() && !value->get_ref<const std::string&>().empty())
      files << QString::fromStdString(value->get<std::string>());
  }
  return files;
}

bool FileReferences::makeAbsolute(OrderedJson& document, const QString& baseDir) {
  if (baseDir.isEmpty()) return false;
  const QDir base(baseDir);
  bool changed = false;
  for (const std::string& key : keys()) {
    const JsonPath path(key);
    const OrderedJson* value = path.find(document);
    if (!value || !value->is_string()) continue;
    const QString file = QString::fromStdString(value->get<std::string>());
    if (file.isEmpty() || !QDir::isRelativePath(file)) continue;
    changed |= path.set(document, QDir::cleanPath(base.absoluteFilePath(file)).toStdString());
  }
  return changed;
}

}  // namespace plumbline::ui::designer
