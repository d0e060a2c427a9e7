#include "ui/history/run_detail_pane.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include "core/metrics/run_summary.h"
#include "core/store/run_editor.h"
#include "core/store/run_reader.h"
#include "ui/charts/run_charts.h"
#include "ui/history/run_table_model.h"

namespace plumbline::ui::history {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString reasonsText(const store::RunRow& row) {
  if (!row.verdictReasonsJson) return {};
  auto j = nlohmann::json::parse(*row.verdictReasonsJson, nullptr, false);
  if (!j.is_array()) return {};
  QStringList lines;
  for (const auto& r : j) lines << (r.is_string() ? qs(r.get<std::string>()) : qs(r.dump()));
  return lines.join(QStringLiteral("\n"));
}

/// " · 26 replies asked to retry after 7 s (not obeyed)" when the server's Retry-After asked
/// for waits in this run (the summary's retry_after); empty otherwise, and for runs stored
/// before it was recorded.
QString retryAfterText(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("retry_after") || !j["retry_after"].is_object()) return {};
  const nlohmann::json& r = j["retry_after"];
  auto integer = [&r](const char* key) {  // a damaged summary says nothing rather than throw
    const auto it = r.find(key);
    return it != r.end() && it->is_number_integer() ? it->get<int64_t>() : int64_t{-1};
  };
  const int64_t n = integer("responses"), minMs = integer("min_ms"), maxMs = integer("max_ms");
  if (n <= 0 || minMs < 0 || maxMs < minMs) return {};
  return QStringLiteral(" · %1 %2 asked to retry after %3 (not obeyed)")
      .arg(n)
      .arg(n == 1 ? QStringLiteral("reply") : QStringLiteral("replies"),
           QString::fromStdString(metrics::retryAfterWaitText(minMs, maxMs)));
}

/// "\nfirst http_4xx reply: HTTP 404: {...}" per failing HTTP class of the run (the summary's
/// failure_samples): why its requests failed, as the server said it. Empty when none failed so,
/// for runs stored before samples were kept, and for a damaged stored value.
QString firstFailuresText(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("failure_samples")) return {};
  QString out;
  try {
    for (const auto& [cls, sample] : metrics::failureSamplesFromJson(j["failure_samples"]))
      out += QStringLiteral("\n") + qs(metrics::describeFirstFailure(cls, sample));
  } catch (const std::invalid_argument&) {
    return {};
  }
  return out;
}

/// "\nnote: received SIGINT" per note the run made (the summary's notes): why it stopped, why
/// requests were not sent. Empty for runs stored before notes were kept.
QString runNotesText(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("notes") || !j["notes"].is_array()) return {};
  QString out;
  for (const auto& note : j["notes"])
    if (note.is_string()) out += QStringLiteral("\nnote: ") + qs(note.get<std::string>());
  return out;
}

}  // namespace

RunDetailPane::RunDetailPane(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  m_banner = new QLabel(this);
  m_banner->setWordWrap(true);
  m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_meta = new QLabel(this);
  m_meta->setWordWrap(true);
  m_meta->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(m_banner);
  layout->addWidget(m_meta);

  // One row: each field with its button beside it, so the charts get the pane's height.
  m_editors = new QWidget(this);
  auto* form = new QHBoxLayout(m_editors);
  form->setContentsMargins(0, 0, 0, 0);
  auto addField = [&](const QString& label, QWidget* editor, const char* buttonText, auto slot, int stretch) {
    auto* caption = new QLabel(label, m_editors);
    caption->setBuddy(editor);
    form->addWidget(caption);
    form->addWidget(editor, stretch);
    auto* button = new QPushButton(QString::fromLatin1(buttonText), m_editors);
    connect(button, &QPushButton::clicked, this, slot);
    form->addWidget(button);
    form->addSpacing(8);
  };
  m_name = new QLineEdit(m_editors);
  m_tags = new QLineEdit(m_editors);
  m_tags->setPlaceholderText(QStringLiteral("comma-separated, e.g. nightly, h100"));
  m_notes = new QPlainTextEdit(m_editors);
  m_notes->setPlaceholderText(QStringLiteral("what this run was for, what changed, what to compare it with"));
  m_notes->setFixedHeight(m_notes->fontMetrics().lineSpacing() * 2 + 12);  // two lines; it scrolls
  addField(QStringLiteral("&Name"), m_name, "Rename", &RunDetailPane::saveName, 2);
  addField(QStringLiteral("&Tags"), m_tags, "Save tags", &RunDetailPane::saveTags, 2);
  addField(QStringLiteral("N&otes"), m_notes, "Save notes", &RunDetailPane::saveNotes, 3);
  connect(m_name, &QLineEdit::returnPressed, this, &RunDetailPane::saveName);
  connect(m_tags, &QLineEdit::returnPressed, this, &RunDetailPane::saveTags);
  layout->addWidget(m_editors);
  m_status = new QLabel(this);
  layout->addWidget(m_status);

  m_charts = new charts::RunCharts(this);
  layout->addWidget(charts::RunCharts::inScrollArea(m_charts, this), 1);
  clear(QStringLiteral("Select a run to see its verdict and charts."));
}

void RunDetailPane::clear(const QString& message) {
  m_runId = -1;
  m_banner->setText(message);
  m_banner->setStyleSheet({});
  m_meta->clear();
  m_status->clear();
  m_name->clear();
  m_tags->clear();
  m_notes->clear();
  m_editors->setEnabled(false);
  m_charts->clear();
}

void RunDetailPane::showRun(const QString& dbPath, qint64 runId) {
  m_dbPath = dbPath;
  try {
    store::RunReader reader(dbPath.toStdString());
    std::optional<store::RunRow> row = reader.getRun(runId);
    if (!row) {
      clear(QStringLiteral("Run %1 is no longer in the database.").arg(runId));
      return;
    }
    m_runId = runId;
    const bool keptUp = row->verdict && *row->verdict == "kept_up";
    const bool stopped = row->status == "incomplete";
    QString banner = QStringLiteral("Verdict: ") + verdictText(*row);
    if (stopped && row->verdict)  // the live banner's words for the same run
      banner += QStringLiteral(" (judged on what was planned before the stop)");
    // The stored summary, read once for the banner and the detail lines (null when none).
    const nlohmann::json summary = row->summaryJson
                                       ? nlohmann::json::parse(*row->summaryJson, nullptr, false)
                                       : nlohmann::json();
    if (const std::string failed = metrics::failedText(summary); !failed.empty())
      banner += QStringLiteral(" · ") + qs(failed);
    if (QString reasons = reasonsText(*row); !reasons.isEmpty()) banner += QStringLiteral("\n") + reasons;
    m_banner->setText(banner);
    const bool noneCompleted =
        row->completed && *row->completed == 0 && row->sent && *row->sent > 0;
    m_banner->setStyleSheet(
        noneCompleted  // as the live banner: red, whatever the verdict
            ? QStringLiteral("QLabel{background:#f8d7da;color:#721c24;"
                             "padding:6px;font-weight:bold;}")
            : keptUp && !stopped ? QStringLiteral("QLabel{background:#d8f0dc;color:#14532d;"
                                                  "padding:6px;font-weight:bold;}")
              : keptUp           ? QStringLiteral("QLabel{background:#fdf1c7;color:#6b4a00;"
                                                            "padding:6px;font-weight:bold;}")
                                 : QStringLiteral("QLabel{background:#fde2cf;color:#7c2d12;"
                                                            "padding:6px;font-weight:bold;}"));
    m_meta->setText(
        QStringLiteral("#%1 · workload %2 · target %3 · model %4 · started %5 · %6 s · "
                       "status %7 · Plumbline %8")
            .arg(row->id)
            .arg(qs(row->workloadName), qs(row->targetUrl), qs(row->model), qs(row->createdAt),
                 row->durationS ? QString::number(*row->durationS, 'f', 1) : QStringLiteral("?"),
                 qs(row->status), qs(row->toolVersion)) +
        retryAfterText(summary) + firstFailuresText(summary) + runNotesText(summary));
    m_name->setText(qs(row->name));
    m_savedTags.clear();
    for (const auto& t : reader.tags(runId)) m_savedTags << qs(t);
    m_tags->setText(m_savedTags.join(QStringLiteral(", ")));
    m_notes->setPlainText(qs(row->notes.value_or("")));
    m_editors->setEnabled(true);
    m_status->clear();
    m_charts->loadRun(reader, runId);
  } catch (const std::exception& e) {
    clear(QString::fromUtf8(e.what()));
  }
}

QString RunDetailPane::bannerText() const { return m_banner->text(); }
QString RunDetailPane::metaText() const { return m_meta->text(); }
QString RunDetailPane::statusText() const { return m_status->text(); }

void RunDetailPane::setStatus(const QString& text, bool error) {
  m_status->setText(text);
  m_status->setStyleSheet(error ? QStringLiteral("color:#b91c1c;") : QString());
}

bool RunDetailPane::saveName() {
  if (m_runId < 0) return false;
  try {
    store::RunEditor(m_dbPath.toStdString()).rename(m_runId, m_name->text().toStdString());
  } catch (const std::exception& e) {
    setStatus(QString::fromUtf8(e.what()), true);
    return false;
  }
  emit runEdited(m_runId);  // the list refreshes, and this pane with it: say so after that
  setStatus(QStringLiteral("Renamed."), false);
  return true;
}

bool RunDetailPane::saveTags() {
  if (m_runId < 0) return false;
  QStringList wanted;
  for (const QString& t : m_tags->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
    if (!t.trimmed().isEmpty() && !wanted.contains(t.trimmed(), Qt::CaseInsensitive))
      wanted << t.trimmed();
  try {
    store::RunEditor editor(m_dbPath.toStdString());
    for (const QString& t : wanted) store::RunEditor::normalizeTag(t.toStdString(), m_dbPath.toStdString());
    for (const QString& t : m_savedTags)
      if (!wanted.contains(t)) editor.removeTag(m_runId, t.toStdString());
    for (const QString& t : wanted) editor.addTag(m_runId, t.toStdString());
  } catch (const std::exception& e) {
    setStatus(QString::fromUtf8(e.what()), true);
    return false;
  }
  m_savedTags = wanted;
  emit runEdited(m_runId);  // the list refreshes, and this pane with it: say so after that
  m_tags->setText(wanted.join(QStringLiteral(", ")));
  setStatus(QStringLiteral("Tags saved."), false);
  return true;
}

bool RunDetailPane::saveNotes() {
  if (m_runId < 0) return false;
  try {
    store::RunEditor(m_dbPath.toStdString()).setNotes(m_runId, m_notes->toPlainText().toStdString());
  } catch (const std::exception& e) {
    setStatus(QString::fromUtf8(e.what()), true);
    return false;
  }
  setStatus(QStringLiteral("Notes saved."), false);
  emit runEdited(m_runId);
  return true;
}

}  // namespace plumbline::ui::history
