#pragma once
#include <QObject>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

#include "ui/designer/json_path.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QWidget;

namespace plumbline::ui::designer {

class FieldGrid;
class WorkloadDocument;

/// Binds form widgets to JSON paths of the document, both ways, and keeps the path → widget
/// map that puts the loader's errors and the warnings at the field they are about. A field
/// left empty removes its key, so the form never adds a default the file did not have.
class FieldBinder : public QObject {
  Q_OBJECT
 public:
  enum class Kind { Text, Number, Bool, Choice, RawJson };

  FieldBinder(WorkloadDocument* document, QObject* parent = nullptr);

  /// Creates an editor for `path`, adds it as a row of `form` (with its message line) and binds it.
  QLineEdit* addText(FieldGrid* form, const QString& label, const std::string& path,
                     const QString& tip = {});
  QLineEdit* addNumber(FieldGrid* form, const QString& label, const std::string& path,
                       const QString& tip = {});
  QComboBox* addBool(FieldGrid* form, const QString& label, const std::string& path,
                     const QString& tip = {});
  QComboBox* addChoice(FieldGrid* form, const QString& label, const std::string& path,
                       const QStringList& options, const QString& tip = {});
  QLineEdit* addRawJson(FieldGrid* form, const QString& label, const std::string& path,
                        const QString& tip = {});
  /// A row whose editor shows the value at `path` but commits through its owner's own handler.
  QWidget* addDisplayOnly(FieldGrid* form, const QString& label, const std::string& path,
                          QWidget* editor, const QString& tip = {});
  /// A composite editor (stage table, distribution) that shows messages for `path` and below.
  /// Returns the message label created under it; `row` is what hides when the area hides.
  QLabel* addArea(const std::string& path, QWidget* row, QLabel* message = nullptr);

  /// Puts every bound editor's value back from the document (`origin` is left alone).
  void refresh(const void* origin = nullptr);
  /// Writes every visible editor's value into the document, as if each were edited.
  void writeAllFromWidgets();

  void clearMessages();
  /// Shows the message at the nearest visible field bound to `path` or a parent of it;
  /// returns the path it landed at ("" when no field matched).
  std::string showError(const std::string& path, const QString& message);
  std::string showWarning(const std::string& path, const QString& message);

  /// The message text shown at the field bound to exactly `path` ("" when none).
  QString messageAt(const std::string& path) const;
  /// The editor bound to exactly `path`, or nullptr.
  QWidget* editorAt(const std::string& path) const;
  /// The form row (editor and message line) bound to exactly `path`, or nullptr.
  QWidget* rowAt(const std::string& path) const;
  /// Every bound path, for tests and the JSON tab's key list.
  std::vector<std::string> paths() const;

 private:
  struct Binding {
    std::string path;
    Kind kind;
    QWidget* editor;
    QWidget* row;
    QLabel* message;
  };
  QWidget* addRow(FieldGrid* form, const QString& label, const std::string& path, Kind kind,
                  QWidget* editor, const QString& tip);
  void commit(const Binding& binding);
  void load(const Binding& binding);
  const Binding* nearestVisible(const std::string& path) const;
  std::string show(const std::string& path, const QString& message, bool error);

  WorkloadDocument* m_document;
  std::vector<Binding> m_bindings;
  bool m_loading = false;
};

/// "text" for strings, JSON for everything else; "" when absent.
QString displayText(const OrderedJson* value);

}  // namespace plumbline::ui::designer
