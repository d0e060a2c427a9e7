#include "ui/designer/workload_document.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include "core/util/json_duplicate_key.h"
#include "core/util/json_syntax_error.h"
#include "core/workload/workload_error.h"
#include "core/workload/workload_loader.h"
#include "ui/designer/file_references.h"

namespace plumbline::ui::designer {
namespace {

/// nlohmann reports a byte offset; people read lines and columns.
QString describeParseError(const QByteArray& text, const OrderedJson::parse_error& error) {
  const std::string_view view(text.constData(), static_cast<size_t>(text.size()));
  return QString::fromStdString(util::jsonSyntaxError(view, error).describe());
}

}  // namespace

QByteArray formatJson(const OrderedJson& json) {
  return QByteArray::fromStdString(json.dump(2) + "\n");
}

WorkloadDocument::WorkloadDocument(QObject* parent) : QObject(parent) {}

std::optional<QString> WorkloadDocument::load(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return file.errorString();
  const bool wasDirty = isDirty();
  setTextAndParse(file.readAll());
  m_savedText = m_text;
  m_path = path;
  emit pathChanged(m_path);
  emit changed(nullptr);
  if (wasDirty) emit dirtyChanged(false);
  return std::nullopt;
}

void WorkloadDocument::reset(const QByteArray& text, const QString& suggestedName,
                             const QString& baseDir) {
  setTextAndParse(text);
  m_unsavedBaseDir = baseDir;
  if (m_syntaxError.isEmpty() && m_json.is_object() && !suggestedName.isEmpty()) {
    m_json["name"] = suggestedName.toStdString();
    m_text = formatJson(m_json);
  }
  m_savedText = m_text;  // nothing typed yet: leaving it loses nothing
  m_path.clear();
  emit pathChanged(m_path);
  emit changed(nullptr);
  emit dirtyChanged(isDirty());
}

QString WorkloadDocument::baseDir() const {
  return m_path.isEmpty() ? m_unsavedBaseDir : QFileInfo(m_path).absolutePath();
}

QByteArray WorkloadDocument::textForRun() const {
  if (!m_syntaxError.isEmpty()) return m_text;
  OrderedJson copy = m_json;
  return FileReferences::makeAbsolute(copy, baseDir()) ? formatJson(copy) : m_text;
}

std::optional<QString> WorkloadDocument::saveTo(const QString& path) {
  const QString oldBase = baseDir();
  if (m_syntaxError.isEmpty() && !oldBase.isEmpty() &&
      QDir(oldBase).absolutePath() != QFileInfo(path).absolutePath()) {
    OrderedJson moved = m_json;
    if (FileReferences::makeAbsolute(moved, oldBase)) {
      m_json = std::move(moved);
      m_text = formatJson(m_json);
      emit changed(nullptr);
    }
  }
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return file.errorString();
  file.write(m_text);
  if (!file.commit()) return file.errorString();
  m_savedText = m_text;
  if (m_path != path) {
    m_path = path;
    emit pathChanged(m_path);
  }
  emit dirtyChanged(false);
  return std::nullopt;
}

void WorkloadDocument::setValue(const std::string& path, OrderedJson value, const void* origin) {
  const JsonPath jsonPath(path);
  if (const auto* current = jsonPath.find(m_json); current && *current == value) return;
  if (jsonPath.set(m_json, std::move(value))) afterJsonEdit(origin);
}

void WorkloadDocument::eraseValue(const std::string& path, const void* origin) {
  if (JsonPath(path).erase(m_json)) afterJsonEdit(origin);
}

void WorkloadDocument::replaceJson(OrderedJson json, const void* origin) {
  if (json == m_json) return;
  m_json = std::move(json);
  afterJsonEdit(origin);
}

void WorkloadDocument::setText(const QByteArray& text) {
  if (text == m_text) return;
  const bool wasDirty = isDirty();
  setTextAndParse(text);
  emit changed(this);  // the JSON tab is the origin
  if (wasDirty != isDirty()) emit dirtyChanged(isDirty());
}

void WorkloadDocument::afterJsonEdit(const void* origin) {
  const bool wasDirty = isDirty();
  m_text = formatJson(m_json);
  m_syntaxError.clear();
  emit changed(origin);
  if (wasDirty != isDirty()) emit dirtyChanged(isDirty());
}

void WorkloadDocument::setTextAndParse(const QByteArray& text) {
  m_text = text;
  try {
    OrderedJson parsed = OrderedJson::parse(text.constData(), text.constData() + text.size());
    if (const auto duplicate = util::firstDuplicateKey(
            std::string_view(text.constData(), static_cast<size_t>(text.size())))) {
      // As a syntax error: the form keeps the last JSON that had one value per key.
      m_syntaxError = QString::fromStdString(duplicate->path + ": " + duplicate->reason());
      return;
    }
    m_json = std::move(parsed);
    m_syntaxError.clear();
  } catch (const OrderedJson::parse_error& error) {
    m_syntaxError = describeParseError(text, error);  // the form keeps the last good JSON
  }
}

namespace {

/// What the loader says of `text` (`syntaxError` when it did not parse), its relative files
/// resolved against `baseDir`. Touches no document: validator() runs it on another thread.
Validation validateText(const QString& syntaxError, const std::string& text,
                        const std::string& baseDir) {
  Validation out;
  if (!syntaxError.isEmpty()) {
    out.error = ValidationError{QString(), QStringLiteral("invalid JSON, ") + syntaxError};
    return out;
  }
  try {
    // Relative files resolve where `plumbline plan FILE` resolves them: the file's folder.
    out.spec = workload::parseWorkload(nlohmann::json::parse(text), baseDir);
  } catch (const workload::WorkloadError& error) {
    QString path = QString::fromStdString(error.path());
    if (path == QStringLiteral("(root)")) path.clear();
    out.error = ValidationError{path, QString::fromStdString(error.reason())};
  }
  return out;
}

}  // namespace

Validation WorkloadDocument::validate() const {
  return validateText(m_syntaxError, m_json.dump(), baseDir().toStdString());
}

std::function<Validation()> WorkloadDocument::validator() const {
  return [syntaxError = m_syntaxError, text = m_json.dump(), base = baseDir().toStdString()] {
    return validateText(syntaxError, text, base);
  };
}

}  // namespace plumbline::ui::designer
