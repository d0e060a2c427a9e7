#pragma once
#include <QByteArray>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>

#include "core/workload/workload_spec.h"
#include "ui/designer/json_path.h"

namespace plumbline::ui::designer {

/// Where the loader said the document is wrong.
struct ValidationError {
  QString path;     ///< JSON path ("load.stages[1].rate"), "" for the whole document
  QString message;  ///< one line
};

struct Validation {
  std::optional<ValidationError> error;
  std::optional<workload::WorkloadSpec> spec;  ///< set exactly when error is not
};

/// The workload being edited: its JSON (key order as written), its text as the JSON tab and
/// the file hold it, the file it came from, and whether it differs from that file. The form
/// and the JSON tab both edit this one object, which is what makes them round-trip.
class WorkloadDocument : public QObject {
  Q_OBJECT
 public:
  explicit WorkloadDocument(QObject* parent = nullptr);

  /// Reads a file. On failure leaves the document as it was and returns the reason.
  std::optional<QString> load(const QString& path);
  /// A new, unsaved document (from a catalog entry's text, or an empty workload). Its relative
  /// file references resolve against `baseDir` until it is saved (a catalog copy: the entry's
  /// folder, where its traces and datasets are).
  void reset(const QByteArray& text, const QString& suggestedName, const QString& baseDir = {});
  /// Writes the current text. On failure returns the reason. Saved into another folder, the
  /// relative file references are first made absolute, so they still name the same files.
  std::optional<QString> saveTo(const QString& path);

  const OrderedJson& json() const { return m_json; }
  /// The JSON text: the file's bytes until the form edits, then the form's JSON, indented.
  const QByteArray& text() const { return m_text; }
  QString path() const { return m_path; }
  /// Where relative file references (trace, dataset, tokenizer) resolve: the file's folder, as
  /// `plumbline plan` and `run` resolve them; for an unsaved document the folder reset() gave.
  QString baseDir() const;
  /// The text with its relative file references made absolute against baseDir(): what a run
  /// of this document executes from a copy elsewhere. The text itself when there are none.
  QByteArray textForRun() const;
  bool isDirty() const { return m_text != m_savedText; }
  /// Empty when the text parses; otherwise "line L, column C: reason".
  QString syntaxError() const { return m_syntaxError; }

  /// The form's edits. `origin` is handed back with changed() so its editor can skip refreshing.
  void setValue(const std::string& path, OrderedJson value, const void* origin = nullptr);
  void eraseValue(const std::string& path, const void* origin = nullptr);
  /// Replaces a whole subtree in one change (kind switches, added stages).
  void replaceJson(OrderedJson json, const void* origin = nullptr);
  /// The JSON tab's edit: the text is kept as typed; the JSON follows when it parses.
  void setText(const QByteArray& text);

  /// Validates with core's loader: the spec when valid, else where and why not.
  Validation validate() const;
  /// validate() of the document as it is now, to call on another thread: it holds copies only.
  std::function<Validation()> validator() const;

 signals:
  void changed(const void* origin);
  void dirtyChanged(bool dirty);
  void pathChanged(const QString& path);

 private:
  void afterJsonEdit(const void* origin);
  void setTextAndParse(const QByteArray& text);

  OrderedJson m_json = OrderedJson::object();
  QByteArray m_text;
  QByteArray m_savedText;
  QString m_path;
  QString m_unsavedBaseDir;
  QString m_syntaxError;
};

/// The text the form writes: indented by two spaces, newline-terminated.
QByteArray formatJson(const OrderedJson& json);

}  // namespace plumbline::ui::designer
