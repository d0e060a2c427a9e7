#include "ui/designer/field_binder.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include "ui/designer/field_grid.h"
#include "ui/designer/workload_document.h"

namespace plumbline::ui::designer {
namespace {

const QString kErrorStyle = QStringLiteral("color: #b00020;");
const QString kFieldWarningStyle = QStringLiteral("color: #8a5a00;");

/// A number when the text is one; otherwise the text as a string, so the loader names the
/// field ("expected a number, got a string") instead of the form silently dropping it.
OrderedJson numberOrString(const QString& text) {
  try {
    OrderedJson value = OrderedJson::parse(text.toStdString());
    if (value.is_number()) return value;
  } catch (const OrderedJson::parse_error&) {
  }
  return text.toStdString();
}

OrderedJson boolOrValue(const QString& text) {
  if (text == QStringLiteral("true")) return true;
  if (text == QStringLiteral("false")) return false;
  return numberOrString(text);
}

QString comboText(const QComboBox* combo) { return combo->currentText().trimmed(); }

}  // namespace

QString displayText(const OrderedJson* value) {
  if (!value) return {};
  if (value->is_string()) return QString::fromStdString(value->get<std::string>());
  return QString::fromStdString(value->dump());
}

FieldBinder::FieldBinder(WorkloadDocument* document, QObject* parent)
    : QObject(parent), m_document(document) {}

QWidget* FieldBinder::addRow(FieldGrid* form, const QString& label, const std::string& path,
                             Kind kind, QWidget* editor, const QString& tip) {
  auto* row = new QWidget;
  row->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);  // room for the message
  auto* layout = new QVBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(1);
  const bool compact = qobject_cast<QComboBox*>(editor) || editor->maximumWidth() < QWIDGETSIZE_MAX;
  layout->addWidget(editor, 0, compact ? Qt::AlignLeft : Qt::Alignment());
  auto* message = new QLabel(row);
  message->setWordWrap(true);
  message->hide();
  layout->addWidget(message);
  editor->setToolTip(tip.isEmpty() ? QString::fromStdString(path)
                                   : tip + QStringLiteral("\n(") + QString::fromStdString(path) +
                                         QStringLiteral(")"));
  editor->setObjectName(QString::fromStdString(path));
  form->addRow(label, row);
  m_bindings.push_back({path, kind, editor, row, message});
  load(m_bindings.back());
  return row;
}

QLineEdit* FieldBinder::addText(FieldGrid* form, const QString& label, const std::string& path,
                                const QString& tip) {
  auto* edit = new QLineEdit;
  addRow(form, label, path, Kind::Text, edit, tip);
  const size_t index = m_bindings.size() - 1;
  connect(edit, &QLineEdit::textEdited, this, [this, index] { commit(m_bindings[index]); });
  return edit;
}

QLineEdit* FieldBinder::addNumber(FieldGrid* form, const QString& label, const std::string& path,
                                  const QString& tip) {
  auto* edit = new QLineEdit;
  edit->setMaximumWidth(160);
  addRow(form, label, path, Kind::Number, edit, tip);
  const size_t index = m_bindings.size() - 1;
  connect(edit, &QLineEdit::textEdited, this, [this, index] { commit(m_bindings[index]); });
  return edit;
}

QLineEdit* FieldBinder::addRawJson(FieldGrid* form, const QString& label, const std::string& path,
                                   const QString& tip) {
  auto* edit = new QLineEdit;
  edit->setPlaceholderText(QStringLiteral("JSON object"));
  addRow(form, label, path, Kind::RawJson, edit, tip);
  const size_t index = m_bindings.size() - 1;
  connect(edit, &QLineEdit::textEdited, this, [this, index] { commit(m_bindings[index]); });
  return edit;
}

QComboBox* FieldBinder::addBool(FieldGrid* form, const QString& label, const std::string& path,
                                const QString& tip) {
  auto* combo = new QComboBox;
  combo->setEditable(true);  // shows a non-boolean value as it is, so nothing is lost
  combo->addItems({QString(), QStringLiteral("true"), QStringLiteral("false")});
  combo->setMaximumWidth(160);
  addRow(form, label, path, Kind::Bool, combo, tip);
  const size_t index = m_bindings.size() - 1;
  connect(combo, &QComboBox::currentTextChanged, this, [this, index] { commit(m_bindings[index]); });
  return combo;
}

QComboBox* FieldBinder::addChoice(FieldGrid* form, const QString& label, const std::string& path,
                                  const QStringList& options, const QString& tip) {
  auto* combo = new QComboBox;
  combo->setEditable(true);  // a value the form does not list yet (a newer format) stays editable
  combo->addItem(QString());
  combo->addItems(options);
  addRow(form, label, path, Kind::Choice, combo, tip);
  const size_t index = m_bindings.size() - 1;
  connect(combo, &QComboBox::currentTextChanged, this, [this, index] { commit(m_bindings[index]); });
  return combo;
}

QWidget* FieldBinder::addDisplayOnly(FieldGrid* form, const QString& label, const std::string& path,
                                     QWidget* editor, const QString& tip) {
  return addRow(form, label, path, Kind::Choice, editor, tip);
}

QLabel* FieldBinder::addArea(const std::string& path, QWidget* row, QLabel* message) {
  if (!message) {
    message = new QLabel(row);
    message->setWordWrap(true);
    message->hide();
    if (row->layout()) row->layout()->addWidget(message);
  }
  m_bindings.push_back({path, Kind::Text, nullptr, row, message});
  return message;
}

void FieldBinder::commit(const Binding& binding) {
  if (m_loading || !binding.editor) return;
  QString text;
  if (auto* edit = qobject_cast<QLineEdit*>(binding.editor)) text = edit->text().trimmed();
  if (auto* combo = qobject_cast<QComboBox*>(binding.editor)) text = comboText(combo);
  if (text.isEmpty()) {
    m_document->eraseValue(binding.path, binding.editor);
    return;
  }
  switch (binding.kind) {
    case Kind::Text:
    case Kind::Choice:
      m_document->setValue(binding.path, text.toStdString(), binding.editor);
      break;
    case Kind::Number:
      m_document->setValue(binding.path, numberOrString(text), binding.editor);
      break;
    case Kind::Bool:
      m_document->setValue(binding.path, boolOrValue(text), binding.editor);
      break;
    case Kind::RawJson:
      try {
        m_document->setValue(binding.path, OrderedJson::parse(text.toStdString()), binding.editor);
        binding.message->hide();
      } catch (const OrderedJson::parse_error& error) {
        binding.message->setStyleSheet(kErrorStyle);
        binding.message->setText(QStringLiteral("✖ not valid JSON: ") +
                                 QString::fromStdString(error.what()));
        binding.message->show();
      }
      break;
  }
}

void FieldBinder::load(const Binding& binding) {
  if (!binding.editor) return;
  const OrderedJson* value = JsonPath(binding.path).find(m_document->json());
  const QString text = displayText(value);
  m_loading = true;
  if (auto* edit = qobject_cast<QLineEdit*>(binding.editor)) {
    if (edit->text() != text) {
      edit->setText(text);
      edit->setCursorPosition(0);  // show a long description from its start
    }
  } else if (auto* combo = qobject_cast<QComboBox*>(binding.editor)) {
    if (combo->currentText() != text) {
      const int index = combo->findText(text);
      if (index >= 0)
        combo->setCurrentIndex(index);
      else
        combo->setEditText(text);
    }
  }
  m_loading = false;
}

void FieldBinder::refresh(const void* origin) {
  for (const Binding& binding : m_bindings) {
    if (binding.editor && binding.editor != origin) load(binding);
  }
}

void FieldBinder::writeAllFromWidgets() {
  for (const Binding& binding : m_bindings) {
    if (binding.editor && binding.row->isVisibleTo(binding.row->window())) commit(binding);
  }
}

void FieldBinder::clearMessages() {
  for (const Binding& binding : m_bindings) {
    binding.message->clear();
    binding.message->hide();
    if (binding.editor) binding.editor->setStyleSheet(QString());
  }
}

const FieldBinder::Binding* FieldBinder::nearestVisible(const std::string& path) const {
  for (std::string candidate = path;; candidate = JsonPath::parent(candidate)) {
    for (const Binding& binding : m_bindings) {
      if (binding.path == candidate && binding.row->isVisibleTo(binding.row->window()))
        return &binding;
    }
    if (candidate.empty()) return nullptr;
  }
}

std::string FieldBinder::show(const std::string& path, const QString& message, bool error) {
  const Binding* binding = nearestVisible(path);
  if (!binding) return {};
  QString line = (error ? QStringLiteral("✖ ") : QStringLiteral("⚠ ")) + message;
  if (binding->path != path)
    line += QStringLiteral(" (") + QString::fromStdString(path) + QStringLiteral(")");
  const QString previous = binding->message->text();
  // An error outranks warnings: it goes first and sets the colour.
  binding->message->setText(previous.isEmpty() ? line
                            : error           ? line + QLatin1Char('\n') + previous
                                              : previous + QLatin1Char('\n') + line);
  if (error || previous.isEmpty())
    binding->message->setStyleSheet(error ? kErrorStyle : kFieldWarningStyle);
  binding->message->show();
  if (error && binding->editor)
    binding->editor->setStyleSheet(QStringLiteral("border: 1px solid #b00020;"));
  return binding->path;
}

std::string FieldBinder::showError(const std::string& path, const QString& message) {
  return show(path, message, true);
}

std::string FieldBinder::showWarning(const std::string& path, const QString& message) {
  return show(path, message, false);
}

QString FieldBinder::messageAt(const std::string& path) const {
  for (const Binding& binding : m_bindings) {
    if (binding.path == path && !binding.message->text().isEmpty()) return binding.message->text();
  }
  return {};
}

QWidget* FieldBinder::editorAt(const std::string& path) const {
  for (const Binding& binding : m_bindings) {
    if (binding.path == path && binding.editor) return binding.editor;
  }
  return nullptr;
}

QWidget* FieldBinder::rowAt(const std::string& path) const {
  for (const Binding& binding : m_bindings) {
    if (binding.path == path) return binding.row;
  }
  return nullptr;
}

std::vector<std::string> FieldBinder::paths() const {
  std::vector<std::string> out;
  for (const Binding& binding : m_bindings) out.push_back(binding.path);
  return out;
}

}  // namespace plumbline::ui::designer
