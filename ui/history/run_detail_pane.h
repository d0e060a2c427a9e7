#pragma once
#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace plumbline::ui::charts { class RunCharts; }

namespace plumbline::ui::history {

/// One run opened from history: the verdict banner first, what was run, editable name, tags
/// and notes, and its full charts from the stored windows and histograms (the same RunCharts
/// grid the live view draws, loaded from the database).
class RunDetailPane : public QWidget {
  Q_OBJECT
 public:
  explicit RunDetailPane(QWidget* parent = nullptr);

  /// Reads the run from the database and shows it; a message instead when it cannot.
  void showRun(const QString& dbPath, qint64 runId);
  void clear(const QString& message = {});
  qint64 runId() const { return m_runId; }

  QString bannerText() const;
  /// The line under the verdict: id, workload, target, model, start, length, status, version,
  /// and what the server's Retry-After asked for where it did.
  QString metaText() const;
  QString statusText() const;
  QLineEdit* nameEdit() const { return m_name; }
  QLineEdit* tagsEdit() const { return m_tags; }
  QPlainTextEdit* notesEdit() const { return m_notes; }
  charts::RunCharts* charts() const { return m_charts; }

 public slots:
  /// Each writes the field to the database; errors show in the status line. True on success.
  bool saveName();
  bool saveTags();
  bool saveNotes();

 signals:
  /// The run's name, tags or notes changed in the database.
  void runEdited(qint64 runId);

 private:
  void setStatus(const QString& text, bool error);

  QString m_dbPath;
  qint64 m_runId = -1;
  QStringList m_savedTags;
  QLabel* m_banner = nullptr;
  QLabel* m_meta = nullptr;
  QLabel* m_status = nullptr;
  QLineEdit* m_name = nullptr;
  QLineEdit* m_tags = nullptr;
  QPlainTextEdit* m_notes = nullptr;
  QWidget* m_editors = nullptr;
  charts::RunCharts* m_charts = nullptr;
};

}  // namespace plumbline::ui::history
